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
// ply runs in passes, each keeping only the children whose key of men and
// side (chess::Zobrist::men_key, keys of their own seed, PASS_SEED) falls
// in its share of the key range: every pass generates every parent's moves
// again, but that key follows from the parent's and the move alone, so
// only the pass's own children are made. A frontier too large for the
// budget goes to a file of the work directory (Options::work_dir,
// frontier_file.hpp), read back a chunk at a time by each pass; the
// entries and their tables are pass_tables.hpp's, the classes of a ply's
// positions ply_classes.hpp's.
//
// The last ply need not be kept: each pass is classified and dropped
// (expand_last). Its tables hold 16-byte entries: 87 bits of the child's
// 128-bit Zobrist key, the multiplicity and the classes,
// found when the child is made. Two of the ply's positions are merged
// wrongly only if they share those bits and their pass: for ply 9's 9.2e9
// positions in one pass a chance below 3 in 10 million (each pair 2^-87).
// Its multiplicities take 34 bits: a pass where one outgrows them (bare
// kings past ply 17) is run again with whole 32-byte entries, whose 64-bit
// multiplicities every kept ply uses too. A position reached by 2^64 or
// more paths is refused (std::invalid_argument, exit 2), never wrapped.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "base/machine.hpp"
#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "chess/attacks.hpp"
#include "chess/identity.hpp"
#include "chess/movegen.hpp"
#include "chess/packed_position.hpp"
#include "chess/zobrist.hpp"
#include "frontier/frontier.hpp"
#include "frontier/frontier_expand.hpp"
#include "frontier/frontier_file.hpp"
#include "frontier/pass_tables.hpp"
#include "frontier/ply_classes.hpp"

namespace perftide::frontier {

namespace {

using namespace cpu;
using chess::Key128;
using chess::Position;

constexpr int MAX_PARTITIONS = 1 << 10;           // per pass (more for larger passes)
constexpr uint64_t PARTITION_ENTRIES = 1 << 16;    // a partition's expected size, at most
constexpr double PLAN_LOAD = 0.7;                // the load tables are made for, if the estimate holds
constexpr double PLAN_MARGIN = 1.1;              // on the estimate of a ply's distinct positions, for planning
constexpr int MAX_PASSES = 1 << 12;
constexpr uint64_t MIB = uint64_t(1) << 20;
constexpr uint64_t FILE_CHUNK = uint64_t(1) << 21;  // entries of a frontier file read at once, at most (64 MiB)

using Tally = PlyTally<chess::u128>;

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

class CpuExpander : public Expander {
   public:
    explicit CpuExpander(const Options& o)
        : budget_(o.budget_bytes ? o.budget_bytes : default_budget(o.memory_sharers)),
          min_passes_(std::max(1, o.passes)),
          log_(o.pass_log),
          progress_(o.progress),
          threads_(o.threads > 0 ? o.threads : machine::default_threads()),
          work_dir_(o.work_dir),
          chunk_(std::clamp<uint64_t>(budget_ / 64 / ENTRY_BYTES, 4096, FILE_CHUNK)),
          at_(chess::host_attacks()),
          zobrist_(chess::host_zobrist()),
          pass_data_(chess::build_zobrist_data(PASS_SEED)),
          pass_keys_{pass_data_.get()} {}

    void begin_load(uint64_t total) override {
        file_.reset();
        std::vector<Entry>().swap(frontier_);
        if (wants_file(total * ENTRY_BYTES)) file_ = std::make_unique<FrontierFile>(work_dir_, total);
        else frontier_.reserve(total);
    }

    void append(const Frontier& piece) override {
        const uint64_t n = piece.positions.size(), at = parents();
        std::vector<Entry> written;  // the piece, packed, when it goes to the file
        if (file_) written.resize(n);
        else frontier_.resize(at + n);
        Entry* out = file_ ? written.data() : frontier_.data() + at;
        for (uint64_t i = 0; i < n; ++i) {
            const Position& p = piece.positions[i];
            if (chess::popcount(p.occupied()) > chess::PACKED_MAX_MEN)
                throw std::invalid_argument("unique: a position with more than " +
                                            std::to_string(chess::PACKED_MAX_MEN) + " men cannot be counted");
            if (at + i == 0) chess960_ = p.chess960;
            out[i] = {chess::pack(p), piece.counts[i]};
        }
        if (!file_) return;
        file_->set_size(at + n);
        file_->write(at, written.data(), n);
    }

