#include "deep/host_table.hpp"

namespace perftide {

size_t HostTable::Hash::operator()(const Key& k) const { return chess::identity_hash(k.pos, uint64_t(k.depth)); }

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

}  // namespace perftide
