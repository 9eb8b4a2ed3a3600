// Dead-position solver throughput and accuracy on the CHA test positions.
// Three runs: the cheap pass alone (single thread), the full solver one
// position at a time (single thread, giving the time per position), and the
// batch classifier on all hardware threads. Then the open positions of the
// perft suites (no verdicts there; the answers are counted), closer to the
// game positions CHA's published figure was measured on. Scores both answers of every
// position against the file's verdicts and writes results/dead_positions.json
// beside CHA's published full-search figure. Times are wall clock and process
// CPU time (the machine may be shared; its load average is recorded).
// Usage: dead_positions [--data FILE] [--out FILE] [--nodes N] [--threads N] [--list]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <thread>

#include "inputs/suite.hpp"
#include "output/json.hpp"
#include "support/dead_suite.hpp"

namespace {

using namespace perftide::analysis;

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

std::string first_line(const char* path, const char* prefix) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

struct Clock {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();
    double wall_seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    }
    double cpu_seconds() const { return double(std::clock() - cpu) / CLOCKS_PER_SEC; }
};

struct Run {
    std::string mode;
    int threads = 1;
    double wall = 0, cpu = 0;
    size_t positions = 0;
    std::string extra;

    std::string json() const {
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "{\"mode\": \"%s\", \"threads\": %d, \"wall_seconds\": %.2f, \"cpu_seconds\": %.2f, "
                      "\"positions_per_wall_second\": %.1f, \"positions_per_cpu_second\": %.1f%s}",
                      mode.c_str(), threads, wall, cpu, positions / wall, positions / cpu, extra.c_str());
        return buf;
    }
};

dead_suite::Score score_all(const std::vector<dead_suite::Entry>& entries, const std::vector<chess::Position>& ps,
                            const std::vector<DeadVerdict>& verdicts) {
    dead_suite::Score s;
    for (size_t i = 0; i < ps.size(); ++i) dead_suite::score(entries[i], ps[i], verdicts[i], s);
    return s;
}

std::string score_json(const dead_suite::Score& s) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "{\"unsound\": %d, \"dead\": %d, \"dead_found\": %d, \"dead_found_percent\": %.2f, "
                  "\"winnable_sides\": %d, \"winnable_found\": %d, \"yes_against_file\": %d, \"unknown_sides\": %d}",
                  s.unsound, s.dead, s.dead_found, 100.0 * s.dead_found / std::max(1, s.dead), s.winnable,
                  s.winnable_found, s.yes_against_file, s.unknown);
    return buf;
}