    void take(Frontier& f) override {
        f.positions.resize(parents());
        f.counts.resize(parents());
        scan([&](const Entry* e, uint64_t first, uint64_t n) {
            parallel_chunks(n, 1 << 14, threads_, [&](uint64_t a, uint64_t b) {
                for (uint64_t i = a; i < b; ++i)
                    f.positions[first + i] = chess::unpack(e[i].key, chess960_), f.counts[first + i] = e[i].count;
            });
        });
        std::vector<Entry>().swap(frontier_);
        file_.reset();
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
        Tally total;
        scan([&](const Entry* e, uint64_t, uint64_t n) {
            parallel_chunks(n, 1 << 14, threads_, [&](uint64_t a, uint64_t b) {
                Tally t;
                for (uint64_t i = a; i < b; ++i) t.add(classes_of(chess::unpack(e[i].key, chess960_), at_), e[i].count);
                std::lock_guard<std::mutex> g(m);
                total = total + t;
            });
        });
        return total.counts(ply, passes);
    }

   private:
    uint64_t parents() const { return file_ ? file_->size() : frontier_.size(); }
    // A frontier of `bytes` (with what it is held beside) that would take
    // more than half the budget goes to a file of the work directory, when
    // there is one.
    bool wants_file(uint64_t bytes) const { return !work_dir_.empty() && bytes > budget_ / 2; }

    // Calls f(entries, first, n) over the frontier: at once when it is in
    // memory, else a chunk at a time, the next chunk read while f runs.
    template <class F>
    void scan(F&& f) const {
        if (!file_) return f(frontier_.data(), 0, frontier_.size());
        const uint64_t n = file_->size();
        std::vector<Entry> now(std::min(n, chunk_)), next(now.size());
        const auto read = [&](std::vector<Entry>* to, uint64_t at) { file_->read(at, to->data(), std::min(chunk_, n - at)); };
        if (n) read(&now, 0);
        for (uint64_t at = 0; at < n; at += chunk_) {
            std::future<void> ahead;
            if (at + chunk_ < n) ahead = std::async(std::launch::async, read, &next, at + chunk_);
            f(now.data(), at, std::min(chunk_, n - at));
            if (ahead.valid()) ahead.get();
            now.swap(next);
        }
    }

    // One ply: the children of the frontier replace it (keep), or are
    // classified into `last` and dropped. Returns the passes it took.
    int run_ply(bool keep, PlyCounts* last) {
        std::atomic<uint64_t> children{0};
        scan([&](const Entry* e, uint64_t, uint64_t n) {
            parallel_chunks(n, 1 << 12, threads_, [&](uint64_t a, uint64_t b) {
                uint64_t k = 0;
                for (uint64_t i = a; i < b; ++i) k += chess::count_moves(chess::unpack(e[i].key, chess960_), at_);
                children += k;
            });
        });
        // The distinct children this ply is expected to have (planned with a margin).
        const double expected = double(children) * ratio_.estimate();
        const uint64_t next_bytes = keep ? uint64_t(expected * PLAN_MARGIN) * ENTRY_BYTES : 0;
        const uint64_t parent_bytes = file_ ? 2 * chunk_ * ENTRY_BYTES : frontier_.size() * ENTRY_BYTES;
        const bool to_file = keep && wants_file(parent_bytes + next_bytes);
        const uint64_t fixed = parent_bytes + (to_file ? 0 : next_bytes);
        const double tables = expected * PLAN_MARGIN * double(keep ? sizeof(Entry) : sizeof(KeyEntry)) / PLAN_LOAD;
        if (fixed + MIB / 2 > budget_)
            throw BudgetTooSmall(budget_ / MIB, (fixed + MIB / 2 + MIB - 1) / MIB,
                                 named(Setting::Memory, mib(budget_)) + " cannot hold this ply's frontiers: " + mib(fixed) +
                                 " for about " + std::to_string(parents()) + " parents and " +
                                 std::to_string(uint64_t(expected)) + " distinct children, beside their tables" +
                                 (keep && work_dir_.empty() ? advice(" (", {Setting::WorkDir}, " keeps a large frontier on disk)")
                                                             : ""));
        const uint64_t room = budget_ - fixed;
        int passes = std::max(min_passes_, int(std::ceil(tables / double(room))));
        if (!keep && log_) return logged_passes(passes, expected, room, *last);
        for (;; passes *= 2) {
            if (passes > MAX_PASSES)
                throw BudgetTooSmall(budget_ / MIB, 0,
                                     named(Setting::Memory, mib(budget_)) + " is too small for this ply even in " +
                                     std::to_string(MAX_PASSES) + " passes");
            start_progress(passes);
            Next next;
            if (to_file) next.file = std::make_unique<FrontierFile>(work_dir_, uint64_t(expected * PLAN_MARGIN));
            else if (keep) next.entries.reserve(uint64_t(expected * PLAN_MARGIN));  // pages are taken as they are written
            PlyCounts counts;
            bool fits = true;
            for (int pass = 0; fits && pass < passes; ++pass)
                fits = keep ? kept_pass(uint32_t(pass), uint32_t(passes), expected / passes, room, &next, &counts)
                            : last_pass(uint32_t(pass), uint32_t(passes), expected / passes, room, &counts);
            if (!fits) continue;  // a pass outgrew its room: split finer
            ratio_.record(counts.distinct, children);
            if (keep) frontier_.swap(next.entries), file_ = std::move(next.file);
            else frontier_ = {}, file_.reset(), add(*last, counts);
            return passes;
        }
    }

