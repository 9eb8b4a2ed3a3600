#include "analysis/reach_analysis.hpp"

#include "analysis/square_sets.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

constexpr int MAX_KING_PAIRS = 1024;  // product of the kings' region sizes tracked jointly

Bitboard king_flood(int from, Bitboard allowed) {
    Bitboard r = square_bb(from);
    for (Bitboard n; (n = r | (king_spread(r) & allowed)) != r;) r = n;
    return r;
}

}  // namespace

// Why the fixpoint is sound: assume the pieces in fixed_ stay where they are.
// Every other piece then moves inside its region, since regions are closed
// under single moves whose paths avoid fixed squares (other pieces are
// ignored, which only adds moves); the kings' squares stay in the pair set,
// except for king moves that stalemate the other side and so end the game.
// A fixed piece that could move or be taken under that assumption leaves the
// set and everything is grown again; when no fixed piece can, the assumption
// holds in every position reached before the game ends, by induction on the
// moves played.
ReachAnalysis::ReachAnalysis(const Position& p, const Attacks& at) : p_(p), at_(at) {
    // Kings start as candidates too: a king walled in by pawns it may not
    // take is as fixed as they are (it is never captured, only stuck).
    fixed_ = p.occupied();
    if (p.ep != SQ_NONE) {
        // The pawn that just double-pushed and its possible captors are free.
        const Bitboard pushed = square_bb(p.ep ^ 8);
        fixed_ &= ~(pushed | (chess::east(pushed) | chess::west(pushed)));
    }
    locked_ = p.pawns & fixed_;
    for (Bitboard b = p.occupied(); b;) {
        const int sq = pop_lsb(b);
        reach_[sq] = square_bb(sq);
    }
    // The permanent attacks, the pieces' and the kings' regions depend on
    // the fixed set alone: redone only when it has shrunk (a round that only
    // unlocked pawns changes just the pawns' regions).
    for (Bitboard regions_for = ~fixed_;;) {
        if (regions_for != fixed_) {
            permanent_attacks();
            flood_pieces();
            king_regions();
            regions_for = fixed_;
        }
        flood_pawns();
        const Bitboard c = conflicts();
        const Bitboard l = lock_conflicts();
        if (!c && !l) break;
        fixed_ &= ~c;
        locked_ &= ~l;
    }
}

Bitboard ReachAnalysis::piece_attacks(PieceType t, Color c, int sq, Bitboard occ) const {
    switch (t) {
        case PAWN: return at_.pawn(c, sq);
        case KNIGHT: return at_.knight(sq);
        case BISHOP: return at_.bishop(sq, occ);
        case ROOK: return at_.rook(sq, occ);
        case QUEEN: return at_.queen(sq, occ);
        case KING: return at_.king(sq);
        default: return 0;
    }
}

// Squares a fixed piece of each colour attacks whatever else happens: pawn,
// knight and king attacks, and slider attacks on adjacent squares.
void ReachAnalysis::permanent_attacks() {
    for (Color c : {WHITE, BLACK}) {
        Bitboard att = 0;
        for (Bitboard b = fixed_ & p_.color[c]; b;) {
            const int sq = pop_lsb(b);
            att |= piece_attacks(p_.type_on(sq), c, sq, ~Bitboard(0));
        }
        perm_attacked_[c] = att;
    }
}

// Squares a piece of type t on any square of `from` moves to in one move,
// set-wise, with only the fixed pieces in the way.
static Bitboard move_spread(PieceType t, Bitboard from, Bitboard fixed) {
    switch (t) {
        case KNIGHT: return knight_spread(from);
        case BISHOP: return diagonal_spread(from, fixed);
        case ROOK: return orthogonal_spread(from, fixed);
        case QUEEN: return diagonal_spread(from, fixed) | orthogonal_spread(from, fixed);
        case KING: return king_spread(from);
        default: return 0;
    }
}

// Floods `r` with moves of a piece of type t, landing on anything but a
// blocked square.
static Bitboard flood(PieceType t, Bitboard r, Bitboard fixed, Bitboard blocked) {
    for (Bitboard n; (n = r | (move_spread(t, r, fixed) & ~blocked)) != r;) r = n;
    return r;
}

