// The CPU's frontier engine. A frontier is an array of 32-byte entries: a
// packed position (24 bytes, chess/packed_position.hpp) and its
// multiplicity. One ply: every thread expands parents and files each child
// in a small buffer of its partition (a hash range); a full buffer is
// merged under that partition's lock into the partition's open-addressing
// table, where equal positions add their multiplicities. The tables are
// then copied out, partition by partition, as the next frontier.
//
// Memory: the budget covers the parents, the next frontier and the tables.
// When the tables of a whole ply would not fit beside the frontiers, the
// ply runs in passes, each keeping only the children whose Zobrist key
// falls in its share of the key range: every pass generates every parent's
// moves again, but a child's key follows from its parent's key and the
// move (chess::Zobrist::child_key), so only the pass's own children are
// made and packed. The last ply need not be kept: each pass is classified
// and dropped (expand_last).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "chess/attacks.hpp"
#include "chess/identity.hpp"
#include "chess/movegen.hpp"
#include "chess/packed_position.hpp"
#include "chess/terminal.hpp"
#include "chess/zobrist.hpp"
#include "frontier/frontier.hpp"
#include "base/machine.hpp"
#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "base/zeroed_pages.hpp"

namespace gperft::frontier {

namespace {

using chess::Key128;
using chess::PackedPosition;
using chess::Position;

struct Entry {
    PackedPosition key;  // key.occupied == 0: an empty slot
    uint64_t count;
};
static_assert(sizeof(Entry) == 32, "two entries to a cache line");

constexpr uint64_t ENTRY_BYTES = sizeof(Entry);
constexpr int MAX_PARTITIONS = 1 << 10;           // per pass (more for larger passes)
constexpr uint64_t PARTITION_ENTRIES = 1 << 16;    // a partition's expected size, at most
constexpr int BATCH = 16;                          // children buffered per partition and thread
constexpr double MAX_LOAD = 0.75;                // a table grows by half past it
constexpr double PLAN_LOAD = 0.7;                // the load tables are made for, if the estimate holds
constexpr double PLAN_MARGIN = 1.1;              // on the estimate of a ply's distinct positions, for planning
constexpr int MAX_PASSES = 1 << 12;
constexpr uint64_t MIB = uint64_t(1) << 20;

// A child's pass: bits 32..63 of its Zobrist key's high word, known
// before the child is made. Within a pass, bits 20..31 of the hash of the
// packed child choose the partition (of at most MAX_PARTITIONS), and the
// whole hash (remixed) the slot: a growing table recomputes it.
CHESS_FI uint32_t pass_of(const Key128& z, uint32_t passes) { return uint32_t(((z.hi >> 32) * passes) >> 32); }
CHESS_FI uint32_t partition_of(uint64_t h, uint32_t partitions) { return uint32_t(h >> 20) & (partitions - 1); }
CHESS_FI uint64_t slot_of(uint64_t h, uint64_t cap) {
    return uint64_t((unsigned __int128)(h * 0x9E3779B97F4A7C15ULL) * cap >> 64);
}

using Slots = ZeroedPages<Entry>;

// A partition's table: linear probing over `cap` slots (any number).
class Table {
   public:
    uint64_t size() const { return size_; }
    uint64_t bytes() const { return cap_ * ENTRY_BYTES; }

    // An empty table of `cap` slots.
    void reset(uint64_t cap) {
        cap_ = std::max<uint64_t>(16, cap);
        slots_ = Slots(cap_);
        size_ = 0;
    }
    void release() {
        slots_ = Slots();
        cap_ = size_ = 0;
    }

    // Adds n entries (equal keys merge); returns how many bytes the table grew.
    uint64_t insert(const Entry* in, const uint64_t* hashes, int n) {
        uint64_t grown = 0;
        if (double(size_ + n) > double(cap_) * MAX_LOAD) grown = grow(uint64_t(double(cap_) * 1.5) + n);
        uint64_t at[BATCH];
        for (int i = 0; i < n; ++i) {
            at[i] = slot_of(hashes[i], cap_);
            __builtin_prefetch(&slots_[at[i]], 1);
        }
        for (int i = 0; i < n; ++i) place(in[i], at[i]);
        return grown;
    }

    template <class F>
    void for_each(F&& f) const {
        for (uint64_t i = 0; i < cap_; ++i)
            if (slots_[i].key.occupied) f(slots_[i]);
    }

   private:
    void place(const Entry& e, uint64_t i) {
        for (;;) {
            Entry& s = slots_[i];
            if (!s.key.occupied) {
                s = e;
                ++size_;
                return;
            }
            if (s.key == e.key) {
                s.count += e.count;
                return;
            }
            if (++i == cap_) i = 0;
        }
    }

