#include "count/backend.hpp"

#include <cctype>
#include <cstdlib>

#include "base/settings.hpp"
#include "count/cpu_perft.hpp"
#include "count/cpu_stats.hpp"
#include "count/stats_tt.hpp"
#include "count/tt.hpp"
#include "count/tt_perft.hpp"
#include "frontier/frontier.hpp"
#include "gpu/gpu_perft.hpp"

namespace perftide {

using chess::Position;
using chess::u128;

std::optional<BackendChoice> parse_backend(std::string_view name) {
    std::string key(name);
    for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (key == "cpu") return BackendChoice::Cpu;
    if (key == "gpu") return BackendChoice::Gpu;
    if (key == "auto") return BackendChoice::Auto;
    return std::nullopt;
}

const char* to_string(BackendChoice choice) {
    switch (choice) {
        case BackendChoice::Cpu: return "cpu";
        case BackendChoice::Gpu: return "gpu";
        case BackendChoice::Auto: return "auto";
    }
    return "auto";
}

const char* to_string(BackendKind kind) { return kind == BackendKind::Gpu ? "gpu" : "cpu"; }

std::string not_a_backend(std::string_view name) {
    std::string text = "'";
    text += name;
    return text + "' is not a backend: use cpu, gpu or auto";
}

namespace {

// Deep runs from depth 7 on the CPU (a unit of 5 plies takes milliseconds on
// a thread, and the threads share a batch of at least four units each, grown
// to half a second a call); from 9 on the GPU, whose units keep 7 plies and
// whose calls grow towards two seconds. On the CPU the transposition table
// already catches what the host table would (measured: the host table only
// adds its cost), so that one is on by default only above the GPU.
constexpr BackendProfile CPU_PROFILE{7, 5, 4, 0, 4, 0.5, false};
constexpr BackendProfile GPU_PROFILE{9, 7, 5, 256, 0, 2.0, true};

// The CPU's tables of one run: a perft table or a statistics table, with
// their Zobrist keys; none with hash_mb 0.
class CpuTableCounter final : public TableCounter {
   public:
    CpuTableCounter(const TableOptions& o, int threads) : options_(o), threads_(threads) {
        if (o.hash_mb <= 0) return;
        keys_ = chess::build_zobrist_data(o.zobrist_seed);
        if (o.stats)
            stats_table_ = std::make_unique<StatsTable>(StatsTable::buckets_for_mb(size_t(o.hash_mb)));
        else
            table_ = std::make_unique<PerftTable>(PerftTable::buckets_for_mb(size_t(o.hash_mb)));
    }

    std::vector<u128> perft_batch(const std::vector<Position>& roots, int depth) override {
        if (table_) return tt_perft_batch(roots, depth, threads_, *table_, chess::Zobrist{keys_.get()});
        return cpu_perft_batch(roots, depth, threads_);
    }

    std::vector<u128> stats_batch(const std::vector<Position>& roots, int depth) override {
        if (!options_.stats) throw std::logic_error("stats_batch on a counter opened for plain counts");
        return stats_tallies(roots, depth, threads_, stats_table_.get(), chess::Zobrist{keys_.get()});
    }

    size_t cpu_table_mb() const override {
        return table_ ? table_->bytes() >> 20 : stats_table_ ? stats_table_->bytes() >> 20 : 0;
    }

   private:
    TableOptions options_;
    int threads_;
    std::unique_ptr<chess::ZobristData> keys_;
    std::unique_ptr<PerftTable> table_;
    std::unique_ptr<StatsTable> stats_table_;
};

// The device keeps its tables between calls with the same sizes, seed and
// kind, so later batches find the subtrees (or rows) earlier ones stored;
// they go back to the device when the run ends.
class GpuTableCounter final : public TableCounter {
   public:
    explicit GpuTableCounter(const TableOptions& o) : options_(o) {
        device_.table_bytes = o.hash_mb < 0 ? gpu::AUTO_TABLES : o.hash_mb << 20;
        device_.zobrist_seed = o.zobrist_seed;
    }
    ~GpuTableCounter() override { gpu::release_device_memory(); }