// Knights and sliders: flood through non-fixed squares, landing on anything
// but a fixed piece of their own colour or a fixed king.
void ReachAnalysis::flood_pieces() {
    for (Bitboard b = p_.occupied() & ~fixed_ & ~p_.pawns & ~p_.kings(); b;) {
        const int sq = pop_lsb(b);
        const Color c = colour_on(sq);
        reach_[sq] = flood(p_.type_on(sq), reach_[sq], fixed_, fixed_ & (p_.color[c] | p_.kings()));
    }
}

// Where the king of `mover` may not step while the other king stands on
// victim_king, because the step would leave the other side without a legal
// move (every other piece of the victim is fixed, hence immobile) and not in
// check: the step squares whose king attacks cover every flight square the
// victim's king has. Empty when the precondition fails, and when the mover may
// still castle (castling moves the king two squares and a rook that may check).
Bitboard ReachAnalysis::stalemating_steps(Color mover, int victim_king) const {
    const Color victim = ~mover;
    if (p_.color[victim] & ~p_.kings() & ~fixed_) return 0;
    if (p_.castle_rooks & p_.color[mover]) return 0;
    const Bitboard flights = at_.king(victim_king) & ~(fixed_ & p_.color[victim]) & ~perm_attacked_[mover];
    Bitboard steps = ~Bitboard(0);
    for (Bitboard f = flights; f;) steps &= at_.king(pop_lsb(f));
    return steps;
}

void ReachAnalysis::king_regions() {
    Bitboard allowed[2];
    for (Color c : {WHITE, BLACK}) {
        const bool stuck = fixed_ & square_bb(p_.king[c]);
        allowed[c] = stuck ? 0 : ~(fixed_ & (p_.color[c] | p_.kings())) & ~perm_attacked_[~c];
        reach_[p_.king[c]] = king_flood(p_.king[c], allowed[c]);
    }
    pairs_valid_ = popcount(reach_[p_.king[WHITE]]) * popcount(reach_[p_.king[BLACK]]) <= MAX_KING_PAIRS;
    if (pairs_valid_) king_pairs(allowed);
}

// Both kings' squares explored together: a king never steps next to the
// other, and never makes a stalemating step, unless it leaves a line on which
// a slider of its side (or a pawn that might promote) could give check.
// pairs_[b] holds the white king's squares while the black king is on b,
// grown set-wise until nothing changes.
void ReachAnalysis::king_pairs(const Bitboard allowed[2]) {
    const Bitboard white_region = reach_[p_.king[WHITE]], black_region = reach_[p_.king[BLACK]];
    Bitboard lines[2][64], stale_white[64], stale_black_by_target[64];
    for (Color c : {WHITE, BLACK}) {
        const Bitboard free_pawns = p_.pawns & p_.color[c] & ~fixed_;
        const bool diag = (p_.diag & p_.color[c]) || free_pawns, orth = (p_.orth & p_.color[c]) || free_pawns;
        // lines[c][b], with the black king on b: the squares aligned with b,
        // nothing fixed between, on lines of c's sliders. White's king
        // leaving one may uncover a check; so may Black's king leaving b when
        // the white king stands on one.
        for (Bitboard v = black_region; v;) {
            const int sq = pop_lsb(v);
            lines[c][sq] = (diag ? at_.bishop(sq, fixed_) : 0) | (orth ? at_.rook(sq, fixed_) : 0);
        }
    }
    for (int sq = 0; sq < 64; ++sq) pairs_[sq] = stale_white[sq] = stale_black_by_target[sq] = 0;
    for (Bitboard v = black_region; v;) {
        const int b = pop_lsb(v);
        stale_white[b] = stalemating_steps(WHITE, b);
    }
    for (Bitboard v = white_region; v;) {
        const int w = pop_lsb(v);
        for (Bitboard t = stalemating_steps(BLACK, w) & black_region; t;) stale_black_by_target[pop_lsb(t)] |= square_bb(w);
    }
    // A worklist of the black king's squares whose white set grew: each is
    // closed under white king moves, then passed on by black king moves.
    pairs_[p_.king[BLACK]] = square_bb(p_.king[WHITE]);
    for (Bitboard dirty = square_bb(p_.king[BLACK]); dirty;) {
        const int b = pop_lsb(dirty);
        const Bitboard ok = allowed[WHITE] & ~at_.king(b) & ~square_bb(b);
        for (Bitboard w = pairs_[b], n; w; w = n) {  // white king moves
            n = ((king_spread(w & ~lines[WHITE][b]) & ~stale_white[b]) | king_spread(w & lines[WHITE][b])) & ok &
                ~pairs_[b];
            pairs_[b] |= n;
        }
        for (Bitboard t = at_.king(b) & allowed[BLACK]; t;) {  // black king moves
            const int to = pop_lsb(t);
            const Bitboard add =
                pairs_[b] & ~at_.king(to) & ~square_bb(to) & ~(stale_black_by_target[to] & ~lines[BLACK][b]);
            if (add & ~pairs_[to]) {
                pairs_[to] |= add;
                dirty |= square_bb(to);
            }
        }
    }
    Bitboard white = 0, black = 0;
    for (int b = 0; b < 64; ++b) {
        white |= pairs_[b];
        if (pairs_[b]) black |= square_bb(b);
    }
    reach_[p_.king[WHITE]] = white;
    reach_[p_.king[BLACK]] = black;
}