    uint64_t grow(uint64_t cap) {
        Slots old = std::move(slots_);
        const uint64_t old_cap = cap_;
        cap_ = cap;
        slots_ = Slots(cap_);
        size_ = 0;
        for (uint64_t i = 0; i < old_cap; ++i)
            if (old[i].key.occupied) place(old[i], slot_of(chess::identity_hash(old[i].key), cap_));
        return (cap_ - old_cap) * ENTRY_BYTES;
    }

    Slots slots_;
    uint64_t cap_ = 0, size_ = 0;
};

// Adds one distinct position reached by n paths to a ply's counts.
void tally(PlyCounts& c, const Position& p, uint64_t n, const chess::Attacks& at) {
    const bool check = chess::in_check(p, at), moves = chess::has_legal_move(p, at);
    const bool dead = moves && chess::insufficient_material(p);
    ++c.distinct;
    c.paths += n;
    if (check) ++c.in_check, c.check_paths += n;
    if (check && !moves) ++c.checkmates, c.checkmate_paths += n;
    if (!check && !moves) ++c.stalemates, c.stalemate_paths += n;
    if (dead) ++c.insufficient, c.insufficient_paths += n;
    c.en_passant += p.ep != chess::SQ_NONE;
    c.castling += p.castle_rooks != 0;
}

// a += b, counter by counter (ply and passes stay a's).
void add(PlyCounts& a, const PlyCounts& b) {
    std::vector<chess::u128> f = count_fields(a);
    const std::vector<chess::u128> g = count_fields(b);
    for (size_t i = 0; i < f.size(); ++i) f[i] += g[i];
    a = from_fields(a.ply, a.passes, f);
}

// 60% of the memory free now (machine::available_bytes: the cgroup limit
// honoured), shared among the processes on this machine.
uint64_t default_budget(int sharers) {
    return uint64_t(double(machine::available_bytes()) * 0.6) / uint64_t(std::max(sharers, 1));
}

std::string mib(uint64_t bytes) { return std::to_string((bytes + MIB - 1) / MIB) + " MiB"; }

class CpuExpander : public Expander {
   public:
    explicit CpuExpander(const Options& o)
        : budget_(o.budget_bytes ? o.budget_bytes : default_budget(o.memory_sharers)),
          min_passes_(std::max(1, o.passes)),
          log_(o.pass_log),
          progress_(o.progress),
          threads_(o.threads > 0 ? o.threads : machine::default_threads()),
          at_(chess::host_attacks()),
          zobrist_(chess::host_zobrist()) {}

    void load(const Frontier& f) override {
        frontier_.assign(f.positions.size(), Entry{});
        for (size_t i = 0; i < f.positions.size(); ++i) {
            const Position& p = f.positions[i];
            if (chess::popcount(p.occupied()) > chess::PACKED_MAX_MEN)
                throw std::invalid_argument("unique: a position with more than " +
                                            std::to_string(chess::PACKED_MAX_MEN) + " men cannot be counted");
            if (i == 0) chess960_ = p.chess960;
            frontier_[i] = {chess::pack(p), f.counts[i]};
        }
    }

    void take(Frontier& f) override {
        f.positions.resize(frontier_.size());
        f.counts.resize(frontier_.size());
        parallel_chunks(frontier_.size(), 1 << 14, threads_, [&](uint64_t a, uint64_t b) {
            for (uint64_t i = a; i < b; ++i)
                f.positions[i] = chess::unpack(frontier_[i].key, chess960_), f.counts[i] = frontier_[i].count;
        });
        std::vector<Entry>().swap(frontier_);
    }

    int expand() override { return run_ply(true, nullptr); }

    PlyCounts expand_last(int ply) override {
        PlyCounts c;
        c.ply = ply;
        c.passes = run_ply(false, &c);
        return c;
    }

    PlyCounts classify(int ply, int passes) const override {
        std::mutex m;
        PlyCounts total;
        total.ply = ply, total.passes = passes;
        parallel_chunks(frontier_.size(), 1 << 14, threads_, [&](uint64_t a, uint64_t b) {
            PlyCounts t;
            for (uint64_t i = a; i < b; ++i) tally(t, chess::unpack(frontier_[i].key, chess960_), frontier_[i].count, at_);
            std::lock_guard<std::mutex> g(m);
            add(total, t);
        });
        return total;
    }

