// Distinct positions across ranks: a frontier of canonical positions with
// multiplicities (`perftide unique`'s frontier::Frontier), hash-partitioned so
// that each position has one owner rank. exchange_frontier sends every
// record to its owner (one all-to-all), and each rank sorts and merges its
// own partition; the union of the partitions is then the frontier without
// duplicates, each position on the rank that owns it. A single-rank session
// only merges.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"
#include "frontier/frontier.hpp"
#include "mpi/session.hpp"

namespace perftide::dist {

// The rank that owns `canon` among `ranks`: a hash of every field, the same
// on every rank.
int frontier_owner(const chess::Position& canon, int ranks);

// Collective (every rank calls it, with its own part, possibly empty).
// `part.positions` are canonical (chess::canonical), `part.counts` the paths
// reaching each. On return `part` holds the distinct positions this rank
// owns, sorted (merge_positions' order), each with its counts summed over
// all ranks. Throws MPI failures as
// std::runtime_error.
void exchange_frontier(const Session& s, frontier::Frontier& part);

// Collective: distinct positions and paths (counts) summed over every rank, 128-bit.
struct FrontierTotals {
    chess::u128 distinct = 0;
    chess::u128 paths = 0;
};
FrontierTotals frontier_totals(const Session& s, const frontier::Frontier& part);

// Collective: every rank's `part` on rank 0, rank after rank (each in its
// own order); an empty frontier on the other ranks.
frontier::Frontier gather_frontier(const Session& s, const frontier::Frontier& part);

// Collective: every rank's `part`, rank after rank, loaded into `expander`
// on every rank (Expander::begin_load, then append), ALLGATHER_PIECE
// positions of each rank's part a round, so that no rank holds the whole
// frontier in host memory at once: the CPU engine writes a large one to its
// work directory. A failure to load on any rank throws on every rank, after
// the last round.
constexpr uint64_t ALLGATHER_PIECE = uint64_t(1) << 14;
void allgather_into(const Session& s, const frontier::Frontier& part, frontier::Expander& expander);

// One record of the exchange: 80 bytes of raw words.
struct alignas(16) FrontierRecord {
    chess::Position pos;
    uint64_t count;
    uint64_t unused;
};
static_assert(sizeof(FrontierRecord) == 80, "frontier records travel as 80 raw bytes");

namespace detail {
// The collectives behind the exchange, on the session's communicator (MPI
// builds only; single-rank sessions never call them). `counts[r]` records
// of `send`, in rank order, go to rank r.
std::vector<FrontierRecord> alltoallv_records(const Session& s, const std::vector<FrontierRecord>& send,
                                              const std::vector<uint64_t>& counts);
// Every rank's `mine` (the same length on every rank), in rank order.
std::vector<uint64_t> allgather_words(const Session& s, const std::vector<uint64_t>& mine);
// Every rank's `mine` on rank 0, in rank order; nothing on the others.
std::vector<FrontierRecord> gather_records(const Session& s, const std::vector<FrontierRecord>& mine);
// Every rank's `mine` on every rank, in rank order.
std::vector<FrontierRecord> allgatherv_records(const Session& s, const std::vector<FrontierRecord>& mine);
}  // namespace detail

}  // namespace perftide::dist