// Squares where a non-king piece of colour c might stand at some point: where
// a pawn of the other colour might capture.
Bitboard ReachAnalysis::capture_targets(Color c) const {
    Bitboard r = fixed_ & p_.color[c] & ~p_.kings();
    for (Bitboard b = p_.color[c] & ~fixed_ & ~p_.kings(); b;) r |= reach(pop_lsb(b));
    return r;
}

void ReachAnalysis::flood_pawns() {
    for (bool changed = true; changed;) {
        changed = false;
        const Bitboard targets[2] = {capture_targets(BLACK), capture_targets(WHITE)};  // by the capturing colour
        for (Bitboard b = p_.pawns & ~fixed_; b;) {
            const int sq = pop_lsb(b);
            const Color c = colour_on(sq);
            changed |= flood_pawn(sq, c, targets[c]);
        }
    }
}

// Pushes through non-fixed squares, captures where an enemy piece might be;
// a promoted piece is over-approximated by a queen that also jumps.
bool ReachAnalysis::flood_pawn(int sq, Color c, Bitboard targets) {
    const Bitboard before = reach_[sq] | promoted_[sq];
    Bitboard r = reach_[sq];
    for (;;) {
        const Bitboard pawns = r & ~promotion_rank(c);
        const Bitboard pushes = pawn_push(c, pawns) & ~fixed_ & ~(locked_ & p_.color[~c]);
        const Bitboard n = r | pushes | (pawn_spread(c, pawns) & targets);
        if (n == r) break;
        r = n;
    }
    reach_[sq] = r;
    const Bitboard blocked = fixed_ & (p_.color[c] | p_.kings());
    // Flooded again when it has new squares, or walls have gone since.
    Bitboard q = promoted_[sq] | (r & promotion_rank(c));
    if (q && (q != promoted_[sq] || promoted_walls_[sq] != fixed_)) {
        for (Bitboard n; (n = q | ((move_spread(QUEEN, q, fixed_) | knight_spread(q)) & ~blocked)) != q;) q = n;
        promoted_walls_[sq] = fixed_;
    }
    promoted_[sq] = q;
    return (r | q) != before;
}

// Fixed pieces that could move, or be captured, under the current regions.
Bitboard ReachAnalysis::conflicts() const {
    Bitboard out = 0;
    for (Color c : {WHITE, BLACK}) {
        Bitboard enemy_all = 0;
        for (Bitboard b = p_.color[~c] & ~fixed_; b;) enemy_all |= reach(pop_lsb(b));
        out |= fixed_ & p_.color[c] & enemy_all & ~p_.kings();
        const Bitboard own_fixed = fixed_ & p_.color[c];
        const Bitboard targets = capture_targets(~c);
        for (Bitboard b = own_fixed; b;) {
            const int sq = pop_lsb(b);
            const PieceType t = p_.type_on(sq);
            const Bitboard from = square_bb(sq);
            bool moves;
            if (t == PAWN)
                moves = !(pawn_push(c, from) & fixed_) || (pawn_spread(c, from) & targets);
            else if (t == KING)
                moves = at_.king(sq) & ~own_fixed & ~perm_attacked_[~c];
            else
                moves = piece_attacks(t, c, sq, fixed_) & ~own_fixed;
            if (moves) out |= from;
        }
    }
    return out;
}

