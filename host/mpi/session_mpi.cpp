// Session with MPI: initialised only under a launcher, with the funneled
// thread level (rank 0 counts on a thread of its own, but only the main
// thread calls MPI).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "mpi/mpi_comm.hpp"

namespace perftide::dist {

namespace {

std::vector<std::string> gather_hosts(MPI_Comm comm, int size) {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    check_mpi(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
    std::vector<char> all(size_t(size) * MPI_MAX_PROCESSOR_NAME);
    check_mpi(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm),
              "MPI_Allgather of host names");
    std::vector<std::string> hosts;
    for (int r = 0; r < size; ++r) hosts.emplace_back(&all[size_t(r) * MPI_MAX_PROCESSOR_NAME]);
    return hosts;
}

}  // namespace

void check_mpi(int rc, const std::string& what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw MpiError(what + " failed: " + std::string(text, size_t(len)));
}

void send_words(const Session& s, int dest, Tag tag, const Words& words) {
    check_mpi(MPI_Send(words.data(), int(words.size()), MPI_UINT64_T, dest, tag, communicator(s)),
              "sending to " + s.describe(dest));
}

std::optional<Message> poll_message(const Session& s, int source) {
    int flag = 0;
    MPI_Status st;
    check_mpi(MPI_Iprobe(source, MPI_ANY_TAG, communicator(s), &flag, &st), "MPI_Iprobe");
    if (!flag) return std::nullopt;
    int count = 0;
    check_mpi(MPI_Get_count(&st, MPI_UINT64_T, &count), "MPI_Get_count");
    Message m{st.MPI_SOURCE, st.MPI_TAG, Words(size_t(count))};
    check_mpi(MPI_Recv(m.words.data(), count, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, communicator(s), MPI_STATUS_IGNORE),
              "receiving from " + s.describe(st.MPI_SOURCE));
    return m;
}

Message wait_message(const Session& s, int source) {
    for (;;) {
        if (auto m = poll_message(s, source)) return std::move(*m);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

Session::Session() : impl_(std::make_unique<Impl>()) {}

Session::Session(int& argc, char**& argv) : impl_(std::make_unique<Impl>()) {
    const LaunchInfo launch = launch_from_env();
    if (!launch.launched) return;
    // The GPU is chosen before MPI starts wherever the launcher names the
    // local rank (see choose_gpu); otherwise from the node's ranks below.
    const bool chosen = launch.size != 1 && launch.local_rank >= 0;
    if (chosen) choose_gpu(launch.local_rank, detail::nvidia_device_files());
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw LaunchError("MPI could not be initialised");
    MPI_Comm_dup(MPI_COMM_WORLD, &impl_->comm);
    MPI_Comm_set_errhandler(impl_->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(impl_->comm, &rank_);
    MPI_Comm_size(impl_->comm, &size_);
    MPI_Comm node = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split_type(impl_->comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
    hosts_ = gather_hosts(impl_->comm, size_);
    detail::register_world(this);
    if (size_ > 1 && !chosen) choose_gpu(local_rank_, detail::nvidia_device_files());
}

Session::~Session() {
    if (impl_->comm == MPI_COMM_NULL) return;
    detail::register_world(nullptr);
    MPI_Comm_free(&impl_->comm);
    MPI_Finalize();
}

void Session::abort_job(const std::string& what, int code) const {
    std::fprintf(stderr, "perftide: %s: %s\n", describe(rank_).c_str(), what.c_str());
    std::fflush(stderr);
    if (impl_->comm != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

}  // namespace perftide::dist