// The full solver, one thread, over the perft suites' positions.
std::string open_positions(const MateBudget& budget) {
    const char* files[] = {"perft/perftsuite.epd", "perft/grandchesstree.epd", "perft/cpw_positions.epd"};
    std::vector<chess::Position> positions;
    std::string names;
    for (const char* file : files) {
        for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_SOURCE_DIR) + "/tests/data/" + file))
            positions.push_back(chess::parse_fen(e.fen));
        names += std::string(names.empty() ? "" : ", ") + "\"tests/data/" + file + "\"";
    }
    int answers[3] = {0, 0, 0};  // yes, no, unknown
    std::vector<double> micros;
    Clock clock;
    for (const auto& p : positions) {
        const auto t0 = std::chrono::steady_clock::now();
        const DeadVerdict v = dead_position(p, budget);
        micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        for (const MateVerdict* side : {&v.white, &v.black}) ++answers[int(side->answer)];
    }
    std::sort(micros.begin(), micros.end());
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "{\"data\": [%s], \"positions\": %zu, \"threads\": 1, \"wall_seconds\": %.3f, "
                  "\"cpu_seconds\": %.3f, \"positions_per_cpu_second\": %.0f, \"median_microseconds\": %.0f, "
                  "\"yes_sides\": %d, \"no_sides\": %d, \"unknown_sides\": %d}",
                  names.c_str(), positions.size(), clock.wall_seconds(), clock.cpu_seconds(),
                  positions.size() / clock.cpu_seconds(), micros[micros.size() / 2], answers[0], answers[1], answers[2]);
    std::cout << "open positions " << buf << "\n";
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    std::string data = std::string(PERFTIDE_SOURCE_DIR) + "/tests/data/dead/chasolver-positions.txt";
    std::string out = std::string(PERFTIDE_SOURCE_DIR) + "/results/dead_positions.json";
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
    const std::string load = first_line("/proc/loadavg", "");

    std::vector<dead_suite::Entry> entries;
    std::vector<chess::Position> positions;
    int refused = 0;
    for (const auto& e : dead_suite::read(data)) {
        try {
            positions.push_back(chess::parse_fen(e.fen));
            entries.push_back(e);
        } catch (const chess::FenError&) {
            ++refused;
        }
    }
    classify_dead({positions.front()}, budget, 1);  // build tables before timing

    std::vector<Run> runs;
    Clock quick_clock;
    const auto quick = classify_dead_quick(positions, budget, 1);
    int decided = 0;
    for (const auto& v : quick) decided += (v.white.answer != MateAnswer::Unknown) + (v.black.answer != MateAnswer::Unknown);
    runs.push_back({"cheap pass only", 1, quick_clock.wall_seconds(), quick_clock.cpu_seconds(), positions.size(),
                    ", \"sides_decided\": " + std::to_string(decided)});

    std::vector<DeadVerdict> verdicts(positions.size());
    std::vector<double> micros(positions.size());
    Clock single_clock;
    for (size_t i = 0; i < positions.size(); ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        verdicts[i] = dead_position(positions[i], budget);
        micros[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
    Run single{"full, one position at a time", 1, single_clock.wall_seconds(), single_clock.cpu_seconds(),
               positions.size(), ""};
    std::sort(micros.begin(), micros.end());
    auto pct = [&](double q) { return micros[std::min(micros.size() - 1, size_t(q * micros.size()))]; };
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  ", \"microseconds_per_position\": {\"median\": %.0f, \"p90\": %.0f, \"p99\": %.0f, \"max\": %.0f}",
                  pct(0.5), pct(0.9), pct(0.99), micros.back());
    single.extra = buf;
    runs.push_back(single);
    const dead_suite::Score s = score_all(entries, positions, verdicts);

    dead_suite::Score batch_score;
    if (threads > 1) {
        Clock batch_clock;
        const auto batch = classify_dead(positions, budget, threads);
        runs.push_back({"full, batch", threads, batch_clock.wall_seconds(), batch_clock.cpu_seconds(),
                        positions.size(), ""});
        batch_score = score_all(entries, positions, batch);
        runs.back().extra = ", \"accuracy\": " + score_json(batch_score);
    }
    if (list) {
        for (const auto& p : s.problems) std::cout << "UNSOUND " << p << "\n";
        for (const auto& m : s.missed_dead) std::cout << "MISSED " << m << "\n";
    }

    const std::string open_json = open_positions(budget);

    std::ofstream f(out);
    f << "{\n  \"benchmark\": \"dead-position solver on the CHA test positions\",\n";
    f << "  \"commit\": " << perftide::json::quote(command_output("git -C " PERFTIDE_SOURCE_DIR " rev-parse --short HEAD"))
      << ",\n";
    f << "  \"date\": " << perftide::json::quote(command_output("date -u +%Y-%m-%d")) << ",\n";
    f << "  \"machine\": {\"cpu\": "
      << perftide::json::quote(first_line("/proc/cpuinfo", "model name").substr(std::string("model name\t: ").size()))
      << ", \"hardware_threads\": " << std::thread::hardware_concurrency()
      << ", \"load_average_at_start\": " << perftide::json::quote(load) << "},\n";
    const std::string source = PERFTIDE_SOURCE_DIR "/";
    f << "  \"data\": " << perftide::json::quote(data.rfind(source, 0) == 0 ? data.substr(source.size()) : data) << ",\n";
    f << "  \"node_budget_per_side\": " << budget.max_nodes << ",\n";
    f << "  \"positions\": " << s.positions << ", \"refused_by_fen_parser\": " << refused << ",\n";
    f << "  \"accuracy\": " << score_json(s) << ",\n";
    f << "  \"runs\": [";
    for (size_t i = 0; i < runs.size(); ++i) f << (i ? ",\n    " : "\n    ") << runs[i].json();
    f << "\n  ],\n";
    f << "  \"open_positions\": " << open_json << ",\n";
    f << "  \"peer\": {\"name\": \"CHA-Solver (Ambrona), full search\", \"positions_per_second\": 30000, "
         "\"note\": \"published figure, not measured here: single thread on an Intel Xeon w3-2435, the timeout "
         "positions of 10 million Lichess games (mostly easy), one intended winner per position; the CHA test "
         "positions are the hard queries users submitted, and perftide answers both sides of each\"}\n}\n";
    std::cout << "positions " << s.positions << " refused " << refused << " accuracy " << score_json(s) << "\n";
    for (const Run& r : runs) std::cout << r.json() << "\n";
    return s.unsound || batch_score.unsound ? 1 : 0;
}
