// The frontier pipeline, written once against a Thrust "system" (a vector
// type, and dispatch(n, f), which calls f with the execution policy for a
// step over n items) so that g++ runs it on the host with the
// OpenMP or C++ system and nvcc on the GPU with the CUDA system.
//
// One ply: count each parent's moves; then for each pass (a share of the
// children by their key of men and side, detail::pass_of, several when the
// budget is small) count each parent's children of the pass, prefix-sum
// them into offsets, make only those children chunk by chunk, sort and
// merge equal positions (summing multiplicities), and append the pass's
// distinct positions to the next frontier. Equality is exact: positions
// are compared field by field, never by hash alone.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "chess/identity.hpp"
#include "chess/terminal.hpp"
#include "frontier/expander.hpp"
#include "frontier/frontier_expand.hpp"
#include "frontier/ply_classes.hpp"
#include "frontier/position_facts.hpp"
#include "gpu/device_memory.hpp"

namespace perftide::frontier::detail {

using chess::Attacks;
using chess::Position;

constexpr uint64_t RECORD_BYTES = sizeof(Position) + sizeof(uint64_t);
constexpr uint64_t MIN_CAPACITY = 4096;
constexpr int MAX_PARTITION_BITS = 16;

// Per-ply classification, summed over the frontier (ply_classes.hpp).
using Tally = PlyTally<uint64_t>;

struct ClassifyFn {
    Attacks at;
    template <class Tuple>
    CHESS_HD Tally operator()(const Tuple& t) const {
        Tally r;
        r.add(classes_of(thrust::get<0>(t), at), thrust::get<1>(t));
        return r;
    }
};

struct FactsFn {
    Attacks at;
    CHESS_HD PositionFacts operator()(const Position& p) const {
        return {uint16_t(chess::count_moves(p, at)), chess::in_check(p, at)};
    }
};

template <class Sys>
std::vector<PositionFacts> position_facts(const std::vector<Position>& positions, const Attacks& at) {
    typename Sys::template vector<Position> in(positions.begin(), positions.end());
    typename Sys::template vector<PositionFacts> facts(positions.size());
    Sys::dispatch(positions.size(),
                  [&](auto pol) { return thrust::transform(pol, in.begin(), in.end(), facts.begin(), FactsFn{at}); });
    std::vector<PositionFacts> out(positions.size());
    thrust::copy(facts.begin(), facts.end(), out.begin());
    return out;
}

template <class Sys>
class Pipeline : public Expander {
    template <class T>
    using Vec = typename Sys::template vector<T>;

   public:
    // budget: working bytes for one ply's children (see Options).
    // A chunk and a pass each need room for three copies of their records
    // (records, merge output, sort scratch): about 3/16 and 3/5 of the budget.
    // capacity: the memory the frontiers and the budget share (the device's
    // free memory), 0 for no limit. A ply whose parents, their offsets and
    // the next frontier as estimated do not fit it beside the budget is
    // refused (BudgetTooSmall) before it starts.
    Pipeline(uint64_t budget, const Attacks& at, uint64_t capacity = 0)
        : at_(at), error_(1, 0u), budget_(budget), capacity_(capacity) {
        const auto keys = chess::build_zobrist_data(PASS_SEED);
        pass_data_ = Vec<chess::ZobristData>(keys.get(), keys.get() + 1);
        chunk_cap_ = std::max<uint64_t>(MIN_CAPACITY, budget / (RECORD_BYTES * 16));
        pass_cap_ = std::max<uint64_t>(MIN_CAPACITY, budget / (RECORD_BYTES * 5));
    }

    void begin_load(uint64_t total) override {
        level_.resize(total);
        counts_.resize(total);
        loaded_ = 0;
    }

    void append(const Frontier& piece) override {
        thrust::copy(piece.positions.begin(), piece.positions.end(), level_.begin() + loaded_);
        thrust::copy(piece.counts.begin(), piece.counts.end(), counts_.begin() + loaded_);
        loaded_ += piece.positions.size();
    }