// Locked pawns that are not fixed but might capture, or be captured (by a
// piece landing where the pawn may stand, a pawn's capture included). A locked
// pawn's region is never attacked by an opposing pawn, so no opposing pawn can
// enter its file behind it either: its square is a wall for their pushes.
Bitboard ReachAnalysis::lock_conflicts() const {
    Bitboard out = 0;
    for (Color c : {WHITE, BLACK}) {
        Bitboard attacks = 0;
        for (Bitboard b = p_.color[~c] & ~fixed_; b;) {
            const int sq = pop_lsb(b);
            attacks |= promoted_[sq] | ((p_.pawns & square_bb(sq)) ? pawn_spread(~c, reach_[sq]) : reach_[sq]);
        }
        const Bitboard targets = capture_targets(~c);
        for (Bitboard b = locked_ & ~fixed_ & p_.color[c]; b;) {
            const int sq = pop_lsb(b);
            if ((reach_[sq] & attacks) || (pawn_spread(c, reach_[sq]) & targets) || promoted_[sq]) out |= square_bb(sq);
        }
    }
    return out;
}

// Whether distinct blockers (reach sets) can stand on every square of `need`.
static bool can_block(Bitboard need, const Bitboard* blockers, int n, unsigned used = 0) {
    if (!need) return true;
    const int sq = lsb(need);
    for (int i = 0; i < n; ++i)
        if (!(used & (1u << i)) && (blockers[i] & square_bb(sq)) &&
            can_block(need & (need - 1), blockers, n, used | (1u << i)))
            return true;
    return false;
}

// A mate needs a square k the loser's king can reach, a winner's piece able to
// give check there (a fixed piece only by discovery: fixed pawns and knights
// never give a new check, and the king cannot walk into one), and every flight
// square of k covered by a winner's piece, held by a loser's fixed piece,
// taken by a distinct movable loser's piece, or covered by the winner's king
// from a square it can occupy while the loser's king stands on k.
bool ReachAnalysis::mate_possible(Color winner) const {
    // Chess960 castling moves a king and a rook past each other, farther
    // than the steps the reach below follows: no proof while a right is left.
    if (p_.chess960 && p_.castle_rooks) return true;
    const Color loser = ~winner;
    Bitboard check = 0, cover = 0;
    for (Bitboard b = p_.color[winner] & ~p_.kings(); b;) {
        const int sq = pop_lsb(b);
        const PieceType t = p_.type_on(sq);
        if (fixed_ & square_bb(sq)) {
            const Bitboard a = piece_attacks(t, winner, sq, fixed_);
            cover |= a;
            if (t == BISHOP || t == ROOK || t == QUEEN) check |= a;
            continue;
        }
        const Bitboard a = (t == PAWN ? pawn_spread(winner, reach_[sq]) : move_spread(t, reach_[sq], fixed_)) |
                           move_spread(QUEEN, promoted_[sq], fixed_) | knight_spread(promoted_[sq]);
        check |= a;
        cover |= a;
    }
    Bitboard blockers[16], held = 0, movable = 0;
    int n = 0;
    for (Bitboard b = p_.color[loser] & ~p_.kings(); b;) {
        const int sq = pop_lsb(b);
        if (fixed_ & square_bb(sq))
            held |= square_bb(sq);
        else if (n < 16)
            movable |= blockers[n++] = reach(sq);
        else
            return true;  // too many to match: give up proving
    }

    for (Bitboard ks = reach_[p_.king[loser]] & check; ks;) {
        const int k = pop_lsb(ks);
        const Bitboard need = at_.king(k) & ~(cover | held);
        if (!(need & ~movable) && popcount(need) <= n && can_block(need, blockers, n)) return true;
        Bitboard kings = reach_[p_.king[winner]];
        if (pairs_valid_) {
            if (loser == BLACK) {
                kings = pairs_[k];
            } else {
                kings = 0;
                for (int b = 0; b < 64; ++b)
                    if (pairs_[b] & square_bb(k)) kings |= square_bb(b);
            }
        }
        for (Bitboard w = kings & ~at_.king(k) & ~square_bb(k); w;) {
            const Bitboard rest = need & ~at_.king(pop_lsb(w));
            if (!(rest & ~movable) && popcount(rest) <= n && can_block(rest, blockers, n)) return true;
        }
    }
    return false;
}

}  // namespace perftide::analysis
