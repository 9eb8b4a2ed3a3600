#include "chess/io/san.hpp"

#include "chess/io/fen.hpp"
#include "chess/terminal.hpp"

namespace chess {
namespace {

constexpr std::string_view PIECE_LETTERS = " PNBRQK";

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

[[noreturn]] void refuse(std::string_view text, const std::string& why) {
    throw std::invalid_argument("move '" + std::string(text) + "' " + why);
}

// What a SAN text asks for: a castling side, or a piece moving to a square
// from a file and/or rank, with a promotion piece.
struct SanParts {
    int castle = 0;  // KING_CASTLE or QUEEN_CASTLE; 0: not castling
    PieceType piece = PAWN, promotion = NO_PIECE_TYPE;
    int to = -1, from_file = -1, from_rank = -1;
};

std::string_view without_suffixes(std::string_view t) {
    if (t.ends_with("e.p.")) t.remove_suffix(4);
    while (!t.empty() && std::string_view("+#!? ").find(t.back()) != std::string_view::npos) t.remove_suffix(1);
    return t;
}

SanParts split_san(std::string_view text) {
    std::string_view t = without_suffixes(text);
    SanParts s;
    if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
        s.castle = t.size() == 3 ? KING_CASTLE : QUEEN_CASTLE;
        return s;
    }
    if (t.empty()) refuse(text, "is empty");
    if (const size_t k = PIECE_LETTERS.find(t[0]); k != std::string_view::npos && k >= 2) {
        s.piece = PieceType(k);
        t.remove_prefix(1);
    }
    // A promotion: "=Q", or the letter right after the last rank.
    if (t.size() >= 3 && PIECE_LETTERS.find(t.back()) != std::string_view::npos && t.back() != 'K' &&
        t.back() != 'P' && t.back() != ' ') {
        s.promotion = PieceType(PIECE_LETTERS.find(t.back()));
        t.remove_suffix(1);
        if (t.ends_with('=')) t.remove_suffix(1);
    }
    if (t.size() < 2 || !is_file(t[t.size() - 2]) || !is_rank(t.back())) refuse(text, "has no destination square");
    s.to = (t.back() - '1') * 8 + (t[t.size() - 2] - 'a');
    t.remove_suffix(2);
    if (t.ends_with('x') || t.ends_with(':') || t.ends_with('-')) t.remove_suffix(1);
    for (char c : t) {
        if (is_file(c) && s.from_file < 0) s.from_file = c - 'a';
        else if (is_rank(c) && s.from_rank < 0) s.from_rank = c - '1';
        else refuse(text, "is not SAN (like e4, Nf3, exd5, O-O or e8=Q)");
    }
    if (s.promotion != NO_PIECE_TYPE && s.piece != PAWN) refuse(text, "promotes a piece that is not a pawn");
    return s;
}

bool matches(const Position& p, Move m, const SanParts& s) {
    if (s.castle) return m.is_castle() && m.flag() == s.castle;
    if (m.is_castle() || m.to() != s.to || p.type_on(m.from()) != s.piece) return false;
    if (s.from_file >= 0 && m.from() % 8 != s.from_file) return false;
    if (s.from_rank >= 0 && m.from() / 8 != s.from_rank) return false;
    // A pawn named by its destination alone moves straight ahead.
    if (s.piece == PAWN && s.from_file < 0 && m.from() % 8 != s.to % 8) return false;
    return m.is_promotion() ? m.promotion() == s.promotion : s.promotion == NO_PIECE_TYPE;
}

}  // namespace

Move parse_san(const Position& p, std::string_view text, const Attacks& at) {
    const SanParts s = split_san(text);
    MoveList list;
    generate_moves(p, at, list);
    Move found{};
    int n = 0;
    for (Move m : list)
        if (matches(p, m, s)) found = m, ++n;
    if (n == 1) return found;
    if (n == 0) refuse(text, "is not legal in " + to_fen(p));
    refuse(text, "is ambiguous in " + to_fen(p));
}

std::string move_to_san(const Position& p, Move m, const Attacks& at) {
    std::string s;
    if (m.is_castle()) {
        s = m.flag() == KING_CASTLE ? "O-O" : "O-O-O";
    } else {
        const PieceType piece = p.type_on(m.from());
        const std::string to = square_name(m.to());
        if (piece == PAWN) {
            if (m.is_capture()) s += char('a' + m.from() % 8), s += 'x';
            s += to;
            if (m.is_promotion()) s += '=', s += PIECE_LETTERS[m.promotion()];
        } else {
            s += PIECE_LETTERS[piece];
            // Disambiguation: the file if it tells the movers apart, else the
            // rank, else both.
            MoveList list;
            generate_moves(p, at, list);
            bool other = false, same_file = false, same_rank = false;
            for (Move o : list) {
                if (o == m || o.is_castle() || o.to() != m.to() || p.type_on(o.from()) != piece) continue;
                other = true;
                same_file |= o.from() % 8 == m.from() % 8;
                same_rank |= o.from() / 8 == m.from() / 8;
            }
            const std::string from = square_name(m.from());
            if (other) s += !same_file ? from.substr(0, 1) : !same_rank ? from.substr(1, 1) : from;
            if (m.is_capture()) s += 'x';
            s += to;
        }
    }
    const Position next = apply_move(p, m);
    if (in_check(next, at)) s += has_legal_move(next, at) ? '+' : '#';
    return s;
}

}  // namespace chess
