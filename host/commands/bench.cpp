// perftide bench: a fixed benchmark workload on the CPU engine, for suites
// that compare versions and machines. It counts every position of one small
// table to its depth, checks each count against its known value (a wrong
// count is a failure, exit 1, never a speed), and prints one line:
//   bench: nodes N seconds S nps R threads T backend cpu machine HOST CPU
// or, with --json, one object with the same fields. `bench` inside
// `perftide uci` runs the same workload.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "count/cpu_perft.hpp"
#include "output/json.hpp"

namespace perftide::cli {
namespace {

struct BenchPosition {
    const char* fen;
    int depth;
    uint64_t nodes;  // the published perft count at `depth`
};

// The workload, the same on every version so that its timings compare: the
// standard perft positions (chessprogramming.org "Perft Results": the start
// position, Kiwipete and positions 3 to 6) at depths that take a few seconds
// in all on one thread (4.5e9 nodes, counted without a transposition table).
// Changing it makes earlier bench lines incomparable.
constexpr BenchPosition BENCH_WORKLOAD[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164075551},
};

struct BenchOptions {
    int threads = 1;
    bool json = false;
};

// The first line of /proc/cpuinfo's "model name", or "unknown cpu".
std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("model name")) continue;
        const size_t colon = line.find(':');
        if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
    return "unknown cpu";
}

std::string host_name() {
    char name[256] = {};
    return gethostname(name, sizeof name - 1) == 0 && name[0] ? name : "unknown-host";
}

int run_bench_command(const BenchOptions& o) {
    const BenchResult r = run_bench(o.threads);
    std::cout << (o.json ? bench_json(r) : bench_line(r)) << std::endl;
    return EXIT_OK;
}

}  // namespace

BenchResult run_bench(int threads) {
    BenchResult r;
    r.threads = threads;
    r.machine = host_name() + " " + cpu_model();
    const auto start = std::chrono::steady_clock::now();
    for (const BenchPosition& p : BENCH_WORKLOAD) {
        const chess::u128 n = cpu_perft_batch({chess::parse_fen(p.fen)}, p.depth, threads)[0];
        if (n != p.nodes)
            throw BenchMismatch("bench: wrong count: perft " + std::to_string(p.depth) + " of " + p.fen + " is " +
                                std::to_string(p.nodes) + ", counted " + chess::to_string(n));
        r.nodes += p.nodes;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::string bench_line(const BenchResult& r) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", r.seconds);
    return "bench: nodes " + std::to_string(r.nodes) + " seconds " + seconds + " nps " + std::to_string(r.nps()) +
           " threads " + std::to_string(r.threads) + " backend cpu machine " + r.machine;
}

std::string bench_json(const BenchResult& r) {
    json::Object o;
    o.cnt("nodes", r.nodes).num("seconds", r.seconds).cnt("nps", r.nps()).integer("threads", r.threads);
    o.str("backend", "cpu").str("machine", r.machine);
    return o.text();
}

Command setup_bench(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* sub = app.add_subcommand(
        "bench", "Count a fixed workload of standard perft positions on the CPU, check every count, print its speed");
    add_threads_option(*sub, o->threads, "1, so figures compare across machines");
    sub->add_flag("--json", o->json, "Print one JSON object with the fields of the line");
    return {sub, [o] {
                try {
                    return run_bench_command(*o);
                } catch (const BenchMismatch& e) {
                    error(e.what());
                    return EXIT_MISMATCH;
                }
            }};
}

}  // namespace perftide::cli
