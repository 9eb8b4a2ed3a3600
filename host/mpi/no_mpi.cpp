// The single-rank session: perftide without MPI loaded. Started by an MPI
// launcher, it hands the process over to perftide-mpi beside it (same PID,
// arguments and environment, so the launcher sees one rank); without that
// binary (a build without MPI), it refuses to run as one of several ranks,
// since each copy would count the whole job on its own.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "mpi/dist_perft.hpp"
#include "mpi/frontier_exchange.hpp"
#include "mpi/session.hpp"

namespace perftide::dist {

namespace {

// perftide-mpi in this executable's folder, or empty when there is none.
std::string mpi_binary() {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return {};
    std::string path(self, size_t(n));
    const std::string mpi = path.substr(0, path.rfind('/') + 1) + "perftide-mpi";
    // Never perftide-mpi itself: a build that linked this file into it would
    // otherwise hand over to itself for ever.
    return mpi != path && access(mpi.c_str(), X_OK) == 0 ? mpi : std::string();
}

}  // namespace

struct Session::Impl {};

Session::Session() : impl_(std::make_unique<Impl>()) {}

Session::Session(int&, char**& argv) : impl_(std::make_unique<Impl>()) {
    const LaunchInfo l = launch_from_env();
    if (!l.launched) return;
    if (const std::string mpi = mpi_binary(); !mpi.empty()) {
        std::fflush(nullptr);
        execv(mpi.c_str(), argv);
        throw LaunchError("started by an MPI launcher, perftide could not hand over to " + mpi);
    }
    if (l.size != 1)
        throw LaunchError("this perftide was built without MPI, so it cannot run as one of several ranks; rebuild it with "
                          "Open MPI installed (libopenmpi-dev), or start it without mpirun/srun");
}

Session::~Session() = default;

void Session::abort_job(const std::string& what, int code) const {
    std::fprintf(stderr, "perftide: %s\n", what.c_str());
    std::exit(code);
}

// Reached only by distributed sessions, which this build never has.
[[noreturn]] static void no_mpi() { throw std::logic_error("distributed code reached in a build without MPI"); }

DistResult coordinate_perft(const Session&, const std::function<chess::Position()>&, int, const RankBackend&,
                            DeepOptions) {
    no_mpi();
}
int serve_perft(const Session&, int, const RankBackend&, DeepOptions) { no_mpi(); }

namespace detail {
std::vector<FrontierRecord> alltoallv_records(const Session&, const std::vector<FrontierRecord>&,
                                              const std::vector<uint64_t>&) {
    no_mpi();
}
std::vector<uint64_t> allgather_words(const Session&, const std::vector<uint64_t>&) { no_mpi(); }
std::vector<FrontierRecord> gather_records(const Session&, const std::vector<FrontierRecord>&) { no_mpi(); }
std::vector<FrontierRecord> allgatherv_records(const Session&, const std::vector<FrontierRecord>&) { no_mpi(); }
}  // namespace detail

}  // namespace perftide::dist