   private:
    // One ply: the children of the frontier replace it (keep), or are
    // classified into `last` and dropped. Returns the passes it took.
    int run_ply(bool keep, PlyCounts* last) {
        const uint64_t parents = frontier_.size();
        std::atomic<uint64_t> children{0};
        parallel_chunks(parents, 1 << 12, threads_, [&](uint64_t a, uint64_t b) {
            uint64_t n = 0;
            for (uint64_t i = a; i < b; ++i) n += chess::count_moves(chess::unpack(frontier_[i].key, chess960_), at_);
            children += n;
        });
        // The distinct children this ply is expected to have (planned with a margin).
        const double expected = double(children) * ratio_.estimate();
        const uint64_t fixed = parents * ENTRY_BYTES + (keep ? uint64_t(expected * PLAN_MARGIN) * ENTRY_BYTES : 0);
        const double tables = expected * PLAN_MARGIN * double(ENTRY_BYTES) / PLAN_LOAD;
        const uint64_t budget = budget_;
        if (fixed + MIB / 2 > budget)
            throw BudgetTooSmall("--memory " + mib(budget) + " cannot hold this ply's frontiers: " + mib(fixed) +
                                 " for about " + std::to_string(parents) + " parents and " +
                                 std::to_string(uint64_t(expected)) + " distinct children, beside their tables");
        const uint64_t room = budget - fixed;
        int passes = std::max(min_passes_, int(std::ceil(tables / double(room))));
        if (!keep && log_) return logged_passes(passes, expected, room, *last);
        for (;; passes *= 2) {
            if (passes > MAX_PASSES)
                throw BudgetTooSmall("--memory " + mib(budget) + " is too small for this ply even in " +
                                     std::to_string(MAX_PASSES) + " passes");
            start_progress(parents, passes);
            std::vector<Entry> next;
            if (keep) next.reserve(uint64_t(expected * PLAN_MARGIN));  // pages are taken as they are written
            PlyCounts counts;
            bool fits = true;
            for (int pass = 0; fits && pass < passes; ++pass)
                fits = run_pass(uint32_t(pass), uint32_t(passes), expected / passes, room, keep ? &next : nullptr,
                                &counts);
            if (!fits) continue;  // a pass outgrew its room: split finer
            ratio_.record(counts.distinct, children);
            if (keep) frontier_.swap(next);
            else frontier_ = {}, add(*last, counts);
            return passes;
        }
    }

    // The last ply's passes with a journal: those it holds are not run
    // again, and the pass count is the journal's.
    int logged_passes(int passes, double expected, uint64_t room, PlyCounts& total) {
        if (log_->passes()) passes = log_->passes();
        log_->start(passes);
        start_progress(frontier_.size(), passes);
        for (int pass = 0; pass < passes; ++pass) {
            if (const PlyCounts* c = log_->finished(pass)) {
                add(total, *c);
                ply_total_ -= frontier_.size();  // the rate and ETA are of this run's work
                continue;
            }
            PlyCounts t;
            if (!run_pass(uint32_t(pass), uint32_t(passes), expected / passes, room, nullptr, &t))
                throw BudgetTooSmall("pass " + std::to_string(pass) + " of " + std::to_string(passes) +
                                     " outgrew --memory " + mib(budget_) +
                                     "; the journal keeps its pass count: give more memory, or start a new journal");
            log_->record(pass, t);
            add(total, t);
        }
        frontier_ = {};
        return passes;
    }

    void start_progress(uint64_t parents, int passes) {
        ply_done_ = 0, ply_total_ = parents * uint64_t(passes);
        generated_ = 0;
    }

    // One pass's tables: a partition each, its lock, and the bytes they
    // hold, past `limit` an overflow.
    struct PassTables {
        PassTables(uint32_t partitions, uint64_t cap, uint64_t limit)
            : tables(partitions), locks(partitions), limit(limit) {
            for (Table& t : tables) t.reset(cap), bytes += t.bytes();
        }
        bool over() const { return bytes.load(std::memory_order_relaxed) > limit; }
        std::vector<Table> tables;
        std::vector<std::mutex> locks;
        std::atomic<uint64_t> bytes{0};
        uint64_t limit;
    };

    // A thread's children, BATCH per partition, merged into the tables a
    // full batch under one lock.
    struct PassBuffer {
        explicit PassBuffer(uint32_t partitions)
            : buf(partitions * BATCH), hashes(partitions * BATCH), fill(partitions, 0) {}
        void add(PassTables& t, const Entry& e, uint64_t h) {
            const uint32_t part = partition_of(h, uint32_t(fill.size()));
            const uint32_t j = part * BATCH + fill[part]++;
            buf[j] = e, hashes[j] = h;
            if (fill[part] == BATCH) flush(t, part);
        }
        void flush(PassTables& t, uint32_t part) {
            std::lock_guard<std::mutex> g(t.locks[part]);
            t.bytes += t.tables[part].insert(&buf[part * BATCH], &hashes[part * BATCH], fill[part]);
            fill[part] = 0;
        }
        void flush_all(PassTables& t) {
            for (uint32_t part = 0; part < fill.size(); ++part)
                if (fill[part]) flush(t, part);
        }
        std::vector<Entry> buf;
        std::vector<uint64_t> hashes;
        std::vector<uint8_t> fill;
        chess::MoveList list;
    };

