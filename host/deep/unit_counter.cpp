#include "deep/unit_counter.hpp"

#include <algorithm>
#include <thread>
#include <unordered_map>

#include "base/machine.hpp"
#include "chess/count.hpp"
#include "chess/identity.hpp"
#include "chess/movegen.hpp"

namespace perftide {

using namespace chess;

std::vector<u128> UnitCounter::count(const std::vector<Position>& units, int remaining) {
    if (stats_) return backend_.stats_batch(units, remaining);
    if (!table_.enabled() || remaining < 2) return backend_.perft_batch(units, remaining);
    const Attacks at = host_attacks();
    std::vector<u128> out(units.size(), 0);
    std::vector<Position> misses;
    std::vector<std::pair<size_t, size_t>> pending;  // (unit, miss index)
    std::unordered_map<Position, size_t, IdentityHash, SamePosition> miss_index;
    for (size_t u = 0; u < units.size(); ++u) {
        MoveList list;
        generate_moves(units[u], at, list);
        for (Move m : list) {
            const Position c = canonical(apply_move(units[u], m), at);
            if (const auto hit = table_.find(c, remaining - 1)) {
                out[u] = checked_add(out[u], *hit);
                continue;
            }
            const auto [it, fresh] = miss_index.emplace(c, misses.size());
            if (fresh) misses.push_back(c);
            pending.emplace_back(u, it->second);
        }
    }
    const std::vector<u128> counts = backend_.perft_batch(misses, remaining - 1);
    for (size_t i = 0; i < misses.size(); ++i) table_.insert(misses[i], remaining - 1, counts[i]);
    for (const auto& [u, i] : pending) out[u] = checked_add(out[u], counts[i]);
    return out;
}

BatchSizer::BatchSizer(int fixed, const BackendProfile& profile, int threads)
    : fixed_(fixed),
      floor_(profile.floor_per_thread == 0
                 ? 1
                 : profile.floor_per_thread * (threads > 0 ? size_t(threads) : size_t(machine::default_threads()))),
      size_(fixed > 0 ? size_t(fixed) : profile.first_batch > 0 ? profile.first_batch : floor_),
      target_(profile.call_seconds) {}

void BatchSizer::observe(size_t units, double seconds) {
    if (fixed_ > 0 || units == 0) return;
    const double per_unit = std::max(seconds, 1e-6) / double(units);
    size_ = std::clamp(size_t(target_ / per_unit), floor_, std::max(floor_, 2 * size_));
}

}  // namespace perftide
