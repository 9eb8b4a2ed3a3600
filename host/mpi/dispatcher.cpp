#include "mpi/dispatcher.hpp"

#include <algorithm>
#include <stdexcept>

#include "chess/perft.hpp"

namespace perftide::dist {

using namespace chess;

std::vector<uint32_t> largest_first(const WorkUnits& w, const std::vector<uint32_t>& todo, int remaining) {
    const Attacks at = host_attacks();
    const int probe = std::clamp(remaining, 0, 2);
    std::vector<std::pair<uint64_t, uint32_t>> sized;
    sized.reserve(todo.size());
    for (uint32_t u : todo) sized.emplace_back(perft(w.positions.at(u), at, probe), u);
    std::sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<uint32_t> order;
    order.reserve(sized.size());
    for (const auto& s : sized) order.push_back(s.second);
    return order;
}

Dispatcher::Dispatcher(std::vector<uint32_t> order, int ranks, int fixed_batch)
    : order_(std::move(order)),
      fixed_(fixed_batch),
      sizers_(size_t(ranks), BatchSizer(fixed_batch, profile_of(BackendKind::Cpu), 1)),
      done_(size_t(ranks), 0) {}

void Dispatcher::set_rank(int rank, BackendKind backend, int threads) {
    sizers_.at(size_t(rank)) = BatchSizer(fixed_, profile_of(backend), threads);
}

std::vector<uint32_t> Dispatcher::next(int rank) {
    const size_t ranks = sizers_.size();
    const size_t share = (left() + ranks - 1) / ranks;  // at most its share of what is left
    const size_t n = std::min(sizers_.at(size_t(rank)).size(), share);
    std::vector<uint32_t> batch(order_.begin() + long(next_), order_.begin() + long(next_ + n));
    next_ += n;
    return batch;
}

void Dispatcher::finished(int rank, size_t units, double seconds) {
    sizers_.at(size_t(rank)).observe(units, seconds);
    done_.at(size_t(rank)) += units;
}

}  // namespace perftide::dist
