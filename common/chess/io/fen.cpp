// FEN and UCI text: see fen.hpp.
#include "chess/io/fen.hpp"

#include <charconv>
#include <string>

namespace chess {
namespace {

const char* const COLOR_NAME[2] = {"White", "Black"};

std::vector<std::string_view> split_fields(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string quoted(std::string_view s) {
    std::string out(1, '\'');  // built by appending: g++ 12 warns falsely on "'" + string
    out.append(s);
    return out += '\'';
}

// Field 1. Fills the board as written and returns the number of kings of
// each colour through `kings`.
void parse_placement(std::string_view field, Position& p, Piece board[64], int kings[2]) {
    static constexpr std::string_view LETTERS = "pnbrqk";
    int rank = 7, file = 0, ranks_seen = 1;
    char previous = 0;
    for (char ch : field) {
        const bool digit_after_digit = ch >= '0' && ch <= '9' && previous >= '0' && previous <= '9';
        previous = ch;
        if (digit_after_digit)
            throw FenError("FEN piece placement: rank " + std::to_string(rank + 1) +
                           " has two digits in a row (one run of empty squares is one digit)");
        if (ch == '/') {
            if (file != 8)
                throw FenError("FEN piece placement: rank " + std::to_string(rank + 1) + " has " +
                               std::to_string(file) + " squares, expected 8");
            if (++ranks_seen > 8) throw FenError("FEN piece placement: more than 8 ranks");
            --rank;
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8)
                throw FenError("FEN piece placement: rank " + std::to_string(rank + 1) + " has more than 8 squares");
        } else if (ch == '0' || ch == '9') {
            throw FenError("FEN piece placement: digit " + quoted(std::string_view(&ch, 1)) +
                           " (runs of empty squares are 1 to 8)");
        } else {
            const char lower = char(ch | 0x20);
            const size_t idx = LETTERS.find(lower);
            if (idx == std::string_view::npos || !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
                throw FenError("FEN piece placement: unknown piece letter " + quoted(std::string_view(&ch, 1)));
            if (file >= 8)
                throw FenError("FEN piece placement: rank " + std::to_string(rank + 1) + " has more than 8 squares");
            const Color c = ch == lower ? BLACK : WHITE;
            const PieceType t = PieceType(PAWN + idx);
            if (t == KING) ++kings[c];
            put_piece(p, make_square(file, rank), c, t);
            board[make_square(file, rank)] = make_piece(c, t);
            ++file;
        }
    }
    if (ranks_seen != 8)
        throw FenError("FEN piece placement: " + std::to_string(ranks_seen) + " ranks, expected 8");
    if (file != 8)
        throw FenError("FEN piece placement: rank 1 has " + std::to_string(file) + " squares, expected 8");
}

// One letter of the castling field, read for syntax: the side of a right
// (K/Q, as X-FEN writes the outermost rook) or the rook's file (Shredder-FEN
// A-H, also X-FEN's way of naming an inner rook).
struct CastlingToken {
    char letter;
    Color c;
    int file;  // 0-7, or -1 for the outermost rook on the king's side, -2 on the queen's
};

std::vector<CastlingToken> parse_castling(std::string_view field) {
    std::vector<CastlingToken> tokens;
    if (field == "-") return tokens;
    for (char ch : field) {
        CastlingToken t{ch, (ch >= 'a' && ch <= 'z') ? BLACK : WHITE, 0};
        const char upper = char(ch & ~0x20);
        if (upper == 'K')
            t.file = -1;
        else if (upper == 'Q')
            t.file = -2;
        else if (upper >= 'A' && upper <= 'H' && ((ch >= 'a' && ch <= 'h') || (ch >= 'A' && ch <= 'H')))
            t.file = upper - 'A';
        else
            throw FenError("FEN castling: unexpected character " + quoted(std::string_view(&ch, 1)) + " in " +
                           quoted(field) + " (expected '-', KQkq or rook files A-H/a-h)");
        for (const CastlingToken& seen : tokens)
            if (seen.letter == ch)
                throw FenError("FEN castling: " + quoted(field) + " repeats " + quoted(std::string_view(&ch, 1)));
        tokens.push_back(t);
    }
    return tokens;
}

unsigned parse_counter(std::string_view field, const char* name, unsigned max) {
    unsigned v = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && ptr == field.data() + field.size() && v > max))
        throw FenError(std::string("FEN ") + name + ": " + quoted(field) + " is larger than " + std::to_string(max));
    if (ec != std::errc() || ptr != field.data() + field.size())
        throw FenError(std::string("FEN ") + name + ": " + quoted(field) + " is not a non-negative integer");
    return v;
}

}  // namespace

