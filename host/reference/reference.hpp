// An independent legal-move generator written from the FIDE Laws of Chess,
// Articles 3.1-3.9, for cross-checking the bitboard rules in common/. It
// shares no code with them: its own 10x12 mailbox board, FEN reader, attack
// test and make-move. Plain and slow on purpose: it must be obviously right.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gperft::reference {

// The board is a 10x12 mailbox: squares a1..h8 sit at 21..98 (a1 = 21,
// h1 = 28, a2 = 31, ...), and the frame around them ('#') stops every
// step and ray that leaves the board.
struct Board {
    char sq[120];                 // '#' frame, '.' empty, "PNBRQK" White, "pnbrqk" Black
    bool white_to_move = true;
    bool castle_K = false, castle_Q = false;  // White may still castle king side / queen side
    bool castle_k = false, castle_q = false;  // Black likewise
    int ep = 0;                   // the square a pawn just passed over with a double step, or 0
    int halfmove = 0;             // plies since the last capture or pawn move
    int fullmove = 1;
};

// A move as the Laws describe it: a piece goes from one square to another,
// perhaps promoting. Squares count a1 = 0, b1 = 1, ..., h8 = 63.
struct Move {
    int from = 0, to = 0;
    char promo = 0;  // 'q', 'r', 'b', 'n' for a promotion, else 0
};

struct ReferenceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads a FEN with 4 to 6 fields; throws ReferenceError naming the problem.
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

std::string uci(const Move& m);
uint64_t perft(const Board& b, int depth);

// The piece letter on a square (0..63), '.' when empty.
char piece_at(const Board& b, int square);
// The e.p. square (0..63) as recorded after a double step, or -1.
int ep_square(const Board& b);

}  // namespace gperft::reference