    // The last ply's passes with a journal: those it holds are not run
    // again, and the pass count is the journal's.
    int logged_passes(int passes, double expected, uint64_t room, PlyCounts& total) {
        if (log_->passes()) passes = log_->passes();
        log_->start(passes);
        start_progress(passes);
        for (int pass = 0; pass < passes; ++pass) {
            if (const PlyCounts* c = log_->finished(pass)) {
                add(total, *c);
                ply_total_ -= parents();  // the rate and ETA are of this run's work
                continue;
            }
            PlyCounts t;
            if (!last_pass(uint32_t(pass), uint32_t(passes), expected / passes, room, &t))
                throw BudgetTooSmall(budget_ / MIB, 0,
                                     "pass " + std::to_string(pass) + " of " + std::to_string(passes) + " outgrew " +
                                         named(Setting::Memory, mib(budget_)) + "; " + log_->when_a_pass_outgrows());
            log_->record(pass, t);
            add(total, t);
        }
        frontier_ = {}, file_.reset();
        return passes;
    }

    void start_progress(int passes) {
        ply_done_ = 0, ply_total_ = parents() * uint64_t(passes);
        generated_ = 0;
    }

    // The next frontier, built pass by pass: in memory or in a file.
    struct Next {
        std::vector<Entry> entries;
        std::unique_ptr<FrontierFile> file;
    };

    // One pass's tables: a partition each, its lock, and the bytes they
    // hold, past `limit` an overflow.
    template <class E>
    struct PassTables {
        PassTables(uint32_t partitions, uint64_t cap, uint64_t limit)
            : tables(partitions), locks(partitions), limit(limit) {
            for (Table<E>& t : tables) t.reset(cap), bytes += t.bytes();
        }
        bool over() const { return bytes.load(std::memory_order_relaxed) > limit; }
        std::vector<Table<E>> tables;
        std::vector<std::mutex> locks;
        std::atomic<uint64_t> bytes{0};
        uint64_t limit;
    };

    // A thread's children, BATCH per partition, merged into the tables a
    // full batch under one lock.
    template <class E>
    struct PassBuffer {
        explicit PassBuffer(uint32_t partitions)
            : buf(partitions * BATCH), hashes(partitions * BATCH), fill(partitions, 0) {}
        void add(PassTables<E>& t, const E& e) {
            const uint64_t h = e.hash();
            const uint32_t part = partition_of(h, uint32_t(fill.size()));
            const uint32_t j = part * BATCH + fill[part]++;
            buf[j] = e, hashes[j] = h;
            if (fill[part] == BATCH) flush(t, part);
        }
        void flush(PassTables<E>& t, uint32_t part) {
            std::lock_guard<std::mutex> g(t.locks[part]);
            t.bytes += t.tables[part].insert(&buf[part * BATCH], &hashes[part * BATCH], fill[part]);
            fill[part] = 0;
        }
        void flush_all(PassTables<E>& t) {
            for (uint32_t part = 0; part < fill.size(); ++part)
                if (fill[part]) flush(t, part);
        }
        std::vector<E> buf;
        std::vector<uint64_t> hashes;
        std::vector<uint8_t> fill;
        chess::MoveList list;
    };