std::string square_name(int sq) {
    if (sq < 0 || sq > 63) return "-";
    return std::string{char('a' + file_of(sq)), char('1' + rank_of(sq))};
}

namespace {

// The file of colour c's king on its first rank, or -1 (the last one found
// when a malformed board has several: the king count refuses those).
int back_rank_king_file(const Piece board[64], Color c) {
    const int rank = c == WHITE ? 0 : 7;
    int king = -1;
    for (int f = 0; f < 8; ++f)
        if (board[make_square(f, rank)] == make_piece(c, KING)) king = f;
    return king;
}

// Problems readable from the board alone (more than 16 pieces a side, pawns
// on the back ranks, castling rooks), plus the side not to move being in check when `checkable` (a
// position with one king each) is given; in generation_problems' order.
std::vector<std::string> board_problems(const Piece board[64], Bitboard castle_rooks, const Position* checkable,
                                        const Attacks& at) {
    std::vector<std::string> problems;
    for (Color c : {WHITE, BLACK}) {
        int pieces = 0;
        for (int sq = 0; sq < 64; ++sq) pieces += board[sq] != NO_PIECE && color_of(board[sq]) == c;
        if (pieces > MAX_PIECES_PER_SIDE)
            problems.push_back(std::string(COLOR_NAME[c]) + " has " + std::to_string(pieces) + " pieces, more than the " +
                               std::to_string(MAX_PIECES_PER_SIDE) + " a side starts with");
    }
    for (Color c : {WHITE, BLACK}) {
        for (int sq = 0; sq < 64; ++sq) {
            if (board[sq] == make_piece(c, PAWN) && (rank_of(sq) == 0 || rank_of(sq) == 7)) {
                problems.push_back(std::string(COLOR_NAME[c]) + " has a pawn on rank 1 or 8");
                break;
            }
        }
    }
    if (checkable) {
        const Position& q = *checkable;
        if (attackers_to(q, at, q.king[~q.stm], q.occupied(), q.stm))
            problems.push_back(std::string(COLOR_NAME[~q.stm]) + " (not to move) is in check");
    }
    // Castling rooks (read_fen sets them only as it resolves the field, so
    // these fire for positions built otherwise).
    for (Color c : {WHITE, BLACK}) {
        const int rank = c == WHITE ? 0 : 7;
        const int king = back_rank_king_file(board, c);
        int sides[2] = {0, 0};
        for (Bitboard b = castle_rooks & (c == WHITE ? RANK_1 : RANK_8); b;) {
            const int sq = pop_lsb(b);
            if (board[sq] != make_piece(c, ROOK))
                problems.push_back("castling right with the rook on " + square_name(sq) + " but no " + COLOR_NAME[c] +
                                   " rook there");
            else if (king < 0 || king == file_of(sq))
                problems.push_back("castling right with the rook on " + square_name(sq) + " but the " + COLOR_NAME[c] +
                                   " king is not on rank " + std::to_string(rank + 1));
            else if (++sides[file_of(sq) > king] == 2)
                problems.push_back(std::string(COLOR_NAME[c]) + " has two castling rights on the " +
                                   (file_of(sq) > king ? "king's" : "queen's") + " side");
        }
    }
    if (castle_rooks & ~(RANK_1 | RANK_8))
        problems.push_back("castling right with the rook on " + square_name(lsb(castle_rooks & ~(RANK_1 | RANK_8))) +
                           ", which is not on a back rank");
    return problems;
}

// The castling rooks the field names (see CastlingToken), or a refusal for
// the first letter the board contradicts. `standard` is cleared when a
// right needs Chess960's rule: a king off the e-file or a rook off its corner.
std::string resolve_castling(const Piece board[64], const std::vector<CastlingToken>& tokens, std::string_view field,
                             Bitboard& castle_rooks, bool& standard) {
    castle_rooks = 0;
    standard = true;
    for (const CastlingToken& t : tokens) {
        const std::string right = std::string("castling right '") + t.letter + "'";
        const int rank = t.c == WHITE ? 0 : 7;
        const Piece rook = make_piece(t.c, ROOK);
        const int king = back_rank_king_file(board, t.c);
        if (king < 0)
            return right + " but the " + COLOR_NAME[t.c] + " king is not on rank " + std::to_string(rank + 1);
        int file = t.file;
        if (file == -1) {  // the outermost rook beyond the king toward the h-file
            for (int f = 7; f > king && file < 0; --f)
                if (board[make_square(f, rank)] == rook) file = f;
        } else if (file == -2) {  // toward the a-file
            for (int f = 0; f < king && file < 0; ++f)
                if (board[make_square(f, rank)] == rook) file = f;
        }
        if (file < 0)
            return right + " but no " + COLOR_NAME[t.c] + " rook on rank " + std::to_string(rank + 1) +
                   " between the king and the " + (t.file == -1 ? "h" : "a") + "-file";
        if (file == king) return right + " names the file of the " + std::string(COLOR_NAME[t.c]) + " king";
        const int sq = make_square(file, rank);
        if (board[sq] != rook) return right + " but no " + std::string(COLOR_NAME[t.c]) + " rook on " + square_name(sq);
        for (Bitboard b = castle_rooks & (t.c == WHITE ? RANK_1 : RANK_8); b;) {
            const int other = file_of(pop_lsb(b));
            if ((other > king) == (file > king))
                return "castling field " + quoted(field) + " gives " + COLOR_NAME[t.c] + " two rights on the " +
                       (file > king ? "king's" : "queen's") + " side";
        }
        castle_rooks |= square_bb(sq);
        if (king != 4 || (file != 0 && file != 7)) standard = false;
    }
    return "";
}

// Checks the given en-passant square: right rank, empty, the double-pushed
// pawn in front of it and its origin square empty. Returns the first
// failure's message, or "" when the square is consistent with the board.
std::string ep_problem(const Position& p, int ep, std::string_view field) {
    const Color us = p.stm, them = ~us;
    const int expected_rank = us == WHITE ? 5 : 2;
    if (rank_of(ep) != expected_rank)
        return "FEN en passant: " + quoted(field) + " is not on rank " + std::to_string(expected_rank + 1) + " (" +
               COLOR_NAME[us] + " to move)";
    const int pushed = us == WHITE ? ep - 8 : ep + 8;
    const int origin = us == WHITE ? ep + 8 : ep - 8;
    if (!(p.pawns & p.color[them] & square_bb(pushed)))
        return "FEN en passant: " + quoted(field) + " has no " + COLOR_NAME[them] + " pawn on " + square_name(pushed) +
               " that could just have double-pushed";
    if (p.occupied() & (square_bb(ep) | square_bb(origin)))
        return "FEN en passant: " + quoted(field) + " needs " + square_name(ep) + " and " + square_name(origin) +
               " empty";
    return "";
}

}  // namespace

