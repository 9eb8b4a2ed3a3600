#include "deep/host_table.hpp"

#include <cstddef>
#include <cstring>

namespace gperft {

namespace {

static_assert(offsetof(chess::Position, king) == 48, "the hash reads the small fields as one word");

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ULL;
}

}  // namespace

size_t position_hash(const chess::Position& p, int depth) {
    uint64_t tail;  // king squares, side, e.p., mode, halfmove clock: bytes 48..55
    std::memcpy(&tail, reinterpret_cast<const char*>(&p) + 48, sizeof tail);
    uint64_t h = uint64_t(depth);
    for (uint64_t v : {p.color[0], p.color[1], p.pawns, p.diag, p.orth, p.castle_rooks, tail}) h = mix(h, v);
    return size_t(h ^ (h >> 29));
}

size_t HostTable::Hash::operator()(const Key& k) const { return position_hash(k.pos, k.depth); }

std::optional<chess::u128> HostTable::find(const chess::Position& canon, int depth) const {
    const auto it = map_.find(Key{canon, depth});
    if (it == map_.end()) return std::nullopt;
    ++hits_;
    return it->second;
}

void HostTable::insert(const chess::Position& canon, int depth, chess::u128 count) {
    if (!enabled()) return;
    // Clearing (rather than refusing new entries) keeps the table following
    // the run: units are processed in sorted order, so neighbours share more
    // positions than distant units do.
    if (map_.size() >= max_entries_) map_.clear();
    map_.emplace(Key{canon, depth}, count);
}

}  // namespace gperft
