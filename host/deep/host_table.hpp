// The lossless host table above the backend calls: exact (canonical
// position, remaining depth) -> count. Keys are whole positions, so a hit is
// never a collision; the table only forgets (it is cleared when full).
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>

#include "chess/count.hpp"
#include "chess/identity.hpp"

namespace perftide {

class HostTable {
   public:
    // Roughly what one entry costs in an unordered_map (key, count, node,
    // bucket pointer).
    static constexpr size_t ENTRY_BYTES = 112;

    explicit HostTable(size_t max_bytes) : max_entries_(max_bytes / ENTRY_BYTES) {}

    std::optional<chess::u128> find(const chess::Position& canon, int depth) const;
    void insert(const chess::Position& canon, int depth, chess::u128 count);

    bool enabled() const { return max_entries_ > 0; }
    size_t size() const { return map_.size(); }
    size_t hits() const { return hits_; }

   private:
    struct Key {
        chess::Position pos;
        int depth;
        bool operator==(const Key& o) const { return depth == o.depth && chess::same_position(pos, o.pos); }
    };
    struct Hash {
        size_t operator()(const Key& k) const;
    };

    std::unordered_map<Key, chess::u128, Hash> map_;
    size_t max_entries_;
    mutable size_t hits_ = 0;
};

}  // namespace perftide
