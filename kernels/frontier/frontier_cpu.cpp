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
// budget goes to a file of the work directory (Options::work_dir), read
// back a chunk at a time by each pass.
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
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <future>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "base/machine.hpp"
#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "base/zeroed_pages.hpp"
#include "chess/attacks.hpp"
#include "chess/identity.hpp"
#include "chess/movegen.hpp"
#include "chess/packed_position.hpp"
#include "chess/terminal.hpp"
#include "chess/zobrist.hpp"
#include "frontier/frontier.hpp"
#include "frontier/frontier_expand.hpp"

namespace perftide::frontier {

namespace {

using chess::Key128;
using chess::PackedPosition;
using chess::Position;

// A kept frontier's entry: the position itself.
struct Entry {
    PackedPosition key;  // key.occupied == 0: an empty slot
    uint64_t count;

    bool empty() const { return !key.occupied; }
    bool same(const Entry& o) const { return key == o.key; }
    // False when the multiplicity would pass 2^64 - 1 (it then stays).
    bool merge(const Entry& o) {
        if (count > UINT64_MAX - o.count) return false;
        count += o.count;
        return true;
    }
    uint64_t hash() const { return chess::identity_hash(key); }
};
static_assert(sizeof(Entry) == 32, "two entries to a cache line");

// A position's classes, as bits of an unsigned.
constexpr unsigned CHECK = 1, MATE = 2, STALEMATE = 4, DEAD = 8, EN_PASSANT = 16, CASTLING = 32;

// The last ply's entry: the child's Zobrist key (lo whole, 23 bits of hi),
// its multiplicity (34 bits) and its classes (6 bits), and a bit that is
// set in every entry (an empty slot is all zero).
struct KeyEntry {
    static constexpr int COUNT_SHIFT = 30;
    static constexpr uint64_t KEY_BITS = (uint64_t(1) << 23) - 1, USED = uint64_t(1) << 23;
    static constexpr uint64_t MAX_COUNT = (uint64_t(1) << 34) - 1;
    uint64_t lo = 0, word = 0;

    KeyEntry() = default;
    KeyEntry(const Key128& k, unsigned classes, uint64_t count)
        : lo(k.lo), word(count << COUNT_SHIFT | uint64_t(classes) << 24 | USED | (k.hi & KEY_BITS)) {}
    uint64_t count() const { return word >> COUNT_SHIFT; }
    unsigned classes() const { return unsigned(word >> 24) & 63; }
    bool empty() const { return !word; }
    bool same(const KeyEntry& o) const { return lo == o.lo && (word & KEY_BITS) == (o.word & KEY_BITS); }
    // False when the multiplicity would pass MAX_COUNT (it then stays).
    bool merge(const KeyEntry& o) {
        const uint64_t c = count() + o.count();
        if (c > MAX_COUNT) return false;
        word = (word & ((uint64_t(1) << COUNT_SHIFT) - 1)) | c << COUNT_SHIFT;
        return true;
    }
    uint64_t hash() const { return lo; }
};
static_assert(sizeof(KeyEntry) == 16, "four entries to a cache line");

constexpr uint64_t ENTRY_BYTES = sizeof(Entry);
constexpr int MAX_PARTITIONS = 1 << 10;           // per pass (more for larger passes)
constexpr uint64_t PARTITION_ENTRIES = 1 << 16;    // a partition's expected size, at most
constexpr int BATCH = 16;                          // children buffered per partition and thread
constexpr double MAX_LOAD = 0.75;                // a table grows by half past it
constexpr double PLAN_LOAD = 0.7;                // the load tables are made for, if the estimate holds
constexpr double PLAN_MARGIN = 1.1;              // on the estimate of a ply's distinct positions, for planning
constexpr int MAX_PASSES = 1 << 12;
constexpr uint64_t MIB = uint64_t(1) << 20;
constexpr uint64_t FILE_CHUNK = uint64_t(1) << 21;  // entries of a frontier file read at once, at most (64 MiB)

// A child's pass: detail::pass_of (frontier_expand.hpp). Within a pass,
// bits 20..31 of the entry's hash choose the partition (of at most
// MAX_PARTITIONS), and the whole hash (remixed) the slot: a growing table
// recomputes it.
CHESS_FI uint32_t partition_of(uint64_t h, uint32_t partitions) { return uint32_t(h >> 20) & (partitions - 1); }
CHESS_FI uint64_t slot_of(uint64_t h, uint64_t cap) {
    return uint64_t((unsigned __int128)(h * 0x9E3779B97F4A7C15ULL) * cap >> 64);
}

// A partition's table: linear probing over `cap` slots (any number).
template <class E>
class Table {
   public:
    uint64_t size() const { return size_; }
    uint64_t bytes() const { return cap_ * sizeof(E); }
    // Whether a multiplicity outgrew its entry (KeyEntry::MAX_COUNT, or
    // 2^64 - 1 for Entry).
    bool overflowed() const { return overflow_; }

