#include "mpi/frontier_exchange.hpp"

#include <algorithm>
#include <exception>

#include "chess/count.hpp"
#include "chess/identity.hpp"
#include "deep/host_table.hpp"
#include "deep/work_units.hpp"
#include "mpi/dist_unique.hpp"

namespace perftide::dist {

using namespace chess;

int frontier_owner(const Position& canon, int ranks) {
    // A salt of its own: the owner is independent of the tables' slots.
    return int(identity_hash(canon, 0x5a) % uint64_t(ranks));
}

namespace {

// Positions [a, b) of `part` as records.
std::vector<FrontierRecord> to_records(const frontier::Frontier& part, size_t a, size_t b) {
    std::vector<FrontierRecord> out;
    out.reserve(b - a);
    for (size_t i = a; i < b; ++i) out.push_back({part.positions[i], part.counts[i], 0});
    return out;
}

frontier::Frontier from_records(const std::vector<FrontierRecord>& records) {
    frontier::Frontier out;
    out.positions.reserve(records.size());
    out.counts.reserve(records.size());
    for (const FrontierRecord& r : records) {
        out.positions.push_back(r.pos);
        out.counts.push_back(r.count);
    }
    return out;
}

}  // namespace

void exchange_frontier(const Session& s, frontier::Frontier& part) {
    merge_positions(part.positions, part.counts);  // fewer records to send
    if (!s.distributed()) return;
    const int ranks = s.size();
    std::vector<uint64_t> counts(size_t(ranks), 0);
    std::vector<int> owner(part.positions.size());
    for (size_t i = 0; i < part.positions.size(); ++i) ++counts[size_t(owner[i] = frontier_owner(part.positions[i], ranks))];
    std::vector<size_t> at(size_t(ranks), 0);
    for (int r = 1; r < ranks; ++r) at[size_t(r)] = at[size_t(r) - 1] + counts[size_t(r) - 1];
    std::vector<FrontierRecord> send(part.positions.size());
    for (size_t i = 0; i < part.positions.size(); ++i) send[at[size_t(owner[i])]++] = {part.positions[i], part.counts[i], 0};
    part = {};
    send.shrink_to_fit();
    part = from_records(detail::alltoallv_records(s, send, counts));
    merge_positions(part.positions, part.counts);
}

frontier::Frontier gather_frontier(const Session& s, const frontier::Frontier& part) {
    if (!s.distributed()) return part;
    return from_records(detail::gather_records(s, to_records(part, 0, part.positions.size())));
}

void allgather_into(const Session& s, const frontier::Frontier& part, frontier::Expander& expander) {
    if (!s.distributed()) return expander.load(part);
    const uint64_t n = part.positions.size();
    uint64_t total = 0, most = 0;
    for (uint64_t size : detail::allgather_words(s, {n})) total += size, most = std::max(most, size);
    std::exception_ptr failure;
    const auto attempt = [&](auto&& f) {
        if (failure) return;
        try {
            f();
        } catch (...) {
            failure = std::current_exception();
        }
    };
    attempt([&] { expander.begin_load(total); });
    for (uint64_t at = 0; at < most; at += ALLGATHER_PIECE) {
        const uint64_t a = std::min(at, n), b = std::min(at + ALLGATHER_PIECE, n);
        const frontier::Frontier all = from_records(detail::allgatherv_records(s, to_records(part, a, b)));
        attempt([&] { expander.append(all); });
    }
    agree_on_failure(s, failure);
}

FrontierTotals frontier_totals(const Session& s, const frontier::Frontier& part) {
    u128 paths = 0;
    for (uint64_t p : part.counts) paths = checked_add(paths, p);
    const u128 distinct = part.positions.size();
    std::vector<uint64_t> mine{uint64_t(distinct), uint64_t(distinct >> 64), uint64_t(paths), uint64_t(paths >> 64)};
    if (!s.distributed()) return {distinct, paths};
    const std::vector<uint64_t> all = detail::allgather_words(s, mine);
    FrontierTotals t;
    for (size_t i = 0; i + 3 < all.size(); i += 4) {
        t.distinct = checked_add(t.distinct, u128(all[i + 1]) << 64 | all[i]);
        t.paths = checked_add(t.paths, u128(all[i + 3]) << 64 | all[i + 2]);
    }
    return t;
}

}  // namespace perftide::dist
