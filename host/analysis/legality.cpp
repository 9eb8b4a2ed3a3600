// Legality tests; see legality.hpp. The check test retracts the last move:
// a check is possible only if some move of the side that just moved, taken
// back, leaves the side to move out of check (it was that side's opponent's
// turn before it, and a player may not leave the opponent's king attacked).
#include "analysis/legality.hpp"

#include "chess/terminal.hpp"

#include <algorithm>

namespace perftide::analysis {

using namespace chess;

namespace {

const char* const COLOR_NAME[2] = {"White", "Black"};
const char* const PIECE_NAME[7] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

std::string list_pieces(const Position& p, Bitboard b) {
    std::string out;
    for (int n = popcount(b), i = 0; b; ++i) {
        const int sq = pop_lsb(b);
        out += i == 0 ? "" : i + 1 == n ? " and " : ", ";
        out += std::string("the ") + PIECE_NAME[p.type_on(sq)] + " on " + square_name(sq);
    }
    return out;
}

// Retractions of the last move of X = ~p.stm; `safe(q)` says whether the
// position before it is possible. Captured men come back as blockers (a
// blocker only removes attacks, so one of any kind serves the test).
class Retractor {
   public:
    Retractor(const Position& p, const Attacks& at) : p_(p), at_(at), x_(~p.stm), s_(p.stm) {
        empty_ = ~p.occupied();
        can_uncapture_ = popcount(p.color[s_]) < 16;
    }

    bool safe(const Position& q) const { return !attackers_to(q, at_, q.king[s_], q.occupied(), x_); }

    // Moves the man on t back to f as `was` (a pawn for promotions), with a
    // captured blocker left on t when `capture`.
    bool retract(int t, int f, PieceType was, bool capture) const {
        if (capture && !can_uncapture_) return false;
        Position q = p_;
        clear_square(q, t);
        put_piece(q, f, x_, was);
        if (capture) put_piece(q, t, s_, KNIGHT);
        return safe(q);
    }

    bool any() const {
        for (Bitboard b = p_.color[x_]; b;)
            if (any_from(pop_lsb(b))) return true;
        return any_castle();
    }

    // The double push that an en-passant square says was the last move.
    bool double_push(int ep) const {
        const int up = x_ == WHITE ? 8 : -8;
        return retract(ep + up, ep - up, PAWN, false);
    }

   private:
    bool any_from(int t) const {
        const PieceType type = p_.type_on(t);
        const Bitboard occ = p_.occupied();
        if (type == PAWN) return any_pawn(t);
        Bitboard from = type == KING     ? at_.king(t)
                        : type == KNIGHT ? at_.knight(t)
                        : type == BISHOP ? at_.bishop(t, occ)
                        : type == ROOK   ? at_.rook(t, occ)
                                         : at_.queen(t, occ);
        for (from &= empty_; from;) {
            const int f = pop_lsb(from);
            if (retract(t, f, type, can_uncapture_)) return true;
        }
        return type != KING && relative_rank(x_, t) == 7 && any_promotion(t);
    }

    bool any_promotion(int t) const {
        const int down = x_ == WHITE ? -8 : 8;
        if ((empty_ & square_bb(t + down)) && retract(t, t + down, PAWN, false)) return true;
        for (int side : {-1, 1}) {
            const int f = t + down + side;
            if (file_of(t) + side < 0 || file_of(t) + side > 7) continue;
            if ((empty_ & square_bb(f)) && retract(t, f, PAWN, true)) return true;
        }
        return false;
    }

    bool any_pawn(int t) const {
        const int down = x_ == WHITE ? -8 : 8, rr = relative_rank(x_, t);
        if (rr < 2) return false;  // a pawn on its second rank has not moved
        if ((empty_ & square_bb(t + down)) && retract(t, t + down, PAWN, false)) return true;
        if (rr == 3 && (empty_ & square_bb(t + down)) && (empty_ & square_bb(t + 2 * down)) &&
            retract(t, t + 2 * down, PAWN, false))
            return true;
        for (int side : {-1, 1}) {
            if (file_of(t) + side < 0 || file_of(t) + side > 7) continue;
            const int f = t + down + side;
            if (!(empty_ & square_bb(f))) continue;
            if (retract(t, f, PAWN, true)) return true;
            if (rr == 5 && en_passant(t, f)) return true;
        }
        return false;
    }

    // An en-passant capture from f to t: the captured pawn returns beside f.
    bool en_passant(int t, int f) const {
        const int down = x_ == WHITE ? -8 : 8;
        const int captured = t + down;
        if (!can_uncapture_ || !(empty_ & square_bb(captured)) || !(empty_ & square_bb(t - down))) return false;
        Position q = p_;
        clear_square(q, t);
        put_piece(q, f, x_, PAWN);
        put_piece(q, captured, s_, PAWN);
        return safe(q);
    }