    void take(Frontier& f) override {
        f.positions.resize(level_.size());
        f.counts.resize(counts_.size());
        thrust::copy(level_.begin(), level_.end(), f.positions.begin());
        thrust::copy(counts_.begin(), counts_.end(), f.counts.begin());
        Vec<Position>().swap(level_);
        Vec<uint64_t>().swap(counts_);
    }

    int expand() override {
        int passes = 1;
        next_ply(level_, counts_, passes, nullptr);
        return passes;
    }

    // Each pass's distinct children are classified and dropped: the last
    // ply needs no memory for a frontier of its own.
    PlyCounts expand_last(int ply) override {
        int passes = 1;
        Tally t;
        next_ply(level_, counts_, passes, &t);
        return t.counts(ply, passes);
    }

    PlyCounts classify(int ply, int passes) const override {
        return tally(level_, counts_, level_.size()).counts(ply, passes);
    }

   private:
    Tally tally(const Vec<Position>& level, const Vec<uint64_t>& counts, uint64_t n) const {
        auto first = thrust::make_zip_iterator(thrust::make_tuple(level.begin(), counts.begin()));
        return Sys::dispatch(n, [&](auto pol) {
            return thrust::transform_reduce(pol, first, first + n, ClassifyFn{at_}, Tally{}, thrust::plus<Tally>{});
        });
    }

    // Replaces (level, counts) with the next ply's distinct positions, or,
    // with a tally, adds their classification to it and leaves none.
    void next_ply(Vec<Position>& level, Vec<uint64_t>& counts, int& passes, Tally* last) {
        Vec<uint64_t> offsets;
        std::vector<uint64_t> host_offsets;
        const uint64_t children = share_offsets(level, PassShare{}, offsets, host_offsets);
        check_paths(level, counts, offsets);

        // Passes for the expected distinct children (DistinctRatio, with a
        // margin); a pass that overflows anyway restarts the ply with twice
        // as many.
        const double expected = double(children) * ratio_.estimate() * 1.25;
        check_fit(level.size(), last ? 0.0 : expected);
        int bits = 0;
        while (bits < MAX_PARTITION_BITS && expected / double(uint64_t(1) << bits) > double(pass_cap_)) ++bits;
        for (;; ++bits) {
            if (bits > MAX_PARTITION_BITS)
                throw BudgetTooSmall((long long)(budget_ >> 20), 0,
                                     "the memory budget (" + named(Setting::Memory, std::to_string(budget_ >> 20)) +
                                         " MiB) is too small for this ply even in " +
                                         std::to_string(1 << MAX_PARTITION_BITS) + " passes");
            Vec<Position> next;
            Vec<uint64_t> next_counts;
            if (!last) reserve(next, next_counts, uint64_t(expected));  // as check_fit counted it
            Tally sum;
            bool fits = true;
            const uint32_t shares = uint32_t(1) << bits;
            for (uint32_t pass = 0; fits && pass < shares; ++pass) {
                const PassShare share{chess::Zobrist{thrust::raw_pointer_cast(pass_data_.data())}, pass, shares};
                if (shares > 1) share_offsets(level, share, offsets, host_offsets);
                fits = run_pass(level, counts, offsets, host_offsets, share, next, next_counts);
                if (fits && last) {  // classify the pass, then let it go
                    sum = sum + tally(next, next_counts, next.size());
                    Vec<Position>().swap(next);
                    Vec<uint64_t>().swap(next_counts);
                }
            }
            if (!fits) continue;  // a pass overflowed its buffer: split finer
            passes = int(shares);
            if (last) {
                *last = sum;
                Vec<Position>().swap(level);
                Vec<uint64_t>().swap(counts);
                return;
            }
            ratio_.record(next.size(), children);
            level.swap(next);
            counts.swap(next_counts);
            return;
        }
    }

