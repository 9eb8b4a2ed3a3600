// The reference generator: see reference.hpp. Pseudo-legal moves are made
// on a copy of the board and kept when the mover's king is not attacked
// afterwards (Article 3.9); castling adds the checks of Article 3.8.
#include "verify/reference.hpp"

#include <algorithm>
#include <cctype>

namespace perftide::reference {
namespace {

// Directions on the 10x12 board.
constexpr int UP = 10, DOWN = -10, RIGHT = 1, LEFT = -1;
constexpr int ROOK_DIRS[4] = {UP, DOWN, RIGHT, LEFT};
constexpr int BISHOP_DIRS[4] = {UP + RIGHT, UP + LEFT, DOWN + RIGHT, DOWN + LEFT};
constexpr int KING_STEPS[8] = {UP, DOWN, RIGHT, LEFT, UP + RIGHT, UP + LEFT, DOWN + RIGHT, DOWN + LEFT};
constexpr int KNIGHT_STEPS[8] = {2 * UP + RIGHT, 2 * UP + LEFT,    2 * DOWN + RIGHT, 2 * DOWN + LEFT,
                                 2 * RIGHT + UP, 2 * RIGHT + DOWN, 2 * LEFT + UP,    2 * LEFT + DOWN};

constexpr char EMPTY = '.';  // the frame is '#', which stops every ray

// The first and last squares of the 10x12 board.
constexpr int A1 = 21, H8 = 98;

int mailbox(int file, int rank) { return 21 + file + 10 * rank; }
int file_of(int sq) { return sq % 10 - 1; }
int rank_of(int sq) { return sq / 10 - 2; }
int to64(int sq) { return rank_of(sq) * 8 + file_of(sq); }
int from64(int sq) { return mailbox(sq % 8, sq / 8); }

bool is_white(char c) { return c >= 'A' && c <= 'Z'; }
bool is_black(char c) { return c >= 'a' && c <= 'z'; }
bool belongs_to(char c, bool white) { return white ? is_white(c) : is_black(c); }
char kind(char c) { return char(std::toupper(static_cast<unsigned char>(c))); }
char piece(char kind_letter, bool white) {
    return white ? kind_letter : char(std::tolower(static_cast<unsigned char>(kind_letter)));
}

// Whether a piece of the given side attacks sq (Articles 3.2-3.6 and the
// pawn's capture of 3.7c): the piece could capture on sq if an enemy stood
// there, whether or not its own king would be safe afterwards (Article 3.9
// counts such attacks too).
bool attacked(const Board& b, int sq, bool by_white) {
    const int pawn_from = by_white ? DOWN : UP;  // an attacking pawn stands one rank behind sq
    if (b.sq[sq + pawn_from + LEFT] == piece('P', by_white)) return true;
    if (b.sq[sq + pawn_from + RIGHT] == piece('P', by_white)) return true;
    for (int step : KNIGHT_STEPS)
        if (b.sq[sq + step] == piece('N', by_white)) return true;
    for (int step : KING_STEPS)
        if (b.sq[sq + step] == piece('K', by_white)) return true;
    const auto slider_on_ray = [&](const int(&dirs)[4], char slider) {
        for (int d : dirs) {
            int s = sq + d;
            while (b.sq[s] == EMPTY) s += d;
            if (b.sq[s] == piece(slider, by_white) || b.sq[s] == piece('Q', by_white)) return true;
        }
        return false;
    };
    return slider_on_ray(ROOK_DIRS, 'R') || slider_on_ray(BISHOP_DIRS, 'B');
}

int king_square(const Board& b, bool white) {
    for (int sq = A1; sq <= H8; ++sq)
        if (b.sq[sq] == piece('K', white)) return sq;
    throw ReferenceError(std::string(white ? "White" : "Black") + " has no king");
}

struct RawMove {  // squares on the 10x12 board
    int from, to;
    char promo;
    int rook = 0;  // castling: the rook's square
};

void add_pawn_move(std::vector<RawMove>& out, int from, int to, bool white) {
    const int last_rank = white ? 7 : 0;
    if (rank_of(to) == last_rank) {
        for (char p : {'q', 'r', 'b', 'n'}) out.push_back({from, to, p});  // Article 3.7e
    } else {
        out.push_back({from, to, 0});
    }
}

// Article 3.7: forward one square to an empty square; two from the start
// rank when both are empty; diagonally forward onto an enemy piece, or onto
// the square an enemy pawn just passed over (en passant, 3.7d).
void pawn_moves(const Board& b, int from, bool white, std::vector<RawMove>& out) {
    const int fwd = white ? UP : DOWN;
    const int start_rank = white ? 1 : 6;
    if (b.sq[from + fwd] == EMPTY) {
        add_pawn_move(out, from, from + fwd, white);
        if (rank_of(from) == start_rank && b.sq[from + 2 * fwd] == EMPTY) out.push_back({from, from + 2 * fwd, 0});
    }
    for (int side : {LEFT, RIGHT}) {
        const int to = from + fwd + side;
        if (belongs_to(b.sq[to], !white)) add_pawn_move(out, from, to, white);
        if (b.ep != 0 && to == b.ep) out.push_back({from, to, 0});
    }
}

void step_moves(const Board& b, int from, bool white, const int (&steps)[8], std::vector<RawMove>& out) {
    for (int step : steps) {
        const char target = b.sq[from + step];
        if (target == EMPTY || belongs_to(target, !white)) out.push_back({from, from + step, 0});
    }
}

void ray_moves(const Board& b, int from, bool white, const int (&dirs)[4], std::vector<RawMove>& out) {
    for (int d : dirs) {
        int to = from + d;
        while (b.sq[to] == EMPTY) out.push_back({from, to, 0}), to += d;
        if (belongs_to(b.sq[to], !white)) out.push_back({from, to, 0});
    }
}

// The squares from a to b on one rank, both included.
std::vector<int> span(int a, int b) {
    std::vector<int> out;
    for (int sq = std::min(a, b); sq <= std::max(a, b); ++sq) out.push_back(sq);
    return out;
}

// Article 3.8 with the Chess960 guidelines: king and rook, neither of which
// has moved, end on g and f (toward h) or c and d (toward a); every square
// either of them passes over or lands on is empty but for the two of them;
// the king is not in check and passes over and lands on no attacked square.
// (legal_raw then refuses a king left in check, as for any move.)
void castling_moves(const Board& b, bool white, std::vector<RawMove>& out) {
    const int colour = white ? 0 : 1, rank = white ? 0 : 7;
    const int king = king_square(b, white);
    if (rank_of(king) != rank || attacked(b, king, !white)) return;
    for (int side = 0; side < 2; ++side) {
        const int file = b.castle_file[colour][side];
        if (file < 0) continue;
        const int rook = mailbox(file, rank);
        const int king_to = mailbox(side == 0 ? 6 : 2, rank), rook_to = mailbox(side == 0 ? 5 : 3, rank);
        if (b.sq[rook] != piece('R', white)) continue;
        bool ok = true;
        for (const auto& path : {span(king, king_to), span(rook, rook_to)})
            for (int sq : path) ok &= sq == king || sq == rook || b.sq[sq] == EMPTY;
        for (int sq : span(king, king_to)) ok &= !attacked(b, sq, !white);
        if (ok) out.push_back({king, king_to, 0, rook});
    }
}

std::vector<RawMove> pseudo_legal_moves(const Board& b) {
    std::vector<RawMove> out;
    out.reserve(64);
    const bool white = b.white_to_move;
    for (int sq = A1; sq <= H8; ++sq) {
        const char c = b.sq[sq];
        if (!belongs_to(c, white)) continue;
        switch (kind(c)) {
            case 'P':
                pawn_moves(b, sq, white, out);
                break;
            case 'N':
                step_moves(b, sq, white, KNIGHT_STEPS, out);
                break;
            case 'B':
                ray_moves(b, sq, white, BISHOP_DIRS, out);
                break;
            case 'R':
                ray_moves(b, sq, white, ROOK_DIRS, out);
                break;
            case 'Q':
                ray_moves(b, sq, white, BISHOP_DIRS, out);
                ray_moves(b, sq, white, ROOK_DIRS, out);
                break;
            case 'K':
                step_moves(b, sq, white, KING_STEPS, out);
                break;
        }
    }
    castling_moves(b, white, out);
    return out;
}

Board play_raw(const Board& b, const RawMove& m) {
    Board n = b;
    const char moving = b.sq[m.from];
    const bool white = b.white_to_move;
    const int colour = white ? 0 : 1;
    if (m.rook) {  // castling: both leave their squares, then land
        n.sq[m.from] = EMPTY;
        n.sq[m.rook] = EMPTY;
        n.sq[m.to] = moving;
        n.sq[m.to + (file_of(m.to) == 6 ? LEFT : RIGHT)] = piece('R', white);  // f or d
        n.castle_file[colour][0] = n.castle_file[colour][1] = -1;
        n.ep = 0;
        n.halfmove = b.halfmove + 1;
        if (!white) ++n.fullmove;
        n.white_to_move = !white;
        return n;
    }
    const bool capture = b.sq[m.to] != EMPTY;
    n.sq[m.from] = EMPTY;
    n.sq[m.to] = m.promo ? piece(kind(m.promo), white) : moving;
    if (kind(moving) == 'P' && file_of(m.from) != file_of(m.to) && !capture)
        n.sq[m.to + (white ? DOWN : UP)] = EMPTY;  // en passant: the passed pawn is removed
    n.ep = (kind(moving) == 'P' && (m.to - m.from == 2 * UP || m.to - m.from == 2 * DOWN)) ? (m.from + m.to) / 2 : 0;
    // A right is gone once the king or that rook has left its square, or
    // something has arrived there (the rook was captured).
    if (kind(moving) == 'K') n.castle_file[colour][0] = n.castle_file[colour][1] = -1;
    for (int c = 0; c < 2; ++c)
        for (int side = 0; side < 2; ++side) {
            const int file = n.castle_file[c][side];
            const int rook = file < 0 ? -1 : mailbox(file, c == 0 ? 0 : 7);
            if (m.from == rook || m.to == rook) n.castle_file[c][side] = -1;
        }
    n.halfmove = (kind(moving) == 'P' || capture) ? 0 : b.halfmove + 1;
    if (!white) ++n.fullmove;
    n.white_to_move = !white;
    return n;
}

std::vector<RawMove> legal_raw(const Board& b) {
    std::vector<RawMove> legal;
    legal.reserve(64);
    for (const RawMove& m : pseudo_legal_moves(b)) {
        const Board after = play_raw(b, m);
        if (!attacked(after, king_square(after, b.white_to_move), !b.white_to_move)) legal.push_back(m);
    }
    return legal;
}

std::string square_text(int sq) { return {char('a' + file_of(sq)), char('1' + rank_of(sq))}; }

}  // namespace

std::vector<Move> legal_moves(const Board& b) {
    std::vector<Move> out;
    for (const RawMove& m : legal_raw(b))
        out.push_back({to64(m.from), to64(m.to), m.promo, m.rook ? to64(m.rook) : -1});
    return out;
}

std::vector<std::string> legal_moves_uci(const Board& b) {
    std::vector<std::string> out;
    for (const Move& m : legal_moves(b)) out.push_back(uci(m, b.chess960));
    return out;
}

bool in_check(const Board& b) { return attacked(b, king_square(b, b.white_to_move), !b.white_to_move); }

Board play(const Board& b, const Move& m) {
    return play_raw(b, {from64(m.from), from64(m.to), m.promo, m.rook < 0 ? 0 : from64(m.rook)});
}

Board play_uci(const Board& b, const std::string& text) {
    for (const Move& m : legal_moves(b))
        if (uci(m, b.chess960) == text) return play(b, m);
    for (const Move& m : legal_moves(b))  // castling written the other mode's way
        if (m.rook >= 0 && uci(m, !b.chess960) == text) return play(b, m);
    throw ReferenceError("move '" + text + "' is not legal in " + to_fen(b));
}

std::string uci(const Move& m, bool chess960) {
    std::string s = square_text(from64(m.from)) + square_text(from64(chess960 && m.rook >= 0 ? m.rook : m.to));
    if (m.promo) s += m.promo;
    return s;
}

uint64_t perft(const Board& b, int depth) {
    if (depth <= 0) return 1;
    uint64_t nodes = 0;
    for (const RawMove& m : legal_raw(b)) nodes += perft(play_raw(b, m), depth - 1);
    return nodes;
}

char piece_at(const Board& b, int square) { return b.sq[from64(square)]; }

int ep_square(const Board& b) { return b.ep ? to64(b.ep) : -1; }

std::string to_fen(const Board& b) {
    std::string s;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const char c = b.sq[mailbox(file, rank)];
            if (c == EMPTY) {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty), empty = 0;
            s += c;
        }
        if (empty) s += char('0' + empty);
        if (rank) s += '/';
    }
    s += b.white_to_move ? " w " : " b ";
    // KQkq when every right is standard chess's (king on e, rook in the
    // corner), else Shredder-FEN's rook files.
    bool standard = true;
    for (int c = 0; c < 2; ++c)
        for (int side = 0; side < 2; ++side) {
            const int file = b.castle_file[c][side];
            if (file >= 0 && (file != (side == 0 ? 7 : 0) || b.sq[mailbox(4, c == 0 ? 0 : 7)] != piece('K', c == 0)))
                standard = false;
        }
    std::string rights;
    for (int c = 0; c < 2; ++c)
        for (int side = 0; side < 2; ++side) {
            const int file = b.castle_file[c][side];
            if (file < 0) continue;
            const char letter = standard ? (side == 0 ? 'K' : 'Q') : char('A' + file);
            rights += c == 0 ? letter : char(std::tolower(static_cast<unsigned char>(letter)));
        }
    s += rights.empty() ? "-" : rights;
    bool ep_legal = false;
    for (const RawMove& m : legal_raw(b)) ep_legal |= b.ep != 0 && m.to == b.ep && kind(b.sq[m.from]) == 'P';
    s += ' ' + (ep_legal ? square_text(b.ep) : std::string("-"));
    s += ' ' + std::to_string(b.halfmove) + ' ' + std::to_string(b.fullmove);
    return s;
}

}  // namespace perftide::reference