    bool any_castle() const {
        const int r = x_ == WHITE ? 0 : 56;
        // In Chess960 the king and rook could have come from many files:
        // with the king on g/c and a rook beside it on f/d, assume one did.
        if (p_.chess960) {
            const Bitboard rooks = p_.rooks() & p_.color[x_];
            return (p_.king[x_] == r + 6 && (rooks & square_bb(r + 5))) ||
                   (p_.king[x_] == r + 2 && (rooks & square_bb(r + 3)));
        }
        const Bitboard rooks = p_.rooks() & p_.color[x_];
        struct Side {
            int king_to, rook_to, rook_from;
            Bitboard must_be_empty;
        };
        const Side sides[2] = {{r + 6, r + 5, r + 7, square_bb(r + 4) | square_bb(r + 7)},
                               {r + 2, r + 3, r + 0, square_bb(r + 4) | square_bb(r + 0) | square_bb(r + 1)}};
        for (const Side& s : sides) {
            if (p_.king[x_] != s.king_to || !(rooks & square_bb(s.rook_to)) || (~empty_ & s.must_be_empty)) continue;
            Position q = p_;
            clear_square(q, s.king_to);
            clear_square(q, s.rook_to);
            put_piece(q, r + 4, x_, KING);
            put_piece(q, s.rook_from, x_, ROOK);
            if (safe(q)) return true;
        }
        return false;
    }

    const Position& p_;
    const Attacks& at_;
    Color x_, s_;
    Bitboard empty_;
    bool can_uncapture_;
};

}  // namespace

std::optional<std::string> impossible_check(const Position& p, int ep_claim, const Attacks& at) {
    const Color s = p.stm, x = ~s;
    const Bitboard check = checkers(p, at);
    if (popcount(check) > 2)
        return std::string(COLOR_NAME[s]) + " is in check from " + std::to_string(popcount(check)) + " pieces (" +
               list_pieces(p, check) + "); no single move gives more than two checks";
    const Retractor retro(p, at);
    if (ep_claim != SQ_NONE) {
        if (retro.double_push(ep_claim)) return std::nullopt;
        const int up = x == WHITE ? 8 : -8;
        return "en passant square " + square_name(ep_claim) + " says " + COLOR_NAME[x] + "'s last move was " +
               square_name(ep_claim - up) + square_name(ep_claim + up) + ", but " + COLOR_NAME[s] +
               " would have been in check before it";
    }
    if (!check || retro.any()) return std::nullopt;
    return std::string(COLOR_NAME[s]) + " is in check from " + list_pieces(p, check) + ", which no last move of " +
           COLOR_NAME[x] + " can have given";
}

std::vector<std::string> material_problems(const Piece board[64]) {
    std::vector<std::string> problems;
    for (Color c : {WHITE, BLACK}) {
        int n[7] = {}, bishops_on[2] = {};  // more than 16 men is a FEN refusal, listed before these
        for (int sq = 0; sq < 64; ++sq) {
            if (board[sq] == NO_PIECE || color_of(board[sq]) != c) continue;
            ++n[type_of(board[sq])];
            if (type_of(board[sq]) == BISHOP) ++bishops_on[(file_of(sq) + rank_of(sq)) & 1];
        }
        const std::string who = COLOR_NAME[c];
        if (n[PAWN] > 8) {
            problems.push_back(who + " has " + std::to_string(n[PAWN]) + " pawns, more than 8");
            continue;
        }
        // Beyond one queen, two rooks, two knights and one bishop per square
        // colour, every piece is a promoted pawn.
        const int promoted = std::max(0, n[QUEEN] - 1) + std::max(0, n[ROOK] - 2) + std::max(0, n[KNIGHT] - 2) +
                             std::max(0, bishops_on[0] - 1) + std::max(0, bishops_on[1] - 1);
        if (promoted > 8 - n[PAWN])
            problems.push_back(who + " has at least " + std::to_string(promoted) + " promoted pieces (" +
                               std::to_string(n[QUEEN]) + " queens, " + std::to_string(n[ROOK]) + " rooks, " +
                               std::to_string(n[BISHOP]) + " bishops, " + std::to_string(n[KNIGHT]) +
                               " knights) but only " + std::to_string(8 - n[PAWN]) + " pawns are missing");
    }
    return problems;
}

bool insufficient_material(const Piece board[64]) {
    Bitboard of[7] = {};
    for (int sq = 0; sq < 64; ++sq)
        if (board[sq] != NO_PIECE) of[type_of(board[sq])] |= square_bb(sq);
    return chess::insufficient_material(of[PAWN], of[ROOK] | of[QUEEN], of[BISHOP], of[KNIGHT]);
}

std::vector<std::string> legality_problems(const FenReading& r, const Attacks& at) {
    std::vector<std::string> problems;
    bool ep_refused = false;
    for (const std::string& refusal : r.refusals) {
        const bool position = refusal.rfind("FEN position: ", 0) == 0;
        ep_refused |= refusal.rfind("FEN en passant: ", 0) == 0;
        problems.push_back(position ? refusal.substr(14) : refusal.substr(4));
    }
    for (std::string& m : material_problems(r.board)) problems.push_back(std::move(m));
    if (r.kings_valid) {
        const int ep_claim = ep_refused ? int(SQ_NONE) : r.ep_written;
        if (auto why = impossible_check(r.pos, ep_claim, at)) problems.push_back(*why);
    }
    return problems;
}

}  // namespace perftide::analysis