void board_of(const Position& p, Piece board[64]) {
    for (int sq = 0; sq < 64; ++sq) board[sq] = p.piece_on(sq);
}

FenReading read_fen(std::string_view fen, const Attacks& at) {
    const auto fields = split_fields(fen);
    if (fields.empty()) throw FenError("FEN: empty");
    if (fields.size() < 4)
        throw FenError("FEN: " + std::to_string(fields.size()) +
                       " fields, expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])");
    if (fields.size() > 6) throw FenError("FEN: trailing text " + quoted(fields[6]) + " after the 6 fields");

    FenReading r;
    Position& p = r.pos;
    p = Position{};
    p.ep = SQ_NONE;
    parse_placement(fields[0], p, r.board, r.kings);

    if (fields[1] == "w")
        p.stm = WHITE;
    else if (fields[1] == "b")
        p.stm = BLACK;
    else
        throw FenError("FEN side to move: " + quoted(fields[1]) + ", expected 'w' or 'b'");

    const std::vector<CastlingToken> castling = parse_castling(fields[2]);

    if (fields[3] != "-") {
        const auto f = fields[3];
        if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
            throw FenError("FEN en passant: " + quoted(f) + " is not '-' or a square");
        r.ep_written = make_square(f[0] - 'a', f[1] - '1');
    }
    p.halfmove = fields.size() > 4 ? uint16_t(parse_counter(fields[4], "halfmove clock", 65535)) : 0;
    const unsigned full = fields.size() > 5 ? parse_counter(fields[5], "fullmove number", 65535) : 1;
    p.fullmove = uint16_t(full == 0 ? 1 : full);

    // The refusals, in the order parse_fen reports the first of them.
    for (Color c : {WHITE, BLACK}) {
        if (r.kings[c] != 1)
            r.refusals.push_back("FEN position: " + std::string(COLOR_NAME[c]) + " has " + std::to_string(r.kings[c]) +
                                 " kings, expected exactly one");
    }
    if (r.ep_written != SQ_NONE) {
        const std::string why = ep_problem(p, r.ep_written, fields[3]);
        const Bitboard beside = east(square_bb(r.ep_written ^ 8)) | west(square_bb(r.ep_written ^ 8));
        if (!why.empty())
            r.refusals.push_back(why);
        else if (beside & p.pawns & p.color[p.stm])
            p.ep = uint8_t(r.ep_written);
    }
    r.kings_valid = r.kings[WHITE] == 1 && r.kings[BLACK] == 1;
    bool standard = true;
    const std::string castling_problem = resolve_castling(r.board, castling, fields[2], p.castle_rooks, standard);
    p.chess960 = !standard;
    for (const std::string& problem : board_problems(r.board, p.castle_rooks, r.kings_valid ? &p : nullptr, at))
        r.refusals.push_back("FEN position: " + problem);
    if (!castling_problem.empty()) r.refusals.push_back("FEN position: " + castling_problem);
    return r;
}

