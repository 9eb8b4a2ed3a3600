// An independent legal-move generator written from the FIDE Laws of Chess,
// Articles 3.1-3.9, for cross-checking the bitboard rules in common/. It
// shares no code with them: its own 10x12 mailbox board, FEN reader, attack
// test and make-move. Plain and slow on purpose: it must be obviously right.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace perftide::reference {

// The board is a 10x12 mailbox: squares a1..h8 sit at 21..98 (a1 = 21,
// h1 = 28, a2 = 31, ...), and the frame around them ('#') stops every
// step and ray that leaves the board.
struct Board {
    char sq[120];  // '#' frame, '.' empty, "PNBRQK" White, "pnbrqk" Black
    bool white_to_move = true;
    // Castling rights (Article 3.8; Chess960: rooks and king on any files):
    // castle_file[colour][side] is the file (0 = a) of the rook that keeps
    // the right, or -1; colour 0 White, 1 Black; side 0 toward the h-file
    // (the king ends on g), 1 toward the a-file (the king ends on c).
    int castle_file[2][2] = {{-1, -1}, {-1, -1}};
    bool chess960 = false;  // castling is written king takes rook (e1h1)
    int ep = 0;             // the square a pawn just passed over with a double step, or 0
    int halfmove = 0;       // plies since the last capture or pawn move
    int fullmove = 1;
};

// A move as the Laws describe it: a piece goes from one square to another,
// perhaps promoting. Squares count a1 = 0, b1 = 1, ..., h8 = 63.
struct Move {
    int from = 0, to = 0;  // for castling, the king's squares
    char promo = 0;        // 'q', 'r', 'b', 'n' for a promotion, else 0
    int rook = -1;         // for castling, the rook's square, else -1
};

struct ReferenceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads a FEN with 4 to 6 fields; throws ReferenceError naming the problem.
// Castling may be KQkq (the outermost rook on that side) or rook files
// (A-H, a-h); rights that only Chess960 allows set chess960.
// Positions where the Laws give no answer (no king, the side not to move in
// check, pawns on the back ranks, castling rights without their king and
// rook at home, an impossible e.p. square) are refused.
Board parse_fen(const std::string& fen);

// Six-field FEN. The e.p. square is written only when an e.p. capture is
// legal, so two boards print alike exactly when they are the same position
// in the sense of Article 9.2 (plus the move counters).
std::string to_fen(const Board& b);

std::vector<Move> legal_moves(const Board& b);
std::vector<std::string> legal_moves_uci(const Board& b);
bool in_check(const Board& b);

// Plays a legal move (the caller guarantees legality).
Board play(const Board& b, const Move& m);
// Plays the legal move named by UCI text; throws ReferenceError otherwise.
Board play_uci(const Board& b, const std::string& text);

// UCI text; castling as the king's move, or king takes rook when chess960.
std::string uci(const Move& m, bool chess960);
uint64_t perft(const Board& b, int depth);

// The piece letter on a square (0..63), '.' when empty.
char piece_at(const Board& b, int square);
// The e.p. square (0..63) as recorded after a double step, or -1.
int ep_square(const Board& b);

}  // namespace perftide::reference