    // An empty table of `cap` slots.
    void reset(uint64_t cap) {
        cap_ = std::max<uint64_t>(16, cap);
        slots_ = ZeroedPages<E>(cap_);
        size_ = 0;
    }
    void release() {
        slots_ = ZeroedPages<E>();
        cap_ = size_ = 0;
    }

    // Adds n entries (equal keys merge); returns how many bytes the table grew.
    uint64_t insert(const E* in, const uint64_t* hashes, int n) {
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
            if (!slots_[i].empty()) f(slots_[i]);
    }

   private:
    void place(const E& e, uint64_t i) {
        for (;;) {
            E& s = slots_[i];
            if (s.empty()) {
                s = e;
                ++size_;
                return;
            }
            if (s.same(e)) {
                if (!s.merge(e)) overflow_ = true;
                return;
            }
            if (++i == cap_) i = 0;
        }
    }

    uint64_t grow(uint64_t cap) {
        ZeroedPages<E> old = std::move(slots_);
        const uint64_t old_cap = cap_;
        cap_ = cap;
        slots_ = ZeroedPages<E>(cap_);
        size_ = 0;
        for (uint64_t i = 0; i < old_cap; ++i)
            if (!old[i].empty()) place(old[i], slot_of(old[i].hash(), cap_));
        return (cap_ - old_cap) * sizeof(E);
    }

    ZeroedPages<E> slots_;
    uint64_t cap_ = 0, size_ = 0;
    bool overflow_ = false;
};

// A position's classes (CHECK | MATE | ...), for the counts of its ply.
unsigned classes_of(const Position& p, const chess::Attacks& at) {
    const bool check = chess::in_check(p, at), moves = chess::has_legal_move(p, at);
    return (check ? CHECK : 0) | (check && !moves ? MATE : 0) | (!check && !moves ? STALEMATE : 0) |
           (moves && chess::insufficient_material(p) ? DEAD : 0) | (p.ep != chess::SQ_NONE ? EN_PASSANT : 0) |
           (p.castle_rooks ? CASTLING : 0);
}

// Adds one distinct position of these classes, reached by n paths, to a ply's counts.
void tally(PlyCounts& c, unsigned classes, uint64_t n) {
    ++c.distinct;
    c.paths += n;
    if (classes & CHECK) ++c.in_check, c.check_paths += n;
    if (classes & MATE) ++c.checkmates, c.checkmate_paths += n;
    if (classes & STALEMATE) ++c.stalemates, c.stalemate_paths += n;
    if (classes & DEAD) ++c.insufficient, c.insufficient_paths += n;
    c.en_passant += (classes & EN_PASSANT) != 0;
    c.castling += (classes & CASTLING) != 0;
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

}  // namespace

// The bytes free to this process in `dir`; throws WorkDirUnusable (with
// the need) when they cannot be read.
uint64_t free_space(const std::string& dir, uint64_t need, const std::string& what) {
    struct statvfs fs;
    if (statvfs(dir.c_str(), &fs) != 0)
        throw WorkDirUnusable(named(Setting::WorkDir, dir) + ": cannot read its free space (" + std::strerror(errno) + "); " +
                              what + " needs about " + mib(need));
    return uint64_t(fs.f_bavail) * fs.f_frsize;
}

void check_free_space(const std::string& dir, uint64_t need, const std::string& what) {
    const uint64_t free = free_space(dir, need, what);
    if (need > free)
        throw WorkDirUnusable(named(Setting::WorkDir, dir) + " has " + mib(free) + " free; " + what + " needs about " +
                              mib(need) + ": free some space or give another directory");
}

namespace {

// A frontier in a file of the work directory: unlinked as soon as it is
// made, so that it goes with the process however that ends. Its space is
// taken up front (posix_fallocate), so that a full disk is found before
// the ply rather than in the middle of it.
class FrontierFile {
   public:
    FrontierFile(const std::string& dir, uint64_t reserve_entries) {
        const uint64_t need = reserve_entries * ENTRY_BYTES;
        const std::string what = "this ply's frontier of about " + std::to_string(reserve_entries) + " positions";
        check_free_space(dir, need, what);
        std::string name = dir + "/perftide-frontier-XXXXXX";
        fd_ = mkstemp(name.data());
        if (fd_ < 0) refuse(dir, "cannot make a file there", what, need);
        unlink(name.c_str());
        if (const int e = posix_fallocate(fd_, 0, off_t(need)); e != 0) {
            errno = e;
            close(fd_);
            refuse(dir, "cannot take the space for a file there", what, need);
        }
    }
    FrontierFile(const FrontierFile&) = delete;
    FrontierFile& operator=(const FrontierFile&) = delete;
    ~FrontierFile() { close(fd_); }

