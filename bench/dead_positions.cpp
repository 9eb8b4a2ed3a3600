// Dead-position solver throughput and accuracy on the CHA test positions.
// Runs the batch classifier single-threaded and with all hardware threads,
// scores both answers of every position against the file's verdicts, and
// writes results/dead_positions.json beside CHA's published full-search
// figure. Usage: dead_positions [--data FILE] [--out FILE] [--nodes N]
// [--threads N] [--list]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "../tests/dead_suite.hpp"
#include "json.hpp"

namespace {

using namespace gperft::analysis;

std::string command_output(const std::string& cmd) {
    std::string out;
    if (FILE* f = popen(cmd.c_str(), "r")) {
        char buf[256];
        while (fgets(buf, sizeof buf, f)) out += buf;
        pclose(f);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

struct Run {
    int threads;
    double seconds;
    dead_suite::Score score;
};

Run run(const std::vector<dead_suite::Entry>& entries, const std::vector<chess::Position>& positions,
        const std::vector<size_t>& index, const MateBudget& budget, int threads) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<DeadVerdict> verdicts = classify_dead(positions, budget, threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Run r{threads, seconds, {}};
    r.score.refused = int(entries.size() - positions.size());
    for (size_t i = 0; i < positions.size(); ++i) dead_suite::score(entries[index[i]], positions[i], verdicts[i], r.score);
    return r;
}

std::string run_json(const Run& r) {
    const auto& s = r.score;
    const double pps = s.positions / r.seconds;
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "{\"threads\": %d, \"seconds\": %.3f, \"positions_per_second\": %.0f, "
                  "\"sides_per_second\": %.0f, \"unsound\": %d, \"dead_found\": %d, \"unknown\": %d}",
                  r.threads, r.seconds, pps, 2 * pps, s.unsound, s.dead_found, s.unknown);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    std::string data = std::string(GPERFT_SOURCE_DIR) + "/tests/data/dead/chasolver-positions.txt";
    std::string out = std::string(GPERFT_SOURCE_DIR) + "/results/dead_positions.json";
    MateBudget budget;
    int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--data" && has_value) data = argv[++i];
        else if (a == "--out" && has_value) out = argv[++i];
        else if (a == "--nodes" && has_value) budget.max_nodes = std::stoull(argv[++i]);
        else if (a == "--threads" && has_value) threads = std::stoi(argv[++i]);
        else if (a == "--list") list = true;
        else {
            std::cerr << "dead_positions: unknown argument '" << a << "'\n";
            return 2;
        }
    }

    const auto entries = dead_suite::read(data);
    std::vector<chess::Position> positions;
    std::vector<size_t> index;
    for (size_t i = 0; i < entries.size(); ++i) {
        try {
            positions.push_back(chess::parse_fen(entries[i].fen));
            index.push_back(i);
        } catch (const chess::FenError&) {
        }
    }
    classify_dead({positions.front()}, budget, 1);  // build tables before timing

    std::vector<Run> runs{run(entries, positions, index, budget, 1)};
    if (threads > 1) runs.push_back(run(entries, positions, index, budget, threads));
    const dead_suite::Score& s = runs.front().score;
    if (list) {
        for (const auto& p : s.problems) std::cout << "UNSOUND " << p << "\n";
        for (const auto& m : s.missed_dead) std::cout << "MISSED " << m << "\n";
    }

    std::ofstream f(out);
    f << "{\n  \"benchmark\": \"dead-position solver on the CHA test positions\",\n";
    f << "  \"commit\": " << gperft::json::quote(command_output("git -C " GPERFT_SOURCE_DIR " rev-parse --short HEAD"))
      << ",\n";
    f << "  \"date\": " << gperft::json::quote(command_output("date -u +%Y-%m-%d")) << ",\n";
    f << "  \"machine\": {\"cpu\": " << gperft::json::quote(cpu_model())
      << ", \"hardware_threads\": " << std::thread::hardware_concurrency() << "},\n";
    f << "  \"data\": \"tests/data/dead/chasolver-positions.txt\",\n";
    f << "  \"node_budget_per_side\": " << budget.max_nodes << ",\n";
    f << "  \"positions\": " << s.positions << ", \"refused_by_fen_parser\": " << s.refused << ",\n";
    f << "  \"accuracy\": {\"unsound\": " << s.unsound << ", \"dead\": " << s.dead << ", \"dead_found\": " << s.dead_found
      << ", \"winnable_sides\": " << s.winnable << ", \"winnable_found\": " << s.winnable_found
      << ", \"yes_against_file\": " << s.yes_against_file << ", \"unknown_sides\": " << s.unknown << "},\n";
    f << "  \"runs\": [";
    for (size_t i = 0; i < runs.size(); ++i) f << (i ? ",\n    " : "\n    ") << run_json(runs[i]);
    f << "\n  ],\n";
    f << "  \"peer\": {\"name\": \"CHA-Solver (Ambrona), full search\", \"positions_per_second\": 30000, "
         "\"note\": \"published figure, not measured here: single thread on an Intel Xeon w3-2435, timeout "
         "positions of 10 million Lichess games (mostly easy), one intended winner per position\"}\n}\n";
    std::cout << "positions " << s.positions << " refused " << s.refused << " unsound " << s.unsound << " dead "
              << s.dead_found << "/" << s.dead << " winnable " << s.winnable_found << "/" << s.winnable
              << " yes-against-file " << s.yes_against_file << " unknown " << s.unknown << "\n";
    for (const Run& r : runs) std::cout << run_json(r) << "\n";
    return s.unsound ? 1 : 0;
}
