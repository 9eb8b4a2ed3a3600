// The parts of a session that do not need MPI: reading the launcher's
// environment, choosing a GPU per local rank, and the session registry.
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "count/cpu_perft.hpp"
#include "mpi/dist_perft.hpp"
#include "mpi/session.hpp"

namespace perftide::dist {

namespace {

bool read_int(const char* name, int& value) {
    const char* s = std::getenv(name);
    if (!s || !*s) return false;
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end || v < 0 || v > (1 << 30)) return false;
    value = int(v);
    return true;
}

const Session* g_world = nullptr;

}  // namespace

LaunchInfo launch_from_env() {
    LaunchInfo l;
    if (read_int("OMPI_COMM_WORLD_SIZE", l.size)) {
        l.launched = true;
        read_int("OMPI_COMM_WORLD_RANK", l.rank);
    } else if (read_int("PMI_SIZE", l.size)) {
        l.launched = true;
        read_int("PMI_RANK", l.rank);
    } else if (read_int("PMIX_RANK", l.rank)) {
        l.launched = true;
        l.size = -1;
    }
    for (const char* name :
         {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "PMI_LOCAL_RANK", "PALS_LOCAL_RANKID"})
        if (l.launched && read_int(name, l.local_rank)) break;
    return l;
}

void choose_gpu(int local_rank, int device_count) {
    const auto gpu = gpu_for_local_rank(local_rank, std::getenv("CUDA_VISIBLE_DEVICES"), device_count);
    if (gpu) setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1);
}

std::optional<std::string> gpu_for_local_rank(int local_rank, const char* visible_devices, int device_count) {
    if (visible_devices) {
        std::vector<std::string> list;
        std::istringstream in(visible_devices);
        for (std::string item; std::getline(in, item, ',');)
            if (!item.empty()) list.push_back(item);
        if (list.empty()) return std::nullopt;  // the launcher left this rank no GPU
        return list[size_t(local_rank) % list.size()];
    }
    if (device_count <= 0) return std::nullopt;
    return std::to_string(local_rank % device_count);
}

namespace detail {

// NVIDIA device nodes (/dev/nvidia0, /dev/nvidia1, ...): the GPU count
// without initialising CUDA, which would fix the visible devices too early.
int nvidia_device_files() {
    int n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/dev", ec)) {
        const std::string f = e.path().filename().string();
        n += f.size() > 6 && f.rfind("nvidia", 0) == 0 && f.find_first_not_of("0123456789", 6) == std::string::npos;
    }
    return n;
}

void register_world(const Session* s) { g_world = s; }

}  // namespace detail

const Session& world() {
    if (g_world) return *g_world;
    static const Session single;
    return single;
}

int rank_threads(const Session& s, int threads) {
    if (threads > 0) return threads;
    cpu_set_t set;
    const int bound = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : default_threads();
    return std::max(1, std::min(bound, default_threads() / std::max(1, s.local_size())));
}

DeepOptions rank_options(const Session& s, DeepOptions o) {
    o.memory_sharers = std::max(1, s.local_size());
    return o;
}

std::unique_ptr<Backend> open_rank_backend(const Session& s, const RankBackend& asked) {
    return open_backend(asked.choice, rank_threads(s, asked.threads));
}

std::string Session::describe(int rank) const {
    const std::string host = size_t(rank) < hosts_.size() ? hosts_[rank] : "";
    return "rank " + std::to_string(rank) + (host.empty() ? "" : " (" + host + ")");
}

}  // namespace perftide::dist
