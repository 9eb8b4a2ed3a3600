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
    for (char ch : field) {
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

uint8_t parse_castling(std::string_view field) {
    if (field == "-") return 0;
    uint8_t rights = 0;
    for (char ch : field) {
        uint8_t r = 0;
        switch (ch) {
            case 'K': r = WHITE_OO; break;
            case 'Q': r = WHITE_OOO; break;
            case 'k': r = BLACK_OO; break;
            case 'q': r = BLACK_OOO; break;
            default:
                if ((ch >= 'A' && ch <= 'H') || (ch >= 'a' && ch <= 'h'))
                    throw FenError("FEN castling: " + quoted(field) +
                                   " uses Chess960 (Shredder/X-FEN) notation, which is unsupported");
                throw FenError("FEN castling: unexpected character " + quoted(std::string_view(&ch, 1)) + " in " +
                               quoted(field) + " (expected '-' or letters from KQkq)");
        }
        if (rights & r) throw FenError("FEN castling: " + quoted(field) + " repeats " + quoted(std::string_view(&ch, 1)));
        rights |= r;
    }
    return rights;
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

// X-FEN writes Chess960 rights with KQkq: a king between the b and g files
// on its back rank with a rook of its colour beyond it, on that rank, on the
// side of the right, is most likely such a position.
std::string chess960_hint(const Piece board[64], Color c, int corner) {
    const int rank = rank_of(corner) * 8;
    int king = -1;
    for (int f = 1; f < 7; ++f)
        if (board[rank + f] == make_piece(c, KING)) king = f;
    if (king < 0) return "";
    for (int f = 0; f < 8; ++f)
        if (board[rank + f] == make_piece(c, ROOK) && (f > king) == (file_of(corner) > king))
            return " (Chess960 castling rights are unsupported)";
    return "";
}

}  // namespace

std::string square_name(int sq) {
    if (sq < 0 || sq > 63) return "-";
    return std::string{char('a' + file_of(sq)), char('1' + rank_of(sq))};
}

namespace {

// Problems readable from the board alone (more than 16 pieces a side, pawns
// on the back ranks, castling rights), plus the side not to move being in check when `checkable` (a
// position with one king each) is given; in generation_problems' order.
std::vector<std::string> board_problems(const Piece board[64], uint8_t castling, const Position* checkable,
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
    struct Right {
        uint8_t bit;
        char letter;
        Color c;
        int king, rook;
    };
    constexpr Right RIGHTS[4] = {{WHITE_OO, 'K', WHITE, SQ_E1, SQ_H1},
                                 {WHITE_OOO, 'Q', WHITE, SQ_E1, SQ_A1},
                                 {BLACK_OO, 'k', BLACK, SQ_E8, SQ_H8},
                                 {BLACK_OOO, 'q', BLACK, SQ_E8, SQ_A8}};
    for (const Right& r : RIGHTS) {
        if (!(castling & r.bit)) continue;
        if (board[r.king] != make_piece(r.c, KING))
            problems.push_back(std::string("castling right '") + r.letter + "' but the " + COLOR_NAME[r.c] +
                               " king is not on " + square_name(r.king) + chess960_hint(board, r.c, r.rook));
        else if (board[r.rook] != make_piece(r.c, ROOK))
            problems.push_back(std::string("castling right '") + r.letter + "' but no " + COLOR_NAME[r.c] +
                               " rook on " + square_name(r.rook) + chess960_hint(board, r.c, r.rook));
    }
    return problems;
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

std::vector<std::string> generation_problems(const Position& p, const Attacks& at) {
    Piece board[64];
    board_of(p, board);
    return board_problems(board, p.castling, &p, at);
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

    p.castling = parse_castling(fields[2]);

    if (fields[3] != "-") {
        const auto f = fields[3];
        if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
            throw FenError("FEN en passant: " + quoted(f) + " is not '-' or a square");
        r.ep_written = make_square(f[0] - 'a', f[1] - '1');
    }
    p.halfmove = fields.size() > 4 ? uint8_t(parse_counter(fields[4], "halfmove clock", 255)) : 0;
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
    for (const std::string& problem : board_problems(r.board, p.castling, r.kings_valid ? &p : nullptr, at))
        r.refusals.push_back("FEN position: " + problem);
    return r;
}

Position parse_fen(std::string_view fen, const Attacks& at) {
    FenReading r = read_fen(fen, at);
    if (!r.refusals.empty()) throw FenError(r.refusals.front());
    return r.pos;
}

std::string to_fen(const Position& p) {
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
    if (!p.castling) s += '-';
    if (p.castling & WHITE_OO) s += 'K';
    if (p.castling & WHITE_OOO) s += 'Q';
    if (p.castling & BLACK_OO) s += 'k';
    if (p.castling & BLACK_OOO) s += 'q';
    s += ' ' + square_name(p.ep == SQ_NONE ? -1 : p.ep);
    s += ' ' + std::to_string(p.halfmove) + ' ' + std::to_string(p.fullmove);
    return s;
}

std::string move_to_uci(Move m) {
    std::string s = square_name(m.from()) + square_name(m.to());
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
        if (move_to_uci(m) == text) return m;
    throw std::invalid_argument("move " + quoted(text) + " is not legal in " + to_fen(p));
}

}  // namespace chess