    // Multiplicities and tallies here are 64-bit: a ply of 2^63 or more
    // paths (its sum, in double, with room for rounding) is refused before it
    // is made, so that none can wrap. The CPU engine holds such plies (its
    // multiplicities are checked one by one).
    void check_paths(const Vec<Position>& level, const Vec<uint64_t>& counts, const Vec<uint64_t>& offsets) const {
        const uint64_t n = level.size();
        const PathsFn paths{thrust::raw_pointer_cast(counts.data()), thrust::raw_pointer_cast(offsets.data())};
        const double total = Sys::dispatch(n, [&](auto pol) {
            return thrust::transform_reduce(pol, thrust::counting_iterator<uint64_t>(0),
                                            thrust::counting_iterator<uint64_t>(n), paths, 0.0, thrust::plus<double>());
        });
        if (total < 9223372036854775808.0) return;
        char about[32];
        std::snprintf(about, sizeof about, "%.3g", total);
        throw InputError(std::string("the next ply has about ") + about +
                         " move paths, 2^63 or more, more than the GPU pipeline's 64-bit multiplicities are sure to "
                         "hold: count it with " + named(Setting::Backend, "cpu"));
    }

    // Refuses a ply whose parents (with counts and offsets) and expected
    // next frontier (reserved at that size before the first pass, grown a
    // quarter at a time past it: grown_capacity) do not fit the capacity
    // beside the working budget.
    void check_fit(uint64_t parents, double expected_next) const {
        if (!capacity_) return;
        constexpr double ENTRY = double(sizeof(Position) + sizeof(uint64_t));
        const double held = double(parents) * (ENTRY + sizeof(uint64_t)) + expected_next * ENTRY;
        if (held + double(budget_) <= double(capacity_)) return;
        const auto mib = [](double b) { return std::to_string(uint64_t(b / double(1 << 20))) + " MiB"; };
        throw BudgetTooSmall((long long)(budget_ >> 20), 0, "the next ply does not fit the device: " + std::to_string(parents) + " parents (" +
                             mib(double(parents) * (ENTRY + sizeof(uint64_t))) + ") and about " +
                             std::to_string(uint64_t(expected_next)) + " distinct children (" +
                             mib(expected_next * ENTRY) + ") beside the working budget of " + mib(double(budget_)) +
                             " need more than the " + mib(double(capacity_)) +
                             " of device memory free; run it with " + named(Setting::Backend, "cpu") + ", or on several ranks");
    }

    // Each parent's children in the share, prefix-summed into `offsets`
    // (on the device, and on the host for the chunking); returns their sum.
    uint64_t share_offsets(const Vec<Position>& level, const PassShare& share, Vec<uint64_t>& offsets,
                           std::vector<uint64_t>& host_offsets) const {
        const uint64_t n = level.size();
        offsets.assign(n + 1, 0);
        Sys::dispatch(n, [&](auto pol) {
            return thrust::transform(pol, level.begin(), level.end(), offsets.begin(), CountShareFn{at_, share});
        });
        Sys::dispatch(
            n, [&](auto pol) { return thrust::exclusive_scan(pol, offsets.begin(), offsets.end(), offsets.begin()); });
        host_offsets.resize(n + 1);
        thrust::copy(offsets.begin(), offsets.end(), host_offsets.begin());
        return host_offsets[n];
    }

    // One pass: make its children chunk by chunk and merge each chunk, then
    // merge the pass and append its distinct positions. False on overflow.
    bool run_pass(const Vec<Position>& level, const Vec<uint64_t>& counts, const Vec<uint64_t>& offsets,
                  const std::vector<uint64_t>& host_offsets, const PassShare& share, Vec<Position>& next,
                  Vec<uint64_t>& next_counts) {
        Vec<Position> pass;
        Vec<uint64_t> pass_counts;
        const uint64_t n = host_offsets.size() - 1;
        for (uint64_t a = 0; a < n;) {
            uint64_t b =
                std::upper_bound(host_offsets.begin() + a + 1, host_offsets.end(), host_offsets[a] + chunk_cap_) -
                host_offsets.begin() - 1;
            b = std::max(b, a + 1);
            const uint64_t base = host_offsets[a], size = host_offsets[b] - base;
            Vec<Position> chunk(size);
            Vec<uint64_t> chunk_counts(size);
            ExpandFn expand{thrust::raw_pointer_cast(level.data()),
                            thrust::raw_pointer_cast(counts.data()),
                            thrust::raw_pointer_cast(offsets.data()),
                            base,
                            thrust::raw_pointer_cast(chunk.data()),
                            thrust::raw_pointer_cast(chunk_counts.data()),
                            thrust::raw_pointer_cast(error_.data()),
                            at_,
                            share};
            Sys::dispatch(size, [&](auto pol) {
                return thrust::for_each(pol, thrust::counting_iterator<uint64_t>(a),
                                        thrust::counting_iterator<uint64_t>(b), expand);
            });
            if (uint32_t(error_[0]) != 0)
                throw std::runtime_error("move generation disagreed with move counting while expanding the frontier");
            const uint64_t kept = merge(chunk, chunk_counts, size);
            if (pass.size() + kept > pass_cap_) return false;
            append_records(pass, pass_counts, chunk, chunk_counts, kept);
            a = b;
        }
        const uint64_t distinct = merge(pass, pass_counts, pass.size());
        append_records(next, next_counts, pass, pass_counts, distinct);
        return true;
    }

