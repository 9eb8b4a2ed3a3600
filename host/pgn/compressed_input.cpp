#include "pgn/compressed_input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#if PERFTIDE_HAVE_ZLIB
#include <zlib.h>
#endif
#if PERFTIDE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace perftide::pgn {

namespace {

// One decompressor: step() takes what it can of `avail` input bytes at `in`
// and writes up to `bytes` decompressed bytes to `to`.
struct Codec {
    struct Step {
        size_t consumed = 0, made = 0;
        bool pending = false;  // a compressed frame is begun and not finished
    };
    virtual ~Codec() = default;
    virtual const char* name() const = 0;
    virtual Step step(const char* in, size_t avail, char* to, size_t bytes) = 0;
};

struct PlainCodec : Codec {
    const char* name() const override { return "plain"; }
    Step step(const char* in, size_t avail, char* to, size_t bytes) override {
        const size_t n = std::min(avail, bytes);
        std::memcpy(to, in, n);
        return {n, n, false};
    }
};

#if PERFTIDE_HAVE_ZLIB
// gzip, member after member (a file may hold several).
struct GzipCodec : Codec {
    explicit GzipCodec(const std::string& file) : file_(file) {
        if (inflateInit2(&z_, 15 + 16) != Z_OK) throw std::runtime_error("zlib could not start");
    }
    ~GzipCodec() override { inflateEnd(&z_); }
    const char* name() const override { return "gzip"; }
    Step step(const char* in, size_t avail, char* to, size_t bytes) override {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in)), z_.avail_in = uInt(avail);
        z_.next_out = reinterpret_cast<Bytef*>(to), z_.avail_out = uInt(bytes);
        const int r = inflate(&z_, Z_NO_FLUSH);
        Step s{avail - z_.avail_in, bytes - z_.avail_out, true};
        if (r == Z_STREAM_END) {
            inflateReset(&z_);  // another gzip member may follow
            s.pending = false;
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            throw std::invalid_argument(file_ + ": corrupt gzip data (" + (z_.msg ? z_.msg : "zlib error") + ")");
        }
        return s;
    }

   private:
    std::string file_;
    z_stream z_{};
};
#endif

#if PERFTIDE_HAVE_ZSTD
struct ZstdCodec : Codec {
    explicit ZstdCodec(const std::string& file) : file_(file), zs_(ZSTD_createDStream()) {
        if (!zs_) throw std::runtime_error("libzstd could not start");
    }
    ~ZstdCodec() override { ZSTD_freeDStream(zs_); }
    const char* name() const override { return "zstd"; }
    Step step(const char* in, size_t avail, char* to, size_t bytes) override {
        ZSTD_inBuffer i{in, avail, 0};
        ZSTD_outBuffer o{to, bytes, 0};
        const size_t r = ZSTD_decompressStream(zs_, &o, &i);
        if (ZSTD_isError(r)) throw std::invalid_argument(file_ + ": corrupt Zstandard data (" + ZSTD_getErrorName(r) + ")");
        return {i.pos, o.pos, r != 0};
    }

   private:
    std::string file_;
    ZSTD_DStream* zs_;
};
#endif

bool starts_with(const std::vector<char>& b, size_t len, std::initializer_list<unsigned char> magic) {
    if (len < magic.size()) return false;
    size_t i = 0;
    for (unsigned char m : magic)
        if ((unsigned char)b[i++] != m) return false;
    return true;
}

// The decompressor the first bytes call for; a compression this build lacks
// is refused naming the file.
std::unique_ptr<Codec> codec_for(const std::vector<char>& first, size_t len, const std::string& file) {
    if (starts_with(first, len, {0x1f, 0x8b})) {
#if PERFTIDE_HAVE_ZLIB
        return std::make_unique<GzipCodec>(file);
#else
        throw std::invalid_argument(file + " is gzip data: this perftide was built without zlib");
#endif
    }
    if (starts_with(first, len, {0x28, 0xb5, 0x2f, 0xfd})) {
#if PERFTIDE_HAVE_ZSTD
        return std::make_unique<ZstdCodec>(file);
#else
        throw std::invalid_argument(file + " is Zstandard data: this perftide was built without libzstd");
#endif
    }
    return std::make_unique<PlainCodec>();
}

}  // namespace

// The input side: raw bytes buffered, and the one decompressor the first
// bytes chose.
struct CompressedInput::Decoder {
    std::vector<char> in = std::vector<char>(1 << 16);
    size_t pos = 0, len = 0;
    uint64_t raw = 0, made = 0;  // bytes read from the input, and decompressed
    bool end = false;      // the raw input is exhausted
    bool pending = false;  // a compressed frame is begun and not finished
    std::unique_ptr<Codec> codec;
};

CompressedInput::CompressedInput(const std::string& path) : decoder_(std::make_unique<Decoder>()) {
    if (path == "-") {
        fd_ = 0, name_ = "stdin";
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY);
        if (fd_ < 0) throw std::invalid_argument("cannot open " + path + ": " + std::strerror(errno));
        own_fd_ = true, name_ = path;
    }
    setg(out_, out_, out_);
}

CompressedInput::CompressedInput(std::string name, std::string_view bytes)
    : memory_(bytes), name_(std::move(name)), decoder_(std::make_unique<Decoder>()) {
    setg(out_, out_, out_);
}

CompressedInput::~CompressedInput() {
    if (own_fd_) ::close(fd_);
}

const char* CompressedInput::format() const { return decoder_->codec ? decoder_->codec->name() : "plain"; }

size_t CompressedInput::read_raw(char* to, size_t bytes) {
    if (fd_ < 0) {
        const size_t n = std::min(bytes, memory_.size());
        std::memcpy(to, memory_.data(), n);
        memory_.remove_prefix(n);
        return n;
    }
    for (;;) {
        const ssize_t n = ::read(fd_, to, bytes);
        if (n >= 0) return size_t(n);
        if (errno != EINTR) throw std::runtime_error("reading " + name_ + " failed: " + std::strerror(errno));
    }
}

// Decompressed bytes into `to`, at least one unless the input has ended.
size_t CompressedInput::fill(char* to, size_t bytes) {
    Decoder& d = *decoder_;
    const auto refill = [&] {
        if (d.pos < d.len || d.end) return;
        d.len = read_raw(d.in.data(), d.in.size()), d.pos = 0, d.raw += d.len;
        d.end = d.len == 0;
    };
    refill();
    if (!d.codec) d.codec = codec_for(d.in, d.len, name_);
    for (;;) {
        refill();
        if (d.end) {
            if (d.pending)
                throw std::invalid_argument(name_ + ": the " + format() + " data ends in the middle, cut after " +
                                            std::to_string(d.raw) + " bytes (" + std::to_string(d.made) +
                                            " bytes of text): a truncated file?");
            return 0;
        }
        const Codec::Step s = d.codec->step(d.in.data() + d.pos, d.len - d.pos, to, bytes);
        d.pos += s.consumed, d.made += s.made;
        d.pending = s.pending;
        if (s.made) return s.made;
    }
}

CompressedInput::int_type CompressedInput::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const size_t n = fill(out_, sizeof out_);
    if (n == 0) return traits_type::eof();
    setg(out_, out_, out_ + n);
    return traits_type::to_int_type(*gptr());
}

}  // namespace perftide::pgn
