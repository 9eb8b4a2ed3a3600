// A file or standard input read as text whatever its compression: plain,
// gzip (zlib) or Zstandard (libzstd), told apart by their first bytes, never
// by the file name, decompressed as it is read (constant memory).
#pragma once

#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

namespace perftide::pgn {

// Throws std::invalid_argument naming the file when it cannot be opened, and
// from the stream's reads when its compressed data is corrupt or cut short
// or of a compression this build lacks; std::runtime_error for a read error.
class CompressedInput : public std::streambuf {
   public:
    explicit CompressedInput(const std::string& path);  // "-": standard input
    // Bytes in memory (held by the caller while it reads), read as a file
    // holding them would be; `name` names them in messages.
    CompressedInput(std::string name, std::string_view bytes);
    ~CompressedInput() override;
    CompressedInput(const CompressedInput&) = delete;
    CompressedInput& operator=(const CompressedInput&) = delete;

    const std::string& name() const { return name_; }
    // "plain", "gzip" or "zstd": known after the first read.
    const char* format() const;

   protected:
    int_type underflow() override;

   private:
    struct Decoder;
    size_t read_raw(char* to, size_t bytes);  // 0 at the end of the file
    size_t fill(char* to, size_t bytes);      // decompressed bytes; 0 at the end

    int fd_ = -1;
    bool own_fd_ = false;
    std::string_view memory_;  // the bytes still unread, when not a file
    std::string name_;
    std::unique_ptr<Decoder> decoder_;
    char out_[1 << 16];
};

}  // namespace perftide::pgn
