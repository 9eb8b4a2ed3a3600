#include "count/tt.hpp"

#include <atomic>
#include <bit>

#include "chess/slot_check.hpp"

namespace perftide {

// Slot layout (two 64-bit words, read and written with separate relaxed
// atomic accesses; why a torn read is safe: chess/slot_check.hpp):
//   data  = count << 8 | depth          (depth 0: empty slot)
//   check = key.hi ^ data
// The bucket index comes from key.lo and the depth; a hit also matches the
// depth.

namespace {

constexpr int SLOTS = 4;
constexpr uint64_t DEPTH_MIX = 0x9E3779B97F4A7C15ULL;

uint64_t load(const uint64_t* w) { return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(w)).load(std::memory_order_relaxed); }
void put(uint64_t* w, uint64_t v) { std::atomic_ref<uint64_t>(*w).store(v, std::memory_order_relaxed); }

}  // namespace

// Zeroed pages (every slot empty) faulted in lazily, so a large table costs
// nothing until it is used.
PerftTable::PerftTable(size_t buckets) {
    const size_t n = std::bit_floor(buckets < 1 ? size_t(1) : buckets);
    mask_ = n - 1;
    words_ = ZeroedPages<uint64_t>(n * BUCKET_BYTES / sizeof(uint64_t));
}

size_t PerftTable::buckets_for_mb(size_t mb) { return std::bit_floor(std::max<size_t>(1, (mb << 20) / BUCKET_BYTES)); }

uint64_t* PerftTable::bucket(const chess::Key128& key, int depth) const {
    const uint64_t h = key.lo ^ (uint64_t(depth) * DEPTH_MIX);
    return words_.data() + (h & mask_) * (2 * SLOTS);
}

bool PerftTable::probe(const chess::Key128& key, int depth, uint64_t& count) const {
    const uint64_t* b = bucket(key, depth);
    for (int s = 0; s < SLOTS; ++s) {
        const uint64_t check = load(b + 2 * s), data = load(b + 2 * s + 1);
        if (chess::slot_verified(key.hi, check, data) && int(data & 0xff) == depth) {
            count = data >> 8;
            return true;
        }
    }
    return false;
}

void PerftTable::store(const chess::Key128& key, int depth, uint64_t count) {
    if (count > MAX_COUNT) return;
    uint64_t* b = bucket(key, depth);
    int victim = 0, victim_depth = 256;
    for (int s = 0; s < SLOTS; ++s) {
        const uint64_t check = load(b + 2 * s), data = load(b + 2 * s + 1);
        const int d = int(data & 0xff);
        if (chess::slot_verified(key.hi, check, data) && d == depth) return;  // already there
        if (d < victim_depth) victim = s, victim_depth = d;
    }
    const uint64_t data = count << 8 | uint64_t(depth);
    put(b + 2 * victim, chess::slot_check(key.hi, data));
    put(b + 2 * victim + 1, data);
}

}  // namespace perftide
