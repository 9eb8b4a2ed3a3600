// A kept frontier too large for the memory budget, in a file of the work
// directory (unique --work-dir): whole 32-byte entries, written once a ply
// and read back a chunk at a time by each pass; and the free-space checks
// that refuse a directory before a ply rather than in the middle of it.
#pragma once

#include <cstdint>
#include <string>

#include "frontier/pass_tables.hpp"

namespace perftide::frontier {

// Bytes as whole MiB, rounded up ("64 MiB"): how the CPU engine's refusals
// write sizes.
std::string mib(uint64_t bytes);

// The bytes free to this process in `dir`; throws WorkDirUnusable (with
// the need) when they cannot be read.
uint64_t free_space(const std::string& dir, uint64_t need, const std::string& what);

// Throws WorkDirUnusable, naming the sizes, when `dir` has less than `need`
// bytes free for `what`, or its free space cannot be read.
void check_free_space(const std::string& dir, uint64_t need, const std::string& what);

// The frontier file: unlinked as soon as it is made, so that it goes with
// the process however that ends. Its space is taken up front
// (posix_fallocate), so that a full disk is found before the ply.
class FrontierFile {
   public:
    FrontierFile(const std::string& dir, uint64_t reserve_entries);
    FrontierFile(const FrontierFile&) = delete;
    FrontierFile& operator=(const FrontierFile&) = delete;
    ~FrontierFile();

    uint64_t size() const { return size_; }
    void set_size(uint64_t n) { size_ = n; }
    void write(uint64_t at, const cpu::Entry* e, uint64_t n);
    void read(uint64_t at, cpu::Entry* e, uint64_t n) const;  // each entry once a pass: not kept in the page cache

   private:
    int fd_ = -1;
    uint64_t size_ = 0;
};

}  // namespace perftide::frontier
