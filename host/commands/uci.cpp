// perftide uci: a UCI engine that answers perft, so that a script written for
// Stockfish's `go perft` runs with `perftide uci` in its place. It reads
// uci, isready, ucinewgame, setoption (Threads, Hash, UCI_Chess960,
// Backend), position startpos|fen F [moves ...], go perft N (or the bare
// `perft N`), bench, d, stop and quit. `go perft` prints Stockfish's format:
// "move: count" lines, a blank line, "Nodes searched: N" and a blank line.
//
// Input is read on a thread of its own, so that while a count runs
// `isready` is answered at once and `stop` ends the count; other commands
// wait for the count to end. As in Stockfish, which counts `go perft` before
// it reads the next line, `quit` and the end of the input let a count in
// progress finish and print, so `printf 'go perft 6\nquit\n' | perftide uci`
// prints its count. A quit behind a stop ends the process within half a
// second, even where the stopped count cannot end sooner (a device call in
// flight). Every go ends with a line a script can wait for: "Nodes
// searched: N" after `go perft` (a count that was stopped or failed says why
// in an info string first, then prints "Nodes searched: none", which no
// parser of a number takes for a count), `bestmove 0000` after any other go.
// Every error is one "info string" line, in UCI's words, and the engine
// reads on.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "base/errors.hpp"
#include "base/machine.hpp"
#include "base/run_stop.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/zobrist.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"
#include "inputs/line_reader.hpp"

namespace perftide::cli {
namespace {

// Every line written goes through one lock, so that an answer given while a
// count runs never splits the count's lines.
std::mutex output_lock;

void emit(const std::string& text) {
    std::lock_guard<std::mutex> lock(output_lock);
    std::cout << text << std::flush;
}

void info(const std::string& text) { emit("info string " + text + "\n"); }

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}


struct UciState {
    std::string fen = chess::START_FEN, moves;  // the last `position`, replayed when UCI_Chess960 changes
    chess::Position position = chess::parse_fen(chess::START_FEN);
    // Why the engine holds no position (the last `position` was refused);
    // empty while it holds one. A count then would be of a position the
    // script did not ask for.
    std::string refused;
    bool chess960 = false;
    int threads = 0;       // 0: all cores
    uint64_t hash_mb = 0;  // 0: automatic (deep runs only)
    BackendChoice backend = BackendChoice::Auto;
};

// What the input thread hands the command thread: lines in order, and, from
// the moment a go is read until its answer is written, the requests that
// cannot wait for it (as Stockfish answers them while its search runs).
class Inbox {
   public:
    // The input thread: while a go (or bench) is pending, answers isready at once and
    // turns stop into a stop request; queues every other line (quit
    // included, to be taken after the go's answer). A bare `perft N` is
    // queued as `go perft N`. True for a quit that follows a stop request.
    bool put(std::string line) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "perft") line = "go " + line, cmd = "go";
        std::lock_guard<std::mutex> lock(m_);
        const bool busy = gos_ > 0;
        if (busy && cmd == "stop") StopScope::request(), stop_requested_ = true;
        if (busy && cmd == "isready") emit("readyok\n");
        else if (!(busy && cmd == "stop")) lines_.push_back(std::move(line));
        gos_ += cmd == "go" || cmd == "bench";
        ready_.notify_all();
        return stop_requested_ && cmd == "quit";
    }
    // Whether the go that a stop was requested for was answered within
    // `wait`.
    bool stopped_within(std::chrono::milliseconds wait) {
        std::unique_lock<std::mutex> lock(m_);
        return ready_.wait_for(lock, wait, [&] { return !stop_requested_; });
    }
    // The end of the input: the queued lines are still answered, then the
    // engine ends (a count in progress is not stopped).
    void close(std::string error = "") {
        std::lock_guard<std::mutex> lock(m_);
        closed_ = true, input_error_ = std::move(error);
        ready_.notify_all();
    }
    // The command thread: the next line; false once the input ended and
    // every line was taken.
    bool take(std::string& line) {
        std::unique_lock<std::mutex> lock(m_);
        ready_.wait(lock, [&] { return closed_ || !lines_.empty(); });
        if (lines_.empty()) return false;
        line = std::move(lines_.front());
        lines_.pop_front();
        return true;
    }
    std::string input_error() {
        std::lock_guard<std::mutex> lock(m_);
        return input_error_;
    }
    // Open while the command thread answers a go: a stop request made for it
    // (even before it began) stops its count, and is cleared with it.
    class Answering {
       public:
        explicit Answering(Inbox& box) : box_(box) {
            std::lock_guard<std::mutex> lock(box_.m_);
            scope_.emplace();
        }
        ~Answering() {
            std::lock_guard<std::mutex> lock(box_.m_);
            --box_.gos_;
            box_.stop_requested_ = false;  // the request ends with the go it stopped
            scope_.reset();
            box_.ready_.notify_all();
        }

       private:
        Inbox& box_;
        std::optional<StopScope> scope_;
    };

   private:
    std::mutex m_;
    std::condition_variable ready_;
    std::deque<std::string> lines_;
    int gos_ = 0;  // go lines read and not yet answered
    bool stop_requested_ = false;  // for the go being answered (or the next)
    bool closed_ = false;
    std::string input_error_;
};

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
            if (t < 1 || t > MAX_THREADS) throw std::out_of_range("");
            st.threads = t;
        } else if (key == "hash") {
            const long long mb = std::stoll(value);
            if (mb < 0 || mb > MAX_HASH_MB) throw std::out_of_range("");
            st.hash_mb = uint64_t(mb);
        } else if (key == "uci_chess960") {
            if (lower(value) != "true" && lower(value) != "false") throw std::invalid_argument("");
            st.chess960 = lower(value) == "true";
            // The position keeps Chess960 mode only where its castling rights need it.
            if (st.refused.empty()) st.position = position_from(st.fen, st.moves, st.chess960);
        } else if (key == "backend") {
            const std::optional<BackendChoice> parsed = parse_backend(value);
            if (!parsed) throw std::invalid_argument("");
            const BackendChoice wanted = *parsed;
            if (wanted == BackendChoice::Gpu) {
                try {
                    open_backend(BackendChoice::Gpu);
                } catch (const BackendUnavailable& e) {
                    return info("setoption: " + message_in(e, Vocabulary::Uci) + "; Backend stays " +
                                to_string(st.backend));
                }
            }
            st.backend = wanted;
        } else {
            return info("setoption: no option '" + name + "'");
        }
    } catch (const std::exception&) {
        info("setoption: '" + value + "' is not a value of " + name);
    }
}

