#include "mpi/wire.hpp"

#include <cstring>

namespace perftide::dist {

using chess::Position;

namespace {

constexpr size_t POSITION_WORDS = sizeof(Position) / sizeof(uint64_t);
static_assert(sizeof(Position) % sizeof(uint64_t) == 0, "a position packs into whole words");

void expect(bool ok, const char* what) {
    if (!ok) throw WireError(std::string("malformed ") + what + " message");
}

}  // namespace

namespace {

// Text as its length and then its bytes in whole words (zero-padded).
void put_text(Words& w, const std::string& text) {
    w.push_back(text.size());
    const size_t at = w.size();
    w.resize(at + (text.size() + 7) / 8, 0);
    if (!text.empty()) std::memcpy(w.data() + at, text.data(), text.size());
}

}  // namespace

Words pack(const Hello& h) {
    Words w{uint64_t(h.backend == BackendKind::Gpu), uint64_t(h.threads)};
    put_text(w, h.device);
    return w;
}

Hello unpack_hello(const Words& w) {
    expect(w.size() >= 3 && w[0] <= 1 && w[2] <= 4096 && w.size() == 3 + (w[2] + 7) / 8, "hello");
    Hello h{w[0] ? BackendKind::Gpu : BackendKind::Cpu, int(w[1]), ""};
    h.device.assign(reinterpret_cast<const char*>(w.data() + 3), w[2]);
    return h;
}

Words pack(const Batch& b) {
    Words w{uint64_t(b.remaining), b.units.size()};
    w.insert(w.end(), b.units.begin(), b.units.end());
    const size_t at = w.size();
    w.resize(at + b.positions.size() * POSITION_WORDS);
    if (!b.positions.empty()) std::memcpy(&w[at], b.positions.data(), b.positions.size() * sizeof(Position));
    return w;
}

Batch unpack_batch(const Words& w) {
    expect(w.size() >= 2, "batch");
    const size_t n = w[1];
    expect(w[0] <= 255 && n <= (w.size() - 2) && w.size() == 2 + n + n * POSITION_WORDS, "batch");
    Batch b;
    b.remaining = int(w[0]);
    for (size_t i = 0; i < n; ++i) {
        expect(w[2 + i] <= UINT32_MAX, "batch");
        b.units.push_back(uint32_t(w[2 + i]));
    }
    b.positions.resize(n);
    if (n) std::memcpy(b.positions.data(), &w[2 + n], n * sizeof(Position));
    return b;
}

Words pack(const BatchResult& r) {
    uint64_t bits;
    std::memcpy(&bits, &r.seconds, sizeof bits);
    const size_t width = r.units.empty() ? 0 : r.counts.size() / r.units.size();
    Words w{r.units.size(), bits, width};
    for (size_t i = 0; i < r.units.size(); ++i) {
        w.push_back(r.units[i]);
        for (size_t k = 0; k < width; ++k) put_u128(w, r.counts[i * width + k]);
    }
    return w;
}

BatchResult unpack_result(const Words& w) {
    expect(w.size() >= 3 && w[2] <= (1u << 16), "result");
    const size_t n = w[0], width = w[2], record = 1 + 2 * width;
    expect(n <= (w.size() - 3) / record && w.size() == 3 + n * record, "result");
    BatchResult r;
    std::memcpy(&r.seconds, &w[1], sizeof r.seconds);
    for (size_t i = 0; i < n; ++i) {
        const size_t at = 3 + i * record;
        expect(w[at] <= UINT32_MAX, "result");
        r.units.push_back(uint32_t(w[at]));
        for (size_t k = 0; k < width; ++k) r.counts.push_back(get_u128(w[at + 1 + 2 * k], w[at + 2 + 2 * k]));
    }
    return r;
}

Words pack(const Failure& f) {
    Words w{uint64_t(f.status)};
    put_text(w, f.message);
    return w;
}

Failure unpack_failure(const Words& w) {
    expect(w.size() >= 2 && w[0] <= 255 && w.size() == 2 + (w[1] + 7) / 8, "failure");
    Failure f;
    f.status = int(w[0]);
    f.message.assign(reinterpret_cast<const char*>(w.data() + 2), w[1]);
    return f;
}

}  // namespace perftide::dist
