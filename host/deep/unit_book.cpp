#include "deep/unit_book.hpp"

#include <algorithm>
#include <stdexcept>

#include "chess/count.hpp"
#include "chess/io/fen.hpp"
#include "journal/tally.hpp"

namespace perftide {

using namespace chess;

UnitBook::UnitBook(const Position& root, int depth, const WorkUnits& w, uint64_t zobrist_seed,
                   const std::string& journal, bool stats)
    : units_(w), remaining_(depth - w.split), stats_(stats), width_(tally_width(stats, depth - w.split)),
      journal_path_(journal) {
    for (const Position& p : w.positions) fingerprints_.push_back(unit_fingerprint(p));
    tallies_.assign(w.positions.size() * width_, 0);
    finished_.assign(w.positions.size(), false);
    if (!journal.empty()) {
        JournalHeader h;
        h.depth = depth;
        h.split = w.split;
        h.seed = zobrist_seed;
        h.units = w.positions.size();
        h.stats = stats;
        h.fen = to_fen(root) + (root.chess960 ? " chess960" : "");  // the mode is part of the run's identity
        journal_ = std::make_unique<Journal>(journal, h, fingerprints_);
        for (const auto& [u, tally] : journal_->done()) {
            std::copy(tally.begin(), tally.end(), tallies_.begin() + ptrdiff_t(u * width_));
            finished_[u] = true;
        }
    }
    for (uint32_t u = 0; u < finished_.size(); ++u) {
        if (!finished_[u]) todo_.push_back(u);
    }
    resumed_ = done_ = finished_.size() - todo_.size();
}

void UnitBook::record(const std::vector<uint32_t>& units, const std::vector<u128>& tallies) {
    if (tallies.size() != units.size() * width_) throw std::logic_error("one tally per recorded unit expected");
    std::vector<JournalUnit> lines;
    for (size_t i = 0; i < units.size(); ++i) {
        const uint32_t u = units[i];
        if (u >= finished_.size() || finished_[u]) throw std::logic_error("unit " + std::to_string(u) + " recorded twice");
        const auto tally = tallies.begin() + ptrdiff_t(i * width_);
        lines.push_back({u, fingerprints_[u], remaining_, std::vector<u128>(tally, tally + ptrdiff_t(width_))});
    }
    if (journal_) journal_->append(lines);  // durable before it counts as done
    for (size_t i = 0; i < units.size(); ++i) {
        std::copy_n(tallies.begin() + ptrdiff_t(i * width_), width_, tallies_.begin() + ptrdiff_t(units[i] * width_));
        finished_[units[i]] = true;
        nodes_ = add_product(nodes_, tally_nodes(tallies.data() + i * width_, stats_, remaining_), units_.multiplicity[units[i]]);
    }
    done_ += units.size();
}

const std::vector<u128>& UnitBook::tallies() const {
    if (!complete()) throw std::logic_error("the work-unit counts are incomplete");
    return tallies_;
}

std::vector<u128> UnitBook::counts() const {
    const std::vector<u128>& t = tallies();
    std::vector<u128> out(finished_.size());
    for (size_t u = 0; u < out.size(); ++u) out[u] = tally_nodes(t.data() + u * width_, stats_, remaining_);
    return out;
}

}  // namespace perftide
