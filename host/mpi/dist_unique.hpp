// Distributed `perftide unique`: the frontier library's per-ply step with each
// new frontier hash-partitioned over the ranks (exchange_frontier), so each
// rank sorts and merges the positions it owns; per-ply counts are summed
// over the ranks. Also the collectives the subcommand needs around it. On a
// single-rank session every collective is local and nothing is exchanged.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "chess/count.hpp"
#include "frontier/frontier.hpp"
#include "mpi/session.hpp"

namespace perftide::dist {

// Collective. Returns when no rank failed (`failure`: this rank's, or
// null). Otherwise throws on every rank: on rank 0 its own exception when
// it failed (so bad input reads as in a single process; a work directory
// that cannot take a frontier is its machine's and reads as below), else
// DistributedFailure naming the lowest failing rank and its message; on the
// other ranks DistributedFailure with the same exit status, for them to
// return quietly. A single-rank session rethrows its own failure.
void agree_on_failure(const Session& s, std::exception_ptr failure);

// Collective: runs `step` on this rank, then agree_on_failure.
template <class Step>
auto on_every_rank(const Session& s, Step&& step) {
    using Result = decltype(step());
    if constexpr (std::is_void_v<Result>) {
        on_every_rank(s, [&] {
            step();
            return 0;
        });
    } else {
        if (!s.distributed()) return step();
        std::exception_ptr failure;
        Result result{};
        try {
            result = step();
        } catch (...) {
            failure = std::current_exception();
        }
        agree_on_failure(s, failure);
        return result;
    }
}

// The frontier::Exchange of a session's ranks. With PERFTIDE_TEST_FAULT set
// (faults.hpp), the rank it names fails in its mode while expanding the ply
// given as UNITS.
std::unique_ptr<frontier::Exchange> make_rank_exchange(const Session& s);

// Collective: distinct positions after each ply 0..depth, summed over the
// ranks (rank 0 starts from the root, the others from nothing). `final_part`
// receives this rank's part of the last ply. With `split_last` (a journaled
// run, the expander's pass log made by make_rank_pass_log) the last ply is
// not exchanged: every rank gets the whole ply before it and runs its own
// passes of the last one (see RankPassLog). `observe` (collective too) is
// shown each rank's part of every ply (run_plies), the last ply then kept.
std::vector<frontier::PlyCounts> unique_over_ranks(const Session& s, frontier::Expander& expander,
                                                   const chess::Position& root, int depth,
                                                   frontier::Frontier* final_part, bool split_last = false,
                                                   const frontier::PlyObserver& observe = {});

// A rank's view of the last ply's passes in a journaled distributed run:
// pass p is rank p mod ranks' (the pass itself is chosen by the child's key
// of men and side, the same on every rank), so the others' passes read as
// finished and empty and the engine skips them; the rank's own are kept in
// its journal (`own`, which outlives it). The pass count is the journal's
// when it has one, else max(passes, ranks), so that every rank splits the
// ply alike. With PERFTIDE_TEST_PASS_FAULT="RANK:PASSES:MODE" (faults.hpp's
// modes) rank RANK fails in MODE once it has journaled PASSES passes.
std::unique_ptr<frontier::PassLog> make_rank_pass_log(const Session& s, frontier::PassLog& own, int passes);

// Collective: `mine` summed over the ranks, element by element.
std::vector<chess::u128> sum_over_ranks(const Session& s, const std::vector<chess::u128>& mine);

// Collective: "cpu" or "gpu" when every rank used it, else "mixed".
std::string backend_over_ranks(const Session& s, bool gpu);

}  // namespace perftide::dist
