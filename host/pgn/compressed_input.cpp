#include "pgn/compressed_input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#if GPERFT_HAVE_ZLIB
#include <zlib.h>
#endif
#if GPERFT_HAVE_ZSTD
#include <zstd.h>
#endif

namespace gperft::pgn {

// The input side: raw bytes buffered, and the state of the one decompressor
// the first bytes chose.
struct CompressedInput::Decoder {
    enum Kind { UNKNOWN, PLAIN, GZIP, ZSTD } kind = UNKNOWN;
    std::vector<char> in = std::vector<char>(1 << 16);
    size_t pos = 0, len = 0;
    bool end = false;      // the raw input is exhausted
    bool pending = false;  // a compressed frame is begun and not finished
#if GPERFT_HAVE_ZLIB
    z_stream z{};
    bool z_ready = false;
#endif
#if GPERFT_HAVE_ZSTD
    ZSTD_DStream* zs = nullptr;
#endif
    ~Decoder() {
#if GPERFT_HAVE_ZLIB
        if (z_ready) inflateEnd(&z);
#endif
#if GPERFT_HAVE_ZSTD
        if (zs) ZSTD_freeDStream(zs);
#endif
    }
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

CompressedInput::~CompressedInput() {
    if (own_fd_) ::close(fd_);
}

const char* CompressedInput::format() const {
    switch (decoder_->kind) {
        case Decoder::GZIP: return "gzip";
        case Decoder::ZSTD: return "zstd";
        default: return "plain";
    }
}

size_t CompressedInput::read_raw(char* to, size_t bytes) {
    for (;;) {
        const ssize_t n = ::read(fd_, to, bytes);
        if (n >= 0) return size_t(n);
        if (errno != EINTR) throw std::runtime_error("reading " + name_ + " failed: " + std::strerror(errno));
    }
}

namespace {

bool starts_with(const std::vector<char>& b, size_t len, std::initializer_list<unsigned char> magic) {
    if (len < magic.size()) return false;
    size_t i = 0;
    for (unsigned char m : magic)
        if ((unsigned char)b[i++] != m) return false;
    return true;
}

}  // namespace

// Decompressed bytes into `to`, at least one unless the input has ended.
size_t CompressedInput::fill(char* to, size_t bytes) {
    Decoder& d = *decoder_;
    const auto refill = [&] {
        if (d.pos < d.len || d.end) return;
        d.len = read_raw(d.in.data(), d.in.size()), d.pos = 0;
        d.end = d.len == 0;
    };
    refill();
    if (d.kind == Decoder::UNKNOWN) {
        d.kind = starts_with(d.in, d.len, {0x1f, 0x8b})             ? Decoder::GZIP
                 : starts_with(d.in, d.len, {0x28, 0xb5, 0x2f, 0xfd}) ? Decoder::ZSTD
                                                                      : Decoder::PLAIN;
#if !GPERFT_HAVE_ZLIB
        if (d.kind == Decoder::GZIP) throw std::invalid_argument(name_ + " is gzip data: this gperft was built without zlib");
#else
        if (d.kind == Decoder::GZIP) {
            if (inflateInit2(&d.z, 15 + 16) != Z_OK) throw std::runtime_error("zlib could not start");
            d.z_ready = true;
        }
#endif
#if !GPERFT_HAVE_ZSTD
        if (d.kind == Decoder::ZSTD) throw std::invalid_argument(name_ + " is Zstandard data: this gperft was built without libzstd");
#else
        if (d.kind == Decoder::ZSTD && !(d.zs = ZSTD_createDStream())) throw std::runtime_error("libzstd could not start");
#endif
    }
    for (;;) {
        refill();
        if (d.end) {
            if (d.pending) throw std::invalid_argument(name_ + ": the " + format() + " data ends in the middle (a truncated file?)");
            return 0;
        }
        const size_t avail = d.len - d.pos;
        if (d.kind == Decoder::PLAIN) {
            const size_t n = std::min(avail, bytes);
            std::memcpy(to, d.in.data() + d.pos, n);
            d.pos += n;
            return n;
        }
#if GPERFT_HAVE_ZLIB
        if (d.kind == Decoder::GZIP) {
            d.z.next_in = reinterpret_cast<Bytef*>(d.in.data() + d.pos), d.z.avail_in = uInt(avail);
            d.z.next_out = reinterpret_cast<Bytef*>(to), d.z.avail_out = uInt(bytes);
            const int r = inflate(&d.z, Z_NO_FLUSH);
            d.pos = d.len - d.z.avail_in;
            const size_t made = bytes - d.z.avail_out;
            if (r == Z_STREAM_END) {
                inflateReset(&d.z);  // another gzip member may follow
                d.pending = false;
            } else if (r == Z_OK || r == Z_BUF_ERROR) {
                d.pending = true;
            } else {
                throw std::invalid_argument(name_ + ": corrupt gzip data (" + (d.z.msg ? d.z.msg : "zlib error") + ")");
            }
            if (made) return made;
            continue;
        }
#endif
#if GPERFT_HAVE_ZSTD
        if (d.kind == Decoder::ZSTD) {
            ZSTD_inBuffer in{d.in.data() + d.pos, avail, 0};
            ZSTD_outBuffer out{to, bytes, 0};
            const size_t r = ZSTD_decompressStream(d.zs, &out, &in);
            if (ZSTD_isError(r)) throw std::invalid_argument(name_ + ": corrupt Zstandard data (" + ZSTD_getErrorName(r) + ")");
            d.pos += in.pos;
            d.pending = r != 0;
            if (out.pos) return out.pos;
            continue;
        }
#endif
        return 0;
    }
}

CompressedInput::int_type CompressedInput::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const size_t n = fill(out_, sizeof out_);
    if (n == 0) return traits_type::eof();
    setg(out_, out_, out_ + n);
    return traits_type::to_int_type(*gptr());
}

}  // namespace gperft::pgn