    // The children of parents [a, b) that fall in this pass (by their
    // Zobrist key, from the parent's and the move: the others are never
    // made) into the thread's buffer. Returns the children generated.
    uint64_t expand_parents(uint64_t a, uint64_t b, uint32_t pass, uint32_t passes, PassTables& t, PassBuffer& out) {
        uint64_t generated = 0;
        for (uint64_t i = a; i < b; ++i) {
            const Position parent = chess::unpack(frontier_[i].key, chess960_);
            const uint64_t count = frontier_[i].count;
            out.list.size = 0;
            chess::generate_moves(parent, at_, out.list);
            generated += uint64_t(out.list.size);
            const Key128 key = passes > 1 ? zobrist_.key(parent) : Key128{};
            for (int m = 0; m < out.list.size; ++m) {
                const chess::Move move = out.list.moves[m];
                if (passes > 1 && pass_of(zobrist_.child_key(parent, key, move, at_), passes) != pass) continue;
                const PackedPosition k = chess::pack(chess::canonical(chess::apply_move(parent, move), at_));
                out.add(t, {k, count}, chess::identity_hash(k));
            }
        }
        return generated;
    }

    // The pass's tables out, partition by partition, each freed once
    // copied: appended to `next` (their number added to `counts`), or
    // tallied into `counts`.
    void collect(PassTables& t, std::vector<Entry>* next, PlyCounts* counts) {
        const uint32_t partitions = uint32_t(t.tables.size());
        std::vector<uint64_t> offset(partitions + 1, 0);
        for (uint32_t p = 0; p < partitions; ++p) offset[p + 1] = offset[p] + t.tables[p].size();
        const uint64_t at = next ? next->size() : 0;
        if (next) next->resize(at + offset[partitions]);
        std::mutex m;
        parallel_chunks(partitions, 4, threads_, [&](uint64_t a, uint64_t b) {
            PlyCounts sum;
            for (uint64_t p = a; p < b; ++p) {
                uint64_t o = at + offset[p];
                t.tables[p].for_each([&](const Entry& e) {
                    if (next) (*next)[o++] = e;
                    else tally(sum, chess::unpack(e.key, chess960_), e.count, at_);
                });
                if (next) sum.distinct += t.tables[p].size();
                t.tables[p].release();
            }
            std::lock_guard<std::mutex> g(m);
            add(*counts, sum);
        });
    }

    // One pass: the children in its key range merged in the tables, then
    // collected. False when the tables outgrew `room`.
    bool run_pass(uint32_t pass, uint32_t passes, double expected, uint64_t room, std::vector<Entry>* next,
                  PlyCounts* counts) {
        uint32_t partitions = 16;
        while (partitions < MAX_PARTITIONS && expected / partitions > double(PARTITION_ENTRIES)) partitions *= 2;
        // Slots for the expected children at the planned load: a table grows
        // only when the estimate (DistinctRatio, a few percent high) was low.
        PassTables t(partitions, uint64_t(expected / PLAN_LOAD / partitions) + 1, room + room / 8);
        const uint64_t n = frontier_.size(), chunk = 256;
        const std::thread::id runner = std::this_thread::get_id();  // progress_ is called from it only
        parallel_reduce(
            (n + chunk - 1) / chunk, threads_, [&] { return PassBuffer(partitions); },
            [&](PassBuffer& out, size_t c) {
                if (t.over()) return;  // the pass is lost: the rest is skipped
                const uint64_t a = c * chunk, b = std::min(n, a + chunk);
                generated_.fetch_add(expand_parents(a, b, pass, passes, t, out), std::memory_order_relaxed);
                if (progress_ && std::this_thread::get_id() == runner) progress_(ply_done_ + b, ply_total_, generated_.load());
            },
            [&](PassBuffer& out) { out.flush_all(t); });
        ply_done_ += n;
        if (t.over()) return false;
        collect(t, next, counts);
        return true;
    }

    uint64_t budget_;
    int min_passes_;
    PassLog* log_;
    std::function<void(uint64_t, uint64_t, uint64_t)> progress_;
    uint64_t ply_done_ = 0, ply_total_ = 0;  // parent expansions, for progress_
    std::atomic<uint64_t> generated_{0};     // children generated in the ply
    int threads_;
    chess::Attacks at_;
    chess::Zobrist zobrist_;  // its keys choose each child's pass
    bool chess960_ = false;
    std::vector<Entry> frontier_;
    DistinctRatio ratio_;
};

}  // namespace

std::unique_ptr<Expander> make_cpu_expander(const Options& o) { return std::make_unique<CpuExpander>(o); }

}  // namespace gperft::frontier
