#include "frontier/frontier_file.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/settings.hpp"
#include "frontier/expander.hpp"

namespace perftide::frontier {

namespace {

using cpu::ENTRY_BYTES;

// A directory that cannot take the file (errno says why), with the sizes.
[[noreturn]] void refuse(const std::string& dir, const std::string& failed, const std::string& what, uint64_t need) {
    const std::string why = std::strerror(errno);
    throw WorkDirUnusable(named(Setting::WorkDir, dir) + ": " + failed + " (" + why + "); " + what + " needs about " +
                          mib(need) + ", the directory has " + mib(free_space(dir, need, what)) + " free");
}

// Moves n entries from or to entry `at` of the file, a call of io at a time.
template <class Io>
void transfer(uint64_t at, uint64_t n, Io&& io) {
    const uint64_t bytes = n * ENTRY_BYTES;
    for (uint64_t done = 0; done < bytes;) {
        const ssize_t r = io(at * ENTRY_BYTES + done, done, bytes - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            throw std::runtime_error(std::string("the work directory's frontier file: ") +
                                     (errno ? std::strerror(errno) : "short transfer"));
        done += uint64_t(r);
    }
}

}  // namespace

std::string mib(uint64_t bytes) {
    constexpr uint64_t MIB = uint64_t(1) << 20;
    return std::to_string((bytes + MIB - 1) / MIB) + " MiB";
}

uint64_t free_space(const std::string& dir, uint64_t need, const std::string& what) {
    struct statvfs fs;
    if (statvfs(dir.c_str(), &fs) != 0)
        throw WorkDirUnusable(named(Setting::WorkDir, dir) + ": cannot read its free space (" + std::strerror(errno) + "); " +
                              what + " needs about " + mib(need));
    return uint64_t(fs.f_bavail) * fs.f_frsize;
}

void check_free_space(const std::string& dir, uint64_t need, const std::string& what) {
    const uint64_t free = free_space(dir, need, what);
    if (need > free)
        throw WorkDirUnusable(named(Setting::WorkDir, dir) + " has " + mib(free) + " free; " + what + " needs about " +
                              mib(need) + ": free some space or give another directory");
}

FrontierFile::FrontierFile(const std::string& dir, uint64_t reserve_entries) {
    const uint64_t need = reserve_entries * ENTRY_BYTES;
    const std::string what = "this ply's frontier of about " + std::to_string(reserve_entries) + " positions";
    check_free_space(dir, need, what);
    std::string name = dir + "/perftide-frontier-XXXXXX";
    fd_ = mkstemp(name.data());
    if (fd_ < 0) refuse(dir, "cannot make a file there", what, need);
    unlink(name.c_str());
    if (const int e = posix_fallocate(fd_, 0, off_t(need)); e != 0) {
        errno = e;
        close(fd_);
        refuse(dir, "cannot take the space for a file there", what, need);
    }
}

FrontierFile::~FrontierFile() { close(fd_); }

void FrontierFile::write(uint64_t at, const cpu::Entry* e, uint64_t n) {
    transfer(at, n, [&](uint64_t off, uint64_t done, uint64_t bytes) {
        return pwrite(fd_, reinterpret_cast<const char*>(e) + done, bytes, off_t(off));
    });
}

void FrontierFile::read(uint64_t at, cpu::Entry* e, uint64_t n) const {
    transfer(at, n, [&](uint64_t off, uint64_t done, uint64_t bytes) {
        return pread(fd_, reinterpret_cast<char*>(e) + done, bytes, off_t(off));
    });
    posix_fadvise(fd_, off_t(at * ENTRY_BYTES), off_t(n * ENTRY_BYTES), POSIX_FADV_DONTNEED);
}

}  // namespace perftide::frontier
