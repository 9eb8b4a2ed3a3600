// The one probe of what this machine lends a run: the memory free for it
// (the lower of the kernel's MemAvailable and a container's cgroup limit less
// its usage) and the default number of threads. Every engine that sizes
// itself from the machine asks here, so the CLI, UCI and the Python module
// see the same numbers. Host code only.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace perftide::machine {

namespace detail {

// A number from a one-line file (cgroup limits), or nothing ("max", absent).
inline std::optional<std::size_t> read_bytes(const char* path) {
    std::ifstream f(path);
    std::string word;
    if (!(f >> word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::size_t(std::stoull(word));
}

// MemAvailable from /proc/meminfo in bytes, or nothing.
inline std::optional<std::size_t> mem_available() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kb = 0;
    while (meminfo >> key >> kb) {
        if (key == "MemAvailable:") return kb << 10;
        meminfo.ignore(64, '\n');
    }
    return std::nullopt;
}

}  // namespace detail

// Bytes of memory a run may take now: MemAvailable (else the free pages, else
// 1 GiB), capped by a container's memory limit less its usage (cgroup v2,
// else v1), which binds before the host's.
inline std::size_t available_bytes() {
    std::size_t bytes = std::size_t(1) << 30;
    if (const auto m = detail::mem_available()) {
        bytes = *m;
    } else {
        const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) bytes = std::size_t(pages) * std::size_t(page);
    }
    for (const auto& [limit, usage] : {std::pair{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
                                       std::pair{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                                 "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
        const auto l = detail::read_bytes(limit), u = detail::read_bytes(usage);
        if (l && u) {
            bytes = std::min(bytes, *l > *u ? *l - *u : 0);
            break;
        }
    }
    return bytes;
}

inline std::size_t available_mb() { return available_bytes() >> 20; }

// The threads a run uses when none are asked for: every hardware thread.
inline int default_threads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace perftide::machine