    uint64_t merge(Vec<Position>& pos, Vec<uint64_t>& cnt, uint64_t size) const {
        if (size == 0) return 0;
        Sys::dispatch(size, [&](auto pol) {
            return thrust::sort_by_key(pol, pos.begin(), pos.begin() + size, cnt.begin(), chess::IdentityLess{});
        });
        Vec<Position> out(size);
        Vec<uint64_t> out_counts(size);
        const auto ends = Sys::dispatch(size, [&](auto pol) {
            return thrust::reduce_by_key(pol, pos.begin(), pos.begin() + size, cnt.begin(), out.begin(),
                                         out_counts.begin(), chess::SamePosition{});
        });
        const uint64_t distinct = ends.first - out.begin();
        Sys::dispatch(distinct,
                      [&](auto pol) { return thrust::copy(pol, out.begin(), out.begin() + distinct, pos.begin()); });
        Sys::dispatch(distinct, [&](auto pol) {
            return thrust::copy(pol, out_counts.begin(), out_counts.begin() + distinct, cnt.begin());
        });
        return distinct;
    }

    static void reserve(Vec<Position>& pos, Vec<uint64_t>& cnt, uint64_t n) {
        pos.reserve(n);
        cnt.reserve(n);
    }

    // Appends n records, growing dst by grown_capacity (not by resize's
    // doubling) when they do not fit.
    static void append_records(Vec<Position>& dst, Vec<uint64_t>& dst_counts, const Vec<Position>& src,
                               const Vec<uint64_t>& src_counts, uint64_t n) {
        const uint64_t at = dst.size();
        if (at + n > dst.capacity()) reserve(dst, dst_counts, grown_capacity(dst.capacity(), at + n));
        dst.resize(at + n);
        dst_counts.resize(at + n);
        Sys::dispatch(n, [&](auto pol) { return thrust::copy(pol, src.begin(), src.begin() + n, dst.begin() + at); });
        Sys::dispatch(n, [&](auto pol) {
            return thrust::copy(pol, src_counts.begin(), src_counts.begin() + n, dst_counts.begin() + at);
        });
    }

    Attacks at_;
    Vec<uint32_t> error_;  // set by ExpandFn when generation and counting disagree
    Vec<chess::ZobristData> pass_data_;  // PASS_SEED's keys, which choose each child's pass
    Vec<Position> level_;  // the frontier held
    Vec<uint64_t> counts_;
    uint64_t loaded_ = 0;  // positions given since begin_load
    uint64_t budget_, capacity_;
    uint64_t chunk_cap_, pass_cap_;
    DistinctRatio ratio_;
};

// The GPU engine's budget for its working buffers: gpu::frontier_budget
// (device_memory.hpp) of o.budget_bytes (--memory) and the cap in force; a
// budget above half the free memory is refused (std::invalid_argument)
// before the first ply rather than met by an allocation failure. Defined in
// frontier_host.cpp.
uint64_t gpu_frontier_budget(const Options& o, const gpu::DeviceFree& device);

// The CUDA device behind make_gpu_expander and position_facts_gpu (which
// frontier_host.cpp defines, choosing between it and the host pipeline
// standing in for it): frontier.cu, or stubs without CUDA.
std::unique_ptr<Expander> make_device_expander(const Options& o);
std::vector<PositionFacts> position_facts_device(const std::vector<chess::Position>& positions);

}  // namespace perftide::frontier::detail
