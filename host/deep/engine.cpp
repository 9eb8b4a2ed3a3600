#include "deep/engine.hpp"

#include "cpu_perft.hpp"
#include "deep/tt_perft.hpp"

namespace gperft {

PerftEngine::PerftEngine(const EngineOptions& o) : options_(o), backend_(resolve_backend(o.backend)) {
    if (backend_ == Backend::Cpu && o.hash_mb > 0) {
        keys_ = chess::build_zobrist_data(o.zobrist_seed);
        table_ = std::make_unique<PerftTable>(PerftTable::buckets_for_mb(size_t(o.hash_mb)));
    }
}

std::vector<chess::u128> PerftEngine::perft_batch(const std::vector<chess::Position>& roots, int depth) {
    if (table_) return tt_perft_batch(roots, depth, options_.threads, *table_, chess::Zobrist{keys_.get()});
    // The GPU backend comes in through the shared batch interface; its device
    // table size (options_.hash_mb, -1 for its own choice) and Zobrist seed
    // are handed to it here once gpu::perft_batch takes them.
    return gperft::perft_batch(roots, depth, backend_, options_.threads);
}

}  // namespace gperft