    std::vector<u128> perft_batch(const std::vector<Position>& roots, int depth) override {
        gpu::Stats stats;
        auto counts = gpu::perft_batch(roots, depth, device_, &stats);
        device_table_bytes_ = stats.table_bytes;
        return counts;
    }

    std::vector<u128> stats_batch(const std::vector<Position>& roots, int depth) override {
        if (!options_.stats) throw std::logic_error("stats_batch on a counter opened for plain counts");
        // Root after root, the rows of plies 1..depth: the tally's layout.
        gpu::Stats stats;
        const std::vector<chess::StatsTotal> rows = gpu::perft_stats(roots, depth, device_, &stats);
        device_table_bytes_ = stats.table_bytes;
        std::vector<u128> out;
        out.reserve(rows.size() * chess::STAT_COUNT);
        for (const chess::StatsTotal& row : rows) out.insert(out.end(), row.c, row.c + chess::STAT_COUNT);
        return out;
    }

    size_t device_table_mb() const override { return device_table_bytes_ >> 20; }

   private:
    TableOptions options_;
    gpu::Options device_;
    size_t device_table_bytes_ = 0;
};

class CpuBackend final : public Backend {
   public:
    explicit CpuBackend(int threads) : Backend(BackendKind::Cpu, threads) {}
    std::string device_name() const override { return "cpu"; }
    std::vector<u128> perft_batch(const std::vector<Position>& roots, int depth) const override {
        return cpu_perft_batch(roots, depth, threads());
    }
    PerftResult perft(const Position& root, int depth, Progress* progress) const override {
        return cpu_perft(root, depth, threads(), progress);
    }
    std::vector<chess::StatsTotal> stats_rows(const Position& root, int depth, Progress* progress) const override {
        return cpu_perft_stats(root, depth, threads(), progress);
    }
    std::unique_ptr<TableCounter> open_counter(const TableOptions& tables) const override {
        return std::make_unique<CpuTableCounter>(tables, threads());
    }
    std::unique_ptr<frontier::Expander> make_expander(const frontier::Options& o) const override {
        frontier::Options own = o;
        own.threads = threads();
        return frontier::make_cpu_expander(own);
    }
};

class GpuBackend final : public Backend {
   public:
    GpuBackend(int threads, std::string device) : Backend(BackendKind::Gpu, threads), device_(std::move(device)) {}
    std::string device_name() const override {
        const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
        return "gpu " + device_ + (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : "");
    }
    std::vector<u128> perft_batch(const std::vector<Position>& roots, int depth) const override {
        return gpu::perft_batch(roots, depth);
    }
    PerftResult perft(const Position& root, int depth, Progress*) const override {
        return divide_perft(root, depth, "gpu", [](const std::vector<Position>& children, int d) {
            return gpu::perft_batch(children, d);
        });
    }
    std::vector<chess::StatsTotal> stats_rows(const Position& root, int depth, Progress*) const override {
        return gpu::perft_stats({root}, depth);  // the same row type
    }
    std::unique_ptr<TableCounter> open_counter(const TableOptions& tables) const override {
        return std::make_unique<GpuTableCounter>(tables);
    }
    std::unique_ptr<frontier::Expander> make_expander(const frontier::Options& o) const override {
        frontier::Options own = o;
        own.threads = threads();  // the host pipeline's, where it stands in
        return frontier::make_gpu_expander(own);
    }

   private:
    std::string device_;
};

}  // namespace

const BackendProfile& profile_of(BackendKind kind) { return kind == BackendKind::Gpu ? GPU_PROFILE : CPU_PROFILE; }

std::unique_ptr<Backend> open_backend(BackendChoice choice, int threads) {
    if (choice == BackendChoice::Cpu) return std::make_unique<CpuBackend>(threads);
    const gpu::Status s = gpu::status();
    if (s.available) return std::make_unique<GpuBackend>(threads, s.message);
    if (choice == BackendChoice::Gpu) throw BackendUnavailable(named(Setting::Backend, "gpu") + ": " + s.message);
    return std::make_unique<CpuBackend>(threads);
}

}  // namespace perftide
