// A tiny UCI engine that answers `go perft N` in Stockfish's format from the
// reference generator, with one class of moves dropped at every node, so the
// tests can check that `perftide compare` pins down a planted bug:
//   broken_engine knight-promotions   no promotions to a knight
//   broken_engine ep-with-rook        no e.p. captures while a rook is on the board
//   broken_engine castle-through-rook no castling whose king passes over or lands on
//                                     its own rook's square (Chess960 only)
//   broken_engine none                no bug
// `setoption name UCI_Chess960 value true` switches castling to king takes rook.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>

#include "verify/reference.hpp"

namespace ref = perftide::reference;

namespace {

std::string bug = "none";
bool chess960 = false;

bool dropped(const ref::Board& b, const ref::Move& m) {
    if (bug == "knight-promotions") return m.promo == 'n';
    if (bug == "castle-through-rook" && m.rook >= 0) {
        const int low = std::min(m.from, m.to), high = std::max(m.from, m.to);
        return m.rook >= low && m.rook <= high;
    }
    if (bug == "ep-with-rook") {
        const char pawn = b.white_to_move ? 'P' : 'p';
        const bool ep = ref::piece_at(b, m.from) == pawn && m.from % 8 != m.to % 8 && ref::piece_at(b, m.to) == '.';
        bool rook = false;
        for (int sq = 0; sq < 64; ++sq) rook |= ref::piece_at(b, sq) == 'R' || ref::piece_at(b, sq) == 'r';
        return ep && rook;
    }
    return false;
}

std::vector<ref::Move> moves_of(const ref::Board& b) {
    std::vector<ref::Move> out;
    for (const ref::Move& m : ref::legal_moves(b))
        if (!dropped(b, m)) out.push_back(m);
    return out;
}

uint64_t broken_perft(const ref::Board& b, int depth) {
    if (depth == 0) return 1;
    uint64_t n = 0;
    for (const ref::Move& m : moves_of(b)) n += broken_perft(ref::play(b, m), depth - 1);
    return n;
}

// "position fen <6 fields> [moves ...]" or "position startpos [moves ...]".
ref::Board position(std::istringstream& in) {
    std::string word, fen;
    in >> word;
    if (word == "startpos") {
        fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        in >> word;
    } else {
        while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    }
    ref::Board b = ref::parse_fen(fen);
    b.chess960 = b.chess960 || chess960;
    while (in >> word) b = ref::play_uci(b, word);
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1) bug = argv[1];
    ref::Board board = ref::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (std::string line; std::getline(std::cin, line);) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "uci") {
            std::cout << "id name broken_engine " << bug << "\nuciok" << std::endl;
        } else if (cmd == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (cmd == "setoption") {
            std::string name_word, name, value_word, value;
            in >> name_word >> name >> value_word >> value;
            if (name == "UCI_Chess960") chess960 = value == "true";
        } else if (cmd == "position") {
            board = position(in);
        } else if (cmd == "go") {
            std::string word;
            int depth = 0;
            in >> word >> depth;
            uint64_t total = 0;
            for (const ref::Move& m : moves_of(board)) {
                const uint64_t n = broken_perft(ref::play(board, m), depth - 1);
                std::cout << ref::uci(m, board.chess960) << ": " << n << "\n";
                total += n;
            }
            std::cout << "\nNodes searched: " << total << "\n" << std::endl;
        } else if (cmd == "quit") {
            return 0;
        }
    }
}
