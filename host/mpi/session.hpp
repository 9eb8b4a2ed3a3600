// This process's place in a distributed run. A launcher (mpirun, srun) is
// recognised from its environment. perftide itself never loads MPI: started
// by a launcher, it hands the process over to perftide-mpi beside it, which
// initialises MPI; a build without MPI refuses to run as one of several
// ranks rather than count the same thing several times.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace perftide::dist {

// What the launcher's environment says before MPI is initialised: Open MPI
// (OMPI_COMM_WORLD_RANK/SIZE), PMI-1/2 launchers such as MPICH's Hydra and
// srun --mpi=pmi2 (PMI_RANK/SIZE), and PMIx launchers (PMIX_RANK; the size
// is then only known after initialisation, -1 here).
struct LaunchInfo {
    bool launched = false;
    int rank = 0;
    int size = 1;
    int local_rank = -1;  // this rank's place on its node, where the launcher says it (-1: not said)
};
// Open MPI's, PMI's and PMIx's variables for the rank and size; the local
// rank from OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID (MPICH, Intel MPI),
// SLURM_LOCALID (srun), PMI_LOCAL_RANK or PALS_LOCAL_RANKID.
LaunchInfo launch_from_env();

// The CUDA_VISIBLE_DEVICES value that gives the rank with this local
// (per-node) rank one GPU of its node: an entry of the launcher's list
// when one is set (srun --gpus-per-task), else local rank mod the number of
// devices. No value when there is no GPU to choose.
std::optional<std::string> gpu_for_local_rank(int local_rank, const char* visible_devices, int device_count);
// Gives this rank its GPU (CUDA_VISIBLE_DEVICES, by gpu_for_local_rank)
// when the job has several ranks; `device_count` counts the node's GPUs.
// Called before MPI starts where the launcher names the local rank: a
// CUDA-aware MPI initialises the driver in MPI_Init, after which the
// variable is no longer read (every rank would land on the first GPU).
void choose_gpu(int local_rank, int device_count);

// The session could not start (MPI missing from this build, or MPI failed).
struct LaunchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An MPI call that failed (the communicator returns errors instead of
// ending the job, so the message can say which call and which peer).
struct MpiError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Session {
   public:
    // A single-rank session, without MPI.
    Session();
    // Initialises MPI when launched by an MPI launcher; a plain process is a
    // session of one rank. A distributed session gives each rank one GPU of
    // its node (CUDA_VISIBLE_DEVICES, before any CUDA call).
    Session(int& argc, char**& argv);
    ~Session();  // finalises MPI
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    int local_rank() const { return local_rank_; }
    int local_size() const { return local_size_; }
    bool distributed() const { return size_ > 1; }
    // "rank 2 (node07)", for messages.
    std::string describe(int rank) const;

    // Prints "perftide: rank R (host): what" and ends every rank of the job
    // with `code` (MPI_Abort); for failures that leave no orderly way out.
    [[noreturn]] void abort_job(const std::string& what, int code) const;

    struct Impl;
    Impl& impl() const { return *impl_; }

   private:
    int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
    std::vector<std::string> hosts_;
    std::unique_ptr<Impl> impl_;
};

// The session main() created; a single-rank session when there is none
// (for instance in tests that call the engines directly).
const Session& world();

namespace detail {
void register_world(const Session* s);  // by Session's constructor and destructor
int nvidia_device_files();
}  // namespace detail

}  // namespace perftide::dist
