// Session in a build without MPI: always a single rank. Started by an MPI
// launcher as one of several ranks, it refuses, since each copy would count
// the whole job on its own.
#include <cstdio>
#include <cstdlib>

#include <stdexcept>

#include "dist/dist_perft.hpp"
#include "dist/frontier_exchange.hpp"
#include "dist/session.hpp"

namespace gperft::dist {

struct Session::Impl {};

bool built_with_mpi() { return false; }

Session::Session() : impl_(std::make_unique<Impl>()) {}

Session::Session(int&, char**&) : impl_(std::make_unique<Impl>()) {
    const LaunchInfo l = launch_from_env();
    if (l.launched && l.size != 1)
        throw LaunchError("this gperft was built without MPI, so it cannot run as one of several ranks; rebuild it with "
                          "Open MPI installed (libopenmpi-dev), or start it without mpirun/srun");
}

Session::~Session() = default;

void Session::abort_job(const std::string& what, int code) const {
    std::fprintf(stderr, "gperft: %s\n", what.c_str());
    std::exit(code);
}

// Reached only by distributed sessions, which this build never has.
[[noreturn]] static void no_mpi() { throw std::logic_error("distributed code reached in a build without MPI"); }

DistResult coordinate_perft(const Session&, const std::function<chess::Position()>&, int, DeepOptions) { no_mpi(); }
int serve_perft(const Session&, int, DeepOptions) { no_mpi(); }

namespace detail {
std::vector<FrontierRecord> alltoallv_records(const Session&, const std::vector<FrontierRecord>&,
                                              const std::vector<uint64_t>&) {
    no_mpi();
}
std::vector<uint64_t> allgather_words(const Session&, const std::vector<uint64_t>&) { no_mpi(); }
std::vector<FrontierRecord> gather_records(const Session&, const std::vector<FrontierRecord>&) { no_mpi(); }
}  // namespace detail

}  // namespace gperft::dist
