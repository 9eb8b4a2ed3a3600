// gperft uci: a UCI engine that answers perft, so that a script written for
// Stockfish's `go perft` runs with `gperft uci` in its place. It reads
// uci, isready, ucinewgame, setoption (Threads, Hash, UCI_Chess960,
// Backend), position startpos|fen F [moves ...], go perft N, d and quit.
// `go perft` prints Stockfish's format: "move: count" lines, a blank line,
// "Nodes searched: N" and a blank line. Anything else gets one
// "info string" line saying why, and the engine reads on.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <thread>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/zobrist.hpp"
#include "cli.hpp"
#include "deep/deep_perft.hpp"
#include "line_reader.hpp"

namespace gperft::cli {
namespace {

struct UciState {
    chess::Position position = chess::parse_fen(chess::START_FEN);
    bool chess960 = false;
    int threads = 0;     // 0: all cores
    uint64_t hash_mb = 0;  // 0: automatic (deep runs only)
    Backend backend = Backend::Auto;
};

void info(const std::string& text) { std::cout << "info string " << text << std::endl; }

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

void setoption(UciState& st, std::istringstream& in) {
    // setoption name <id...> [value <x...>]; names are case-insensitive
    std::string word, name, value;
    in >> word;
    if (word != "name") return info("setoption: expected 'name'");
    bool in_value = false;
    while (in >> word) {
        if (!in_value && word == "value") {
            in_value = true;
            continue;
        }
        std::string& part = in_value ? value : name;
        part += (part.empty() ? "" : " ") + word;
    }
    const std::string key = lower(name);
    try {
        if (key == "threads") {
            const int t = std::stoi(value);
            if (t < 1 || t > 1024) throw std::out_of_range("");
            st.threads = t;
        } else if (key == "hash") {
            const long long mb = std::stoll(value);
            if (mb < 0 || mb > (1LL << 22)) throw std::out_of_range("");
            st.hash_mb = uint64_t(mb);
        } else if (key == "uci_chess960") {
            if (lower(value) != "true" && lower(value) != "false") throw std::invalid_argument("");
            st.chess960 = lower(value) == "true";
            st.position.chess960 = st.chess960 || st.position.chess960;
        } else if (key == "backend") {
            const std::string b = lower(value);
            if (b == "cpu") st.backend = Backend::Cpu;
            else if (b == "gpu") st.backend = Backend::Gpu;
            else if (b == "auto") st.backend = Backend::Auto;
            else throw std::invalid_argument("");
        } else {
            return info("setoption: no option '" + name + "'");
        }
    } catch (const std::exception&) {
        info("setoption: '" + value + "' is not a value of " + name);
    }
}

void position(UciState& st, std::istringstream& in) {
    std::string word, fen;
    in >> word;
    if (word == "startpos") {
        fen = chess::START_FEN;
        in >> word;
    } else if (word == "fen") {
        while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    } else {
        return info("position: expected 'startpos' or 'fen'");
    }
    std::string moves;
    if (word == "moves")
        for (std::string m; in >> m;) moves += (moves.empty() ? "" : " ") + m;
    try {
        st.position = position_from(fen, moves, st.chess960);
    } catch (const std::exception& e) {
        info(std::string("position: ") + e.what() + " (the position is unchanged)");
    }
}

void go(const UciState& st, std::istringstream& in) {
    std::string word;
    int depth = -1;
    if (!(in >> word) || word != "perft" || !(in >> depth) || depth < 0 || depth > 30)
        return info("gperft answers only 'go perft N' (N from 0 to 30)");
    const Backend backend = resolve_backend(st.backend);
    PerftResult r;
    if (depth >= deep_threshold(backend)) {
        DeepOptions d;
        d.backend = backend;
        d.threads = st.threads;
        if (st.hash_mb) d.hash_mb = (long long)st.hash_mb;
        r = run_deep_perft(st.position, depth, d).perft;
    } else {
        r = run_perft(st.position, depth, backend, st.threads);
    }
    std::string out;
    for (const auto& [m, n] : r.divide) out += chess::move_to_uci(m, st.position.chess960) + ": " + chess::to_string(n) + "\n";
    std::cout << out << "\nNodes searched: " << chess::to_string(r.nodes) << "\n" << std::endl;
}

// The board as Stockfish's `d` draws it, then the FEN, the key (gperft's
// own 64-bit Zobrist key, not Stockfish's) and the checking men's squares.
void display(const UciState& st) {
    const chess::Position& p = st.position;
    const char* names = " PNBRQK  pnbrqk";
    std::string out = "\n +---+---+---+---+---+---+---+---+\n";
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) out += std::string(" | ") + names[p.piece_on(rank * 8 + file)];
        out += " | " + std::to_string(rank + 1) + "\n +---+---+---+---+---+---+---+---+\n";
    }
    out += "   a   b   c   d   e   f   g   h\n\nFen: " + chess::to_fen(p) + "\n";
    char key[24];
    std::snprintf(key, sizeof key, "%016llX", static_cast<unsigned long long>(chess::host_zobrist().key(p).hi));
    out += std::string("Key: ") + key + "\nCheckers: ";
    for (chess::Bitboard c = chess::checkers(p, chess::host_attacks()); c;) {
        const int sq = chess::pop_lsb(c);
        out += std::string(1, char('a' + sq % 8)) + char('1' + sq / 8) + " ";
    }
    std::cout << out << std::endl;
}

int run_uci() {
    UciState st;
    std::string line;
    for (size_t n = 1; read_bounded_line(std::cin, line, n, "uci input"); ++n) {
        std::istringstream in(line);
        std::string cmd;
        if (!(in >> cmd)) continue;
        try {
            if (cmd == "uci") {
                std::cout << "id name gperft\nid author the gperft authors\n\n"
                             "option name Threads type spin default "
                          << std::max(1u, std::thread::hardware_concurrency())
                          << " min 1 max 1024\n"
                             "option name Hash type spin default 0 min 0 max 4194304\n"
                             "option name UCI_Chess960 type check default false\n"
                             "option name Backend type combo default auto var auto var cpu var gpu\n"
                             "uciok"
                          << std::endl;
            } else if (cmd == "isready") {
                std::cout << "readyok" << std::endl;
            } else if (cmd == "ucinewgame") {
                st.position = position_from(chess::START_FEN, "", st.chess960);
            } else if (cmd == "setoption") {
                setoption(st, in);
            } else if (cmd == "position") {
                position(st, in);
            } else if (cmd == "go") {
                go(st, in);
            } else if (cmd == "d") {
                display(st);
            } else if (cmd == "quit") {
                break;
            } else if (cmd == "stop" || cmd == "ponderhit" || cmd == "debug" || cmd == "register") {
                // nothing runs in the background: nothing to do
            } else {
                info("unknown command: '" + cmd + "'");
            }
        } catch (const BackendUnavailable& e) {
            info(e.what());
        }
    }
    return EXIT_OK;
}

}  // namespace

Command setup_uci(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "uci", "Run as a UCI engine that answers 'go perft N' as Stockfish does (and 'd', 'position', 'setoption')");
    return {sub, [] { return run_uci(); }};
}

}  // namespace gperft::cli