// A refused `position` leaves the engine with no position: a script whose
// position was refused must not get a count of the one before it.
void position(UciState& st, std::istringstream& in) {
    const auto refuse = [&](const std::string& why) {
        st.refused = why;
        info("position: " + why + " (no position until a good 'position')");
    };
    std::string word, fen;
    in >> word;
    if (word == "startpos") {
        fen = chess::START_FEN;
        in >> word;
    } else if (word == "fen") {
        while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    } else {
        return refuse("expected 'startpos' or 'fen'");
    }
    std::string moves;
    if (word == "moves")
        for (std::string m; in >> m;) moves += (moves.empty() ? "" : " ") + m;
    try {
        st.position = position_from(fen, moves, st.chess960);
        st.fen = fen, st.moves = moves, st.refused.clear();
    } catch (const std::exception& e) {
        refuse(e.what());
    }
}

PerftResult count(const UciState& st, int depth) {
    const std::unique_ptr<Backend> backend = open_backend(st.backend, st.threads);
    DeepOptions d;
    d.note = [](const std::string& text) { info("note: " + in_words(text, Vocabulary::Uci)); };
    if (st.hash_mb) {
        // Hash bounds what the count merges: the table, and the work units
        // (a split no deeper than they fit in); no lossless host table.
        d.hash_mb = (long long)st.hash_mb;
        d.host_hash_mb = 0;
        d.split = split_within(st.position, depth, backend->profile(), st.hash_mb);
    }
    return count_perft(*backend, st.position, depth, d);
}

// The depth of `go perft N`: a whole number in range and nothing after it
// ("1.5" is not depth 1); -1, said in an info string, otherwise.
int perft_depth(std::istringstream& in) {
    std::string text, extra;
    in >> text;
    int depth = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || depth < 0 || depth > MAX_PERFT_DEPTH) {
        info("go perft: the depth must be a number from 0 to " + std::to_string(MAX_PERFT_DEPTH) +
             (text.empty() ? "" : ", not '" + text + "'"));
        return -1;
    }
    if (in >> extra) {
        info("go perft: '" + extra + "' after the depth (go perft takes only a depth)");
        return -1;
    }
    return depth;
}

void go(const UciState& st, std::istringstream& in) {
    std::string word;
    if (!(in >> word) || word != "perft") {
        info("perftide does not search: it answers only 'go perft N'");
        return emit("bestmove 0000\n");
    }
    const int depth = perft_depth(in);
    if (depth < 0) return emit("Nodes searched: none\n\n");
    if (!st.refused.empty()) {
        info("go perft: no position (the last 'position' was refused: " + st.refused + "); send a good 'position'");
        return emit("Nodes searched: none\n\n");
    }
    std::string out;
    try {
        const PerftResult r = count(st, depth);
        // Sorted by the move's text, as perft --divide prints it, so that it
        // diffs line for line against another engine's sorted divide.
        for (const auto& [m, n] : sorted_divide(r, st.position)) out += m + ": " + chess::to_string(n) + "\n";
        out += "\nNodes searched: " + chess::to_string(r.nodes) + "\n\n";
    } catch (const Stopped&) {
        info("go perft " + std::to_string(depth) + ": stopped, no count");
        out = "Nodes searched: none\n\n";
    } catch (const std::exception& e) {
        info("go perft " + std::to_string(depth) + ": " + message_in(e, Vocabulary::Uci));
        out = "Nodes searched: none\n\n";
    }
    emit(out);
}

