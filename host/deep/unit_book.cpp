#include "deep/unit_book.hpp"

#include <stdexcept>

#include "chess/io/fen.hpp"
#include "deep/count_math.hpp"

namespace gperft {

using namespace chess;

UnitBook::UnitBook(const Position& root, int depth, const WorkUnits& w, uint64_t zobrist_seed,
                   const std::string& journal)
    : units_(w), remaining_(depth - w.split), journal_path_(journal) {
    for (const Position& p : w.positions) fingerprints_.push_back(unit_fingerprint(p));
    counts_.assign(w.positions.size(), 0);
    finished_.assign(w.positions.size(), false);
    if (!journal.empty()) {
        JournalHeader h;
        h.depth = depth;
        h.split = w.split;
        h.seed = zobrist_seed;
        h.units = w.positions.size();
        h.fen = to_fen(root) + (root.chess960 ? " chess960" : "");  // the mode is part of the run's identity
        journal_ = std::make_unique<Journal>(journal, h, fingerprints_);
        for (const auto& [u, count] : journal_->done()) counts_[u] = count, finished_[u] = true;
    }
    for (uint32_t u = 0; u < counts_.size(); ++u) {
        if (!finished_[u]) todo_.push_back(u);
    }
    resumed_ = done_ = counts_.size() - todo_.size();
}

void UnitBook::record(const std::vector<uint32_t>& units, const std::vector<u128>& counts) {
    if (units.size() != counts.size()) throw std::logic_error("one count per recorded unit expected");
    std::vector<JournalUnit> lines;
    for (size_t i = 0; i < units.size(); ++i) {
        const uint32_t u = units[i];
        if (u >= counts_.size() || finished_[u]) throw std::logic_error("unit " + std::to_string(u) + " recorded twice");
        lines.push_back({u, fingerprints_[u], remaining_, counts[i]});
    }
    if (journal_) journal_->append(lines);  // durable before it counts as done
    for (size_t i = 0; i < units.size(); ++i) {
        counts_[units[i]] = counts[i];
        finished_[units[i]] = true;
        nodes_ = add_product(nodes_, counts[i], units_.multiplicity[units[i]]);
    }
    done_ += units.size();
}

const std::vector<u128>& UnitBook::counts() const {
    if (!complete()) throw std::logic_error("the work-unit counts are incomplete");
    return counts_;
}

}  // namespace gperft