    // The children of parents [p, end) that fall in this pass (by their key
    // of men and side, from the parent's and the move: the others are never
    // made) into the thread's buffer: packed (Entry), or as their key and
    // classes (KeyEntry). Returns the children generated.
    template <class E>
    uint64_t expand_parents(const Entry* p, const Entry* end, uint32_t pass, uint32_t passes, PassTables<E>& t,
                            PassBuffer<E>& out) {
        constexpr bool keyed = std::is_same_v<E, KeyEntry>;
        uint64_t generated = 0;
        for (; p != end; ++p) {
            const Position parent = chess::unpack(p->key, chess960_);
            out.list.size = 0;
            chess::generate_moves(parent, at_, out.list);
            generated += uint64_t(out.list.size);
            Key128 key;  // the parent's, once a child needs it
            bool have_key = false;
            detail::PassShare{pass_keys_, pass, passes}.for_each(parent, out.list, [&](int m) {
                const chess::Move move = out.list.moves[m];
                const Position child = chess::canonical(chess::apply_move(parent, move), at_);
                if constexpr (keyed) {
                    if (!have_key) key = zobrist_.key(parent), have_key = true;
                    out.add(t, KeyEntry(zobrist_.child_key(parent, key, move, at_), classes_of(child, at_), p->count));
                } else {
                    out.add(t, Entry{chess::pack(child), p->count});
                }
            });
        }
        return generated;
    }

    // The pass's tables out, partition by partition, each freed once
    // copied: appended to `next` (their number added to `counts`), or
    // tallied into `counts`.
    template <class E>
    void collect(PassTables<E>& t, Next* next, PlyCounts* counts) {
        const uint32_t partitions = uint32_t(t.tables.size());
        std::vector<uint64_t> offset(partitions + 1, 0);
        for (uint32_t p = 0; p < partitions; ++p) offset[p + 1] = offset[p] + t.tables[p].size();
        uint64_t at = 0;
        if (next && next->file) at = next->file->size(), next->file->set_size(at + offset[partitions]);
        else if (next) at = next->entries.size(), next->entries.resize(at + offset[partitions]);
        std::mutex m;
        parallel_chunks(partitions, 4, threads_, [&](uint64_t a, uint64_t b) {
            Tally sum;
            std::vector<Entry> out;
            for (uint64_t p = a; p < b; ++p) {
                if constexpr (std::is_same_v<E, KeyEntry>) {
                    t.tables[p].for_each([&](const KeyEntry& e) { sum.add(e.classes(), e.count()); });
                } else if (!next) {  // the last ply in whole entries
                    t.tables[p].for_each([&](const Entry& e) {
                        sum.add(classes_of(chess::unpack(e.key, chess960_), at_), e.count);
                    });
                } else {
                    Entry* to = next->file ? (out.resize(t.tables[p].size()), out.data()) : &next->entries[at + offset[p]];
                    t.tables[p].for_each([&](const Entry& e) { *to++ = e; });
                    if (next->file) next->file->write(at + offset[p], out.data(), out.size());
                    sum.distinct += t.tables[p].size();
                }
                t.tables[p].release();
            }
            std::lock_guard<std::mutex> g(m);
            add(*counts, sum.counts(counts->ply, counts->passes));
        });
    }

    // How a pass ended: collected, its tables outgrew `room` (split finer),
    // or a multiplicity outgrew its entry (nothing collected).
    enum class PassEnd { Done, OutgrewRoom, CountOverflow };

