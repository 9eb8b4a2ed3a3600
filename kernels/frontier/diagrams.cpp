#include "frontier/diagrams.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace perftide::frontier {

namespace {

bool less(const chess::PackedPosition& a, const chess::PackedPosition& b) {
    return std::tie(a.occupied, a.men[0], a.men[1]) < std::tie(b.occupied, b.men[0], b.men[1]);
}

struct Entry {
    chess::PackedPosition diagram;
    uint64_t paths;  // saturated at 2: only "one path" matters
};

}  // namespace

chess::PackedPosition diagram_of(const chess::Position& p) {
    chess::Position men = p;
    men.castle_rooks = 0;  // still rooks (orth): only the right goes
    men.ep = chess::SQ_NONE;
    men.stm = chess::WHITE;
    return chess::pack(men);
}

DiagramCounts DiagramBook::add(int ply, const Frontier& f) {
    std::vector<Entry> entries(f.positions.size());
    for (size_t i = 0; i < entries.size(); ++i) entries[i] = {diagram_of(f.positions[i]), std::min<uint64_t>(f.counts[i], 2)};
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return less(a.diagram, b.diagram); });
    DiagramCounts c;
    c.ply = ply;
    std::vector<chess::PackedPosition> fresh;  // this ply's diagrams not seen before, sorted
    for (size_t i = 0; i < entries.size();) {
        uint64_t paths = 0;
        size_t j = i;
        for (; j < entries.size() && entries[j].diagram == entries[i].diagram; ++j)
            paths = std::min<uint64_t>(paths + entries[j].paths, 2);
        ++c.diagrams;
        if (!std::binary_search(seen_.begin(), seen_.end(), entries[i].diagram, less)) {
            ++c.first;
            c.unique += paths == 1;
            fresh.push_back(entries[i].diagram);
        }
        i = j;
    }
    std::vector<chess::PackedPosition> merged;
    merged.reserve(seen_.size() + fresh.size());
    std::merge(seen_.begin(), seen_.end(), fresh.begin(), fresh.end(), std::back_inserter(merged), less);
    seen_ = std::move(merged);
    return c;
}

}  // namespace perftide::frontier