// The board as Stockfish's `d` draws it, then the FEN, the key (perftide's
// own 64-bit Zobrist key, not Stockfish's) and the checking men's squares.
void display(const UciState& st) {
    if (!st.refused.empty()) return info("d: no position (the last 'position' was refused: " + st.refused + ")");
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
    emit(out + "\n");
}

void identify() {
    emit("id name perftide\nid author the perftide authors\n\noption name Threads type spin default " +
         std::to_string(machine::default_threads()) + " min 1 max " + std::to_string(MAX_THREADS) + "\n"
         "option name Hash type spin default 0 min 0 max " + std::to_string(MAX_HASH_MB) + "\n"
         "option name UCI_Chess960 type check default false\n"
         "option name Backend type combo default auto var auto var cpu var gpu\n"
         "uciok\n");
}

// The start position, but a refused `position` still stands: the count a
// script asks for next must be of a position it sent.
void new_game(UciState& st) {
    st.fen = chess::START_FEN;
    st.moves.clear();
    st.position = position_from(st.fen, "", st.chess960);
}

// Stockfish's bench: the fixed workload of `perftide bench`, on the Threads
// option's threads (one where it was not set, as `perftide bench`), its line
// as `perftide bench` prints it. Answered as a go is: isready is answered
// while it runs, and a stop ends it without a line.
void bench(const UciState& st, Inbox& inbox) {
    Inbox::Answering answering(inbox);
    try {
        emit(bench_line(run_bench(st.threads ? st.threads : 1)) + "\n");
    } catch (const Stopped&) {
        info("bench: stopped, no result");
    } catch (const std::exception& e) {
        info(message_in(e, Vocabulary::Uci));
    }
}

void answer_go(const UciState& st, std::istringstream& in, Inbox& inbox) {
    Inbox::Answering answering(inbox);
    go(st, in);
}

// One command; false for quit.
bool answer(UciState& st, const std::string& line, Inbox& inbox) {
    std::istringstream in(line);
    std::string cmd;
    if (!(in >> cmd)) return true;
    if (cmd == "uci") identify();
    else if (cmd == "isready") emit("readyok\n");
    else if (cmd == "ucinewgame") new_game(st);
    else if (cmd == "setoption") setoption(st, in);
    else if (cmd == "position") position(st, in);
    else if (cmd == "go") answer_go(st, in, inbox);
    else if (cmd == "d") display(st);
    else if (cmd == "bench") bench(st, inbox);
    else if (cmd == "quit") return false;
    else if (cmd != "stop" && cmd != "ponderhit" && cmd != "debug" && cmd != "register")  // nothing to stop
        info("unknown command: '" + cmd + "'");
    return true;
}

// The input thread. A quit reaches the command thread after the lines
// before it (a count in progress finishes and prints first); a quit behind a
// stop ends the process within half a second, even where the stopped count
// cannot end sooner (a device call in flight).
void read_input(const std::shared_ptr<Inbox>& inbox) {
    LineReader reader(std::cin, "uci input");
    try {
        for (std::string line; reader.next(line);) {
            if (!inbox->put(std::move(line))) continue;
            if (!inbox->stopped_within(std::chrono::milliseconds(500))) {
                std::lock_guard<std::mutex> lock(output_lock);
                std::cout.flush();
                std::_Exit(EXIT_OK);
            }
            return;  // the command thread takes the quit
        }
        inbox->close();
    } catch (const std::exception& e) {
        inbox->close(e.what());
    }
}

int run_uci() {
    auto inbox = std::make_shared<Inbox>();
    // Detached: at quit it may be blocked in a read that never returns. It
    // owns its share of the inbox, so it outlives this function safely.
    std::thread([inbox] { read_input(inbox); }).detach();
    UciState st;
    for (std::string line; inbox->take(line);)
        if (!answer(st, line, *inbox)) return EXIT_OK;
    const std::string input_error = inbox->input_error();
    if (input_error.empty()) return EXIT_OK;
    error(input_error);
    return EXIT_BAD_INPUT;
}

}  // namespace

Command setup_uci(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "uci", "Run as a UCI engine that answers 'go perft N' as Stockfish does (and 'd', 'position', 'setoption')");
    return {sub, [] { return run_uci(); }};
}

}  // namespace perftide::cli