Position parse_fen(std::string_view fen, const Attacks& at) {
    FenReading r = read_fen(fen, at);
    if (!r.refusals.empty()) throw FenError(r.refusals.front());
    return r.pos;
}

std::string castling_field(const Position& p, CastlingNotation notation) {
    std::string s;
    for (Color c : {WHITE, BLACK}) {
        const Bitboard own_rooks = p.rooks() & p.color[c] & (c == WHITE ? RANK_1 : RANK_8);
        const Bitboard rooks = p.castle_rooks & p.color[c];
        const Bitboard above = ~((square_bb(p.king[c]) << 1) - 1), below = square_bb(p.king[c]) - 1;
        // The king's side first, as in KQkq; X-FEN names a rook by its file
        // only when another rook stands beyond it (the letter alone would
        // mean that outer one).
        for (const Bitboard side : {above, below}) {
            if (!(rooks & side)) continue;
            const int sq = lsb(rooks & side);
            const Bitboard beyond = side == above ? ~((square_bb(sq) << 1) - 1) : square_bb(sq) - 1;
            char letter = side == above ? 'K' : 'Q';
            if (notation == CastlingNotation::Shredder || (own_rooks & beyond)) letter = char('A' + file_of(sq));
            s += c == WHITE ? letter : char(letter | 0x20);
        }
    }
    return s.empty() ? "-" : s;
}

std::string to_fen(const Position& p, CastlingNotation notation) {
    static constexpr char LETTERS[] = " pnbrqk";
    std::string s;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece pc = p.piece_on(make_square(file, rank));
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty), empty = 0;
            const char ch = LETTERS[type_of(pc)];
            s += color_of(pc) == WHITE ? char(ch - 32) : ch;
        }
        if (empty) s += char('0' + empty);
        if (rank) s += '/';
    }
    s += p.stm == WHITE ? " w " : " b ";
    s += castling_field(p, notation);
    s += ' ' + square_name(p.ep == SQ_NONE ? -1 : p.ep);
    s += ' ' + std::to_string(p.halfmove) + ' ' + std::to_string(p.fullmove);
    return s;
}

std::string move_to_uci(Move m, bool chess960) {
    const int to = m.is_castle() && !chess960 ? castle_king_to(m.from(), m.flag() == KING_CASTLE) : m.to();
    std::string s = square_name(m.from()) + square_name(to);
    if (m.is_promotion()) s += "nbrq"[m.promotion() - KNIGHT];
    return s;
}

Move parse_uci_move(const Position& p, std::string_view text, const Attacks& at) {
    const auto is_square = [](std::string_view t) {
        return t.size() == 2 && t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
    };
    if ((text.size() != 4 && text.size() != 5) || !is_square(text.substr(0, 2)) || !is_square(text.substr(2, 2)) ||
        (text.size() == 5 && std::string_view("nbrq").find(text[4]) == std::string_view::npos))
        throw std::invalid_argument("move " + quoted(text) + " is not UCI move text (like e2e4 or e7e8q)");
    MoveList list;
    generate_moves(p, at, list);
    for (Move m : list)
        if (move_to_uci(m, p.chess960) == text) return m;
    // Castling in the other mode's notation (e1g1 in Chess960, e1h1 in
    // standard chess), which no other move's text can then be.
    for (Move m : list)
        if (m.is_castle() && move_to_uci(m, !p.chess960) == text) return m;
    throw std::invalid_argument("move " + quoted(text) + " is not legal in " + to_fen(p));
}

}  // namespace chess
