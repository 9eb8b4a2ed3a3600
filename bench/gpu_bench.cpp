// gpu_bench: times perft of one position on the GPU engine (or the CPU engine,
// as the peer measured beside it) and prints one JSON object: nodes, best
// seconds of the repeats, their mean in ms per call (with --repeat 100, the
// cost of a call in a process that makes many), nodes/s, the engine's run
// statistics, and whether the count matches the one published in a data
// file. The device is warmed up first (context, tables, arena), so the time
// is the search itself.
// --hash and --no-dedup switch the transposition tables and duplicate removal.
// Exit status: 0 match (or nothing to compare), 1 mismatch, 2 bad input or
// no device.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include "chess/io/fen.hpp"
#include "count/cpu_perft.hpp"
#include "gpu/gpu_perft.hpp"
#include "inputs/suite.hpp"
#include "output/json.hpp"

namespace {

struct BenchOptions {
    std::string name;
    std::string fen = chess::START_FEN;
    int depth = 0;
    std::string backend = "gpu";
    int repeat = 1;
    std::string expected_from;  // suite file with published counts
    long long hash_mb = 0;      // device transposition tables, MiB (-1: automatic)
    bool no_dedup = false;
};

std::optional<chess::u128> published(const std::string& file, const chess::Position& root, int depth) {
    if (file.empty()) return std::nullopt;
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(file)) {
        if (!(chess::parse_fen(e.fen) == root)) continue;
        for (const auto& [d, count] : e.expected)
            if (d == depth) return count;
    }
    return std::nullopt;
}

int run(const BenchOptions& o) {
    const chess::Position root = chess::parse_fen(o.fen);
    const bool gpu = o.backend == "gpu";
    std::string device = "cpu: " + std::to_string(perftide::default_threads()) + " threads";
    perftide::gpu::Options options;
    options.table_bytes = o.hash_mb < 0 ? perftide::gpu::AUTO_TABLES : o.hash_mb << 20;
    options.dedup = !o.no_dedup;
    if (gpu) {
        const perftide::gpu::Status s = perftide::gpu::status();
        if (!s.available) {
            std::cerr << "gpu_bench: " << s.message << "\n";
            return 2;
        }
        device = s.message;
        perftide::gpu::perft_batch({root}, std::min(o.depth, 3), options);  // warm-up: context, tables, arena
    }
    perftide::gpu::Stats stats;
    chess::u128 nodes = 0;
    std::vector<double> seconds;
    for (int i = 0; i < o.repeat; ++i) {
        // A repeat with tables reuses them (they persist between calls), so
        // only the first run of each is cold; the JSON gives every run.
        const auto start = std::chrono::steady_clock::now();
        nodes = gpu ? perftide::gpu::perft_batch({root}, o.depth, options, &stats)[0]
                    : perftide::cpu_perft_batch({root}, o.depth, 0)[0];
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const double best = *std::min_element(seconds.begin(), seconds.end());
    double sum = 0;
    for (double s : seconds) sum += s;
    const auto expected = published(o.expected_from, root, o.depth);

    perftide::json::Object obj;
    obj.str("name", o.name).str("fen", o.fen).integer("depth", o.depth).str("backend", o.backend);
    obj.str("device", device).cnt("nodes", nodes).num("seconds", best).num("nps", best > 0 ? double(nodes) / best : 0);
    std::string runs;
    for (double s : seconds) runs += (runs.empty() ? "" : ", ") + perftide::json::number(s);
    obj.raw("runs", "[" + runs + "]").num("ms_per_call", 1000 * sum / double(seconds.size()));
    if (expected) obj.cnt("expected", *expected).boolean("match", *expected == nodes);
    if (gpu) {
        obj.integer("host_plies", stats.host_plies).integer("leaf_launches", stats.leaf_launches);
        obj.integer("leaf_items", stats.leaf_items).integer("make_launches", stats.make_launches);
        obj.num("arena_mib", double(stats.arena_bytes) / (1 << 20));
        obj.num("peak_arena_mib", double(stats.peak_arena_bytes) / (1 << 20));
        obj.num("table_mib", double(stats.table_bytes) / (1 << 20)).boolean("dedup", options.dedup);
        obj.integer("table_probes", stats.table_probes).integer("table_hits", stats.table_hits);
        obj.integer("dedup_positions", stats.dedup_positions);
        obj.integer("duplicates", stats.duplicates);
    }
    std::cout << obj.text() << std::endl;
    return expected && *expected != nodes ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    BenchOptions o;
    CLI::App app{"gpu_bench: time perft on the GPU engine (or the CPU engine as the peer)"};
    app.add_option("--name", o.name, "Label for the result");
    app.add_option("--fen", o.fen, "Position (default: the start position)");
    app.add_option("-d,--depth", o.depth, "Plies")->required()->check(CLI::Range(1, 20));
    app.add_option("--backend", o.backend, "gpu or cpu")->check(CLI::IsMember({"gpu", "cpu"}));
    app.add_option("--repeat", o.repeat, "Timed runs; the best is reported")->check(CLI::Range(1, 100));
    app.add_option("--expected-from", o.expected_from, "Suite file with the published counts")->check(CLI::ExistingFile);
    app.add_option("--hash", o.hash_mb, "Device transposition tables in MiB (0: none, the default; -1: automatic)")
        ->check(CLI::Range(-1LL, 1LL << 22));
    app.add_flag("--no-dedup", o.no_dedup, "No duplicate removal within levels");
    try {
        app.parse(argc, argv);
        return run(o);
    } catch (const CLI::ParseError& e) {
        return e.get_exit_code() == 0 ? app.exit(e) : (app.exit(e), 2);
    } catch (const std::exception& e) {
        std::cerr << "gpu_bench: " << e.what() << "\n";
        return 2;
    }
}