    // One pass: the children in its key range merged in the tables, then
    // collected (appended to next, or tallied into counts when next is null).
    template <class E>
    PassEnd run_pass(uint32_t pass, uint32_t passes, double expected, uint64_t room, Next* next, PlyCounts* counts) {
        uint32_t partitions = 16;
        while (partitions < MAX_PARTITIONS && expected / partitions > double(PARTITION_ENTRIES)) partitions *= 2;
        // Slots for the expected children at the planned load: a table grows
        // only when the estimate (DistinctRatio, a few percent high) was low.
        PassTables<E> t(partitions, uint64_t(expected / PLAN_LOAD / partitions) + 1, room + room / 8);
        const uint64_t chunk = 256;
        const std::thread::id runner = std::this_thread::get_id();  // progress_ is called from it only
        scan([&](const Entry* e, uint64_t first, uint64_t n) {
            parallel_reduce(
                (n + chunk - 1) / chunk, threads_, [&] { return PassBuffer<E>(partitions); },
                [&](PassBuffer<E>& out, size_t c) {
                    if (t.over()) return;  // the pass is lost: the rest is skipped
                    const uint64_t a = c * chunk, b = std::min(n, a + chunk);
                    generated_.fetch_add(expand_parents(e + a, e + b, pass, passes, t, out), std::memory_order_relaxed);
                    if (progress_ && std::this_thread::get_id() == runner)
                        progress_(ply_done_ + first + b, ply_total_, generated_.load());
                },
                [&](PassBuffer<E>& out) { out.flush_all(t); });
        });
        ply_done_ += parents();
        if (t.over()) return PassEnd::OutgrewRoom;
        for (const Table<E>& table : t.tables)
            if (table.overflowed()) return PassEnd::CountOverflow;
        collect(t, next, counts);
        return PassEnd::Done;
    }

    // A pass of a kept ply: false when it outgrew its room.
    bool kept_pass(uint32_t pass, uint32_t passes, double expected, uint64_t room, Next* next, PlyCounts* counts) {
        const PassEnd end = run_pass<Entry>(pass, passes, expected, room, next, counts);
        if (end == PassEnd::CountOverflow) refuse_count();
        return end == PassEnd::Done;
    }

    // A pass of the last ply: keyed entries, and whole ones (64-bit
    // multiplicities) again where a multiplicity outgrew the keyed 34 bits.
    // False when it outgrew its room.
    bool last_pass(uint32_t pass, uint32_t passes, double expected, uint64_t room, PlyCounts* counts) {
        const PassEnd keyed = run_pass<KeyEntry>(pass, passes, expected, room, nullptr, counts);
        if (keyed != PassEnd::CountOverflow) return keyed == PassEnd::Done;
        ply_done_ -= parents();  // the pass is made again
        const PassEnd whole = run_pass<Entry>(pass, passes, expected, room, nullptr, counts);
        if (whole == PassEnd::CountOverflow) refuse_count();
        return whole == PassEnd::Done;
    }

    [[noreturn]] static void refuse_count() {
        throw InputError(
            "a position of this ply is reached by more than 18446744073709551615 (2^64 - 1) move paths, more than "
            "unique's multiplicities hold: give a smaller " + named(Setting::Depth));
    }

    uint64_t budget_;
    int min_passes_;
    PassLog* log_;
    std::function<void(uint64_t, uint64_t, uint64_t)> progress_;
    uint64_t ply_done_ = 0, ply_total_ = 0;  // parent expansions, for progress_
    std::atomic<uint64_t> generated_{0};     // children generated in the ply
    int threads_;
    std::string work_dir_;
    uint64_t chunk_;  // entries of a frontier file read at once: two buffers take 1/32 of the budget
    chess::Attacks at_;
    chess::Zobrist zobrist_;  // the last ply's entries hold its keys
    std::unique_ptr<chess::ZobristData> pass_data_;
    chess::Zobrist pass_keys_;  // its keys of men and side choose each child's pass
    bool chess960_ = false;
    std::vector<Entry> frontier_;         // the frontier, when in memory
    std::unique_ptr<FrontierFile> file_;  // the frontier, when in the work directory
    DistinctRatio ratio_;
};

}  // namespace

std::unique_ptr<Expander> make_cpu_expander(const Options& o) { return std::make_unique<CpuExpander>(o); }

}  // namespace perftide::frontier