    uint64_t size() const { return size_; }
    void set_size(uint64_t n) { size_ = n; }
    void write(uint64_t at, const Entry* e, uint64_t n) {
        transfer(at, n, [&](uint64_t off, uint64_t done, uint64_t bytes) {
            return pwrite(fd_, reinterpret_cast<const char*>(e) + done, bytes, off_t(off));
        });
    }
    void read(uint64_t at, Entry* e, uint64_t n) const {
        transfer(at, n, [&](uint64_t off, uint64_t done, uint64_t bytes) {
            return pread(fd_, reinterpret_cast<char*>(e) + done, bytes, off_t(off));
        });
        posix_fadvise(fd_, off_t(at * ENTRY_BYTES), off_t(n * ENTRY_BYTES), POSIX_FADV_DONTNEED);  // read once a pass
    }

   private:
    template <class Io>
    void transfer(uint64_t at, uint64_t n, Io&& io) const {
        const uint64_t bytes = n * ENTRY_BYTES;
        for (uint64_t done = 0; done < bytes;) {
            const ssize_t r = io(at * ENTRY_BYTES + done, done, bytes - done);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) fail("the work directory's frontier file");
            done += uint64_t(r);
        }
    }
    [[noreturn]] static void fail(const std::string& what) {
        throw std::runtime_error(what + ": " + (errno ? std::strerror(errno) : "short transfer"));
    }
    // A directory that cannot take the file (errno says why), with the sizes.
    [[noreturn]] static void refuse(const std::string& dir, const std::string& failed, const std::string& what,
                                    uint64_t need) {
        const std::string why = std::strerror(errno);
        throw WorkDirUnusable(named(Setting::WorkDir, dir) + ": " + failed + " (" + why + "); " + what + " needs about " +
                              mib(need) + ", the directory has " + mib(free_space(dir, need, what)) + " free");
    }

    int fd_ = -1;
    uint64_t size_ = 0;
};

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
        PlyCounts total;
        total.ply = ply, total.passes = passes;
        scan([&](const Entry* e, uint64_t, uint64_t n) {
            parallel_chunks(n, 1 << 14, threads_, [&](uint64_t a, uint64_t b) {
                PlyCounts t;
                for (uint64_t i = a; i < b; ++i) tally(t, classes_of(chess::unpack(e[i].key, chess960_), at_), e[i].count);
                std::lock_guard<std::mutex> g(m);
                add(total, t);
            });
        });
        return total;
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
            PlyCounts sum;
            std::vector<Entry> out;
            for (uint64_t p = a; p < b; ++p) {
                if constexpr (std::is_same_v<E, KeyEntry>) {
                    t.tables[p].for_each([&](const KeyEntry& e) { tally(sum, e.classes(), e.count()); });
                } else if (!next) {  // the last ply in whole entries
                    t.tables[p].for_each([&](const Entry& e) {
                        tally(sum, classes_of(chess::unpack(e.key, chess960_), at_), e.count);
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
            add(*counts, sum);
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
