// FEN text into the reference board (see reference.hpp). Its own reader: it
// shares nothing with common/chess/io, so the two can check each other.
#include <cctype>
#include <sstream>

#include "verify/reference.hpp"

namespace perftide::reference {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw ReferenceError("FEN: " + what); }

int mailbox(int file, int rank) { return 21 + file + 10 * rank; }

void read_placement(const std::string& text, Board& b) {
    for (char& c : b.sq) c = '#';
    for (int rank = 0; rank < 8; ++rank)
        for (int file = 0; file < 8; ++file) b.sq[mailbox(file, rank)] = '.';
    int rank = 7, file = 0;
    for (char c : text) {
        if (c == '/') {
            if (file != 8 || rank == 0) refuse("placement '" + text + "' is not 8 ranks of 8 squares");
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) refuse("placement '" + text + "' has a rank longer than 8 squares");
        } else if (std::string("PNBRQKpnbrqk").find(c) != std::string::npos) {
            if (file >= 8) refuse("placement '" + text + "' has a rank longer than 8 squares");
            b.sq[mailbox(file++, rank)] = c;
        } else {
            refuse("placement '" + text + "' has the unknown character '" + std::string(1, c) + "'");
        }
    }
    if (rank != 0 || file != 8) refuse("placement '" + text + "' is not 8 ranks of 8 squares");
}

// Castling letters after the placement is read: K/Q (k/q) name the
// outermost rook of that colour on its first rank on the h- (a-) side of its
// king, a file letter A-H (a-h) the rook on that file. A right whose king
// is not on e1/e8 or whose rook is not in the corner is Chess960's.
void read_castling(const std::string& text, Board& b) {
    if (text == "-") return;
    for (char c : text) {
        const bool white = c >= 'A' && c <= 'Z';
        const int colour = white ? 0 : 1, rank = white ? 0 : 7;
        const char upper = char(std::toupper(static_cast<unsigned char>(c)));
        const char rook = white ? 'R' : 'r';
        int king = -1;
        for (int file = 0; file < 8; ++file)
            if (b.sq[mailbox(file, rank)] == (white ? 'K' : 'k')) king = file;
        if (upper != 'K' && upper != 'Q' && (upper < 'A' || upper > 'H'))
            refuse("castling field '" + text + "' has the letter '" + std::string(1, c) + "'");
        if (king < 0) refuse("castling right '" + std::string(1, c) + "' but no king on its first rank");
        int file = -1;
        if (upper == 'K') {
            for (int f = king + 1; f < 8; ++f)
                if (b.sq[mailbox(f, rank)] == rook) file = f;
        } else if (upper == 'Q') {
            for (int f = king - 1; f >= 0; --f)
                if (b.sq[mailbox(f, rank)] == rook) file = f;
        } else {
            file = upper - 'A';
        }
        if (file < 0 || file == king || b.sq[mailbox(file, rank)] != rook)
            refuse("castling right '" + std::string(1, c) + "' names no rook beside the king on its first rank");
        const int side = file > king ? 0 : 1;
        if (b.castle_file[colour][side] >= 0) refuse("castling field '" + text + "' gives one side two rights");
        b.castle_file[colour][side] = file;
        if (king != 4 || file != (side == 0 ? 7 : 0)) b.chess960 = true;
    }
}

void read_ep(const std::string& text, Board& b) {
    if (text == "-") return;
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        refuse("e.p. field '" + text + "' is not '-' or a square");
    const int file = text[0] - 'a', rank = text[1] - '1';
    // The pawn that passed over the square now stands just beyond it, and
    // the square it came from is empty.
    const int passed_rank = b.white_to_move ? 5 : 2, pawn_rank = b.white_to_move ? 4 : 3;
    const int origin_rank = b.white_to_move ? 6 : 1;
    const char enemy_pawn = b.white_to_move ? 'p' : 'P';
    if (rank != passed_rank || b.sq[mailbox(file, rank)] != '.' || b.sq[mailbox(file, pawn_rank)] != enemy_pawn ||
        b.sq[mailbox(file, origin_rank)] != '.')
        refuse("e.p. square '" + text + "' is not one a pawn can just have passed over");
    b.ep = mailbox(file, rank);
}

int read_counter(const std::string& text, const char* name) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
        refuse(std::string(name) + " '" + text + "' is not a number below 1000000");
    return std::stoi(text);
}

// The conditions under which the Laws define the legal moves.
void check_position(const Board& b) {
    int kings[2] = {0, 0};
    for (int sq = 0; sq < 64; ++sq) {
        const char c = piece_at(b, sq);
        if (c == 'K' || c == 'k') ++kings[c == 'k'];
        if ((c == 'P' || c == 'p') && (sq < 8 || sq >= 56)) refuse("a pawn stands on rank 1 or 8");
    }
    if (kings[0] != 1 || kings[1] != 1) refuse("each side needs exactly one king");
    Board other = b;
    other.white_to_move = !b.white_to_move;
    if (in_check(other)) refuse("the side not to move is in check");
}

}  // namespace

Board parse_fen(const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> f;
    for (std::string field; in >> field;) f.push_back(field);
    if (f.size() < 4 || f.size() > 6) refuse("'" + fen + "' does not have 4 to 6 fields");
    Board b;
    read_placement(f[0], b);
    if (f[1] != "w" && f[1] != "b") refuse("side to move '" + f[1] + "' is not 'w' or 'b'");
    b.white_to_move = f[1] == "w";
    read_castling(f[2], b);
    read_ep(f[3], b);
    if (f.size() > 4) b.halfmove = read_counter(f[4], "halfmove clock");
    if (f.size() > 5) b.fullmove = read_counter(f[5], "fullmove number");
    check_position(b);
    return b;
}

}  // namespace perftide::reference
