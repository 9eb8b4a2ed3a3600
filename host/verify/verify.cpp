#include "verify/verify.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <mutex>
#include <thread>

#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "chess/io/chess960.hpp"
#include "chess/io/fen.hpp"
#include "chess/movegen.hpp"
#include "count/cpu_perft.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "verify/reference.hpp"

namespace perftide {
namespace {

using namespace chess;
namespace ref = reference;

// splitmix64: each sample gets its own stream, so results do not depend on
// which thread draws which sample.
struct Rng {
    uint64_t state;
    uint64_t next() { return mix64(state += GOLDEN_GAMMA); }
    int below(int n) { return int(next() % uint64_t(n)); }
};

// One key for a move from either generator: from | to << 6 | promotion << 12
// (0 none, then n b r q) | castling << 15, with the king's squares for
// castling (the two generators write castling differently).
uint16_t key_of(Move m) {
    const int promo = m.is_promotion() ? m.promotion() - KNIGHT + 1 : 0;
    const int to = m.is_castle() ? castle_king_to(m.from(), m.flag() == KING_CASTLE) : m.to();
    return uint16_t(m.from() | to << 6 | promo << 12 | int(m.is_castle()) << 15);
}
uint16_t key_of(const ref::Move& m) {
    const int promo = m.promo == 'n' ? 1 : m.promo == 'b' ? 2 : m.promo == 'r' ? 3 : m.promo == 'q' ? 4 : 0;
    return uint16_t(m.from | m.to << 6 | promo << 12 | int(m.rook >= 0) << 15);
}

// The pieces of a common/ position as letters, a1 first.
void letters_of(const Position& p, char out[64]) {
    std::fill(out, out + 64, '.');
    for (Color c : {WHITE, BLACK})
        for (int t = PAWN; t <= KING; ++t)
            for (Bitboard b = p.pieces(c, PieceType(t)); b;) out[pop_lsb(b)] = (c == WHITE ? " PNBRQK" : " pnbrqk")[t];
}

// The reference's e.p. square under common/'s convention: kept only when a
// pawn of the side to move stands beside the pawn that double-stepped.
int ep_with_pawn_beside(const ref::Board& b) {
    const int ep = ref::ep_square(b);
    if (ep < 0) return -1;
    const int pushed = b.white_to_move ? ep - 8 : ep + 8;
    const char own_pawn = b.white_to_move ? 'P' : 'p';
    const bool left = file_of(pushed) > 0 && ref::piece_at(b, pushed - 1) == own_pawn;
    const bool right = file_of(pushed) < 7 && ref::piece_at(b, pushed + 1) == own_pawn;
    return left || right ? ep : -1;
}

// Empty when both describe the same position, else what differs.
std::string identity_problem(const Position& p, const ref::Board& b) {
    char ours[64];
    letters_of(p, ours);
    for (int sq = 0; sq < 64; ++sq)
        if (ours[sq] != ref::piece_at(b, sq))
            return "square " + square_name(sq) + ": perftide has '" + ours[sq] + "', the reference '" +
                   ref::piece_at(b, sq) + "'";
    if ((p.stm == WHITE) != b.white_to_move) return "side to move";
    Bitboard castle_rooks = 0;
    for (int c = 0; c < 2; ++c)
        for (int side = 0; side < 2; ++side)
            if (b.castle_file[c][side] >= 0) castle_rooks |= square_bb(make_square(b.castle_file[c][side], c ? 7 : 0));
    if (p.castle_rooks != castle_rooks) return "castling rights";
    if ((p.ep == SQ_NONE ? -1 : int(p.ep)) != ep_with_pawn_beside(b)) return "e.p. square";
    if (p.halfmove != std::min(b.halfmove, 65535)) return "halfmove clock";   // common/ saturates at 65535
    if (p.fullmove != std::min(b.fullmove, 65535)) return "fullmove number";  // and at 65535
    return "";
}

template <class T>
using Keyed = std::vector<std::pair<uint16_t, T>>;

// Checks one sample: its playout, then the tree below it.
class SampleChecker {
   public:
    SampleChecker(int sample, const Position& root) : sample_(sample), root_(root) {}

    bool tree(const Position& p, const ref::Board& b, int depth) {
        if (depth == 0) return leaf(p, b);
        Keyed<Move> ours;
        Keyed<ref::Move> theirs;
        if (!interior(p, b, ours, theirs)) return false;
        for (size_t i = 0; i < ours.size(); ++i) {
            path_.push_back(ours[i].second);
            const bool ok = tree(apply_move(p, ours[i].second), ref::play(b, theirs[i].second), depth - 1);
            path_.pop_back();
            if (!ok) return false;
        }
        return true;
    }

    bool run(Rng& rng, int playout_plies, int depth) {
        Position p = root_;
        ref::Board b;
        try {
            b = ref::parse_fen(to_fen(p));
            b.chess960 = p.chess960;
        } catch (const ref::ReferenceError& e) {
            return fail("FEN round trip", std::string("the reference refuses the root: ") + e.what(), p, nullptr);
        }
        for (int ply = 0; ply < playout_plies; ++ply) {
            Keyed<Move> ours;
            Keyed<ref::Move> theirs;
            if (!interior(p, b, ours, theirs)) return false;
            if (ours.empty()) break;
            const size_t i = pick(ours, rng);
            path_.push_back(ours[i].second);
            p = apply_move(p, ours[i].second);
            b = ref::play(b, theirs[i].second);
        }
        return tree(p, b, depth);
    }

    uint64_t nodes = 0, leaves = 0;
    std::optional<Mismatch> mismatch;

   private:
    // Uniform among the legal moves, but a castling, e.p. or promotion move
    // one time in four when there is one, so the rare rules get exercised.
    static size_t pick(const Keyed<Move>& moves, Rng& rng) {
        std::vector<size_t> special;
        for (size_t i = 0; i < moves.size(); ++i) {
            const Move m = moves[i].second;
            if (m.is_castle() || m.is_en_passant() || m.is_promotion()) special.push_back(i);
        }
        if (!special.empty() && rng.below(4) == 0) return special[rng.below(int(special.size()))];
        return size_t(rng.below(int(moves.size())));
    }

    bool leaf(const Position& p, const ref::Board& b) {
        ++leaves;
        if (const std::string d = identity_problem(p, b); !d.empty())
            return fail("same position", "the two boards differ in the " + d, p, &b);
        if (in_check(p, host_attacks()) != ref::in_check(b)) return fail("in check", "check status differs", p, &b);
        return true;
    }

    bool interior(const Position& p, const ref::Board& b, Keyed<Move>& ours, Keyed<ref::Move>& theirs);
    bool fen_round_trip(const Position& p, const ref::Board& b);
    // Records the mismatch at p (b: the reference's board, when it has one).
    bool fail(const std::string& check, const std::string& detail, const Position& p, const ref::Board* b,
              std::vector<std::string> only_common = {}, std::vector<std::string> only_reference = {});

    int sample_;
    Position root_;
    std::vector<Move> path_;
};

bool SampleChecker::interior(const Position& p, const ref::Board& b, Keyed<Move>& ours, Keyed<ref::Move>& theirs) {
    ++nodes;
    const Attacks at = host_attacks();
    MoveList list;
    generate_moves(p, at, list);
    for (Move m : list) ours.emplace_back(key_of(m), m);
    for (const ref::Move& m : ref::legal_moves(b)) theirs.emplace_back(key_of(m), m);
    const auto by_key = [](const auto& x, const auto& y) { return x.first < y.first; };
    std::sort(ours.begin(), ours.end(), by_key);
    std::sort(theirs.begin(), theirs.end(), by_key);
    std::vector<std::string> only_common, only_reference;
    size_t i = 0, j = 0;
    while (i < ours.size() || j < theirs.size()) {
        if (j == theirs.size() || (i < ours.size() && ours[i].first < theirs[j].first))
            only_common.push_back(move_to_uci(ours[i++].second, p.chess960));
        else if (i == ours.size() || theirs[j].first < ours[i].first)
            only_reference.push_back(ref::uci(theirs[j++].second, p.chess960));
        else
            ++i, ++j;
    }
    if (!only_common.empty() || !only_reference.empty())
        return fail("legal moves", "the legal move sets differ", p, &b, only_common, only_reference);
    if (count_moves(p, at) != uint32_t(list.size))
        return fail(
            "count_moves",
            "count_moves gives " + std::to_string(count_moves(p, at)) + ", the list has " + std::to_string(list.size),
            p, &b);
    if (!leaf(p, b)) return false;
    --leaves;
    return fen_round_trip(p, b);
}

// to_fen -> parse_fen gives the position back, in X-FEN and Shredder-FEN,
// and the reference's own FEN reader reads the same position from that text.
// (A Chess960-mode position whose rights look like standard chess's reads
// back in standard mode: the mode is the caller's, as --chess960 gives it.)
bool SampleChecker::fen_round_trip(const Position& p, const ref::Board& b) {
    for (const CastlingNotation notation : {CastlingNotation::XFen, CastlingNotation::Shredder}) {
        const std::string fen = to_fen(p, notation);
        try {
            Position q = parse_fen(fen);
            if (p.chess960) q.chess960 = 1;
            if (!(q == p)) return fail("FEN round trip", "parse_fen(" + fen + ") gives " + to_fen(q), p, &b);
        } catch (const FenError& e) {
            return fail("FEN round trip", "parse_fen refuses to_fen's text " + fen + ": " + e.what(), p, &b);
        }
        try {
            if (const std::string d = identity_problem(p, ref::parse_fen(fen)); !d.empty())
                return fail("FEN round trip", "the reference reads " + fen + " with a different " + d, p, &b);
        } catch (const ref::ReferenceError& e) {
            return fail("FEN round trip", "the reference refuses " + fen + ": " + e.what(), p, &b);
        }
    }
    return true;
}

bool SampleChecker::fail(const std::string& check, const std::string& detail, const Position& p, const ref::Board* b,
                         std::vector<std::string> only_common, std::vector<std::string> only_reference) {
    Mismatch m;
    m.check = check;
    m.detail = detail;
    m.sample = sample_;
    m.root_fen = to_fen(root_);
    for (Move mv : path_) m.path.push_back(move_to_uci(mv, root_.chess960));
    m.fen = to_fen(p);
    m.reference_fen = b ? ref::to_fen(*b) : "(none)";
    m.only_common = std::move(only_common);
    m.only_reference = std::move(only_reference);
    mismatch = std::move(m);
    return false;
}

}  // namespace

std::optional<Mismatch> verify_tree(const Position& p, const ref::Board& b, int depth) {
    SampleChecker checker(-1, p);
    if (checker.tree(p, b, depth)) return std::nullopt;
    return checker.mismatch;
}

// Sample i's root: one of `roots`, or a random Chess960 (same array for
// both sides) or Double Chess960 (an array each) start position.
Position root_of(const VerifyOptions& o, const std::vector<Position>& roots, int i, Rng& rng) {
    const size_t kinds = roots.size() + (o.chess960_starts ? 2 : 0);
    const size_t k = size_t(i) % kinds;
    if (k < roots.size()) return roots[k];
    const int white = rng.below(960), black = k == roots.size() ? white : rng.below(960);
    Position p = parse_fen(chess960_fen(white, black));
    p.chess960 = 1;
    return p;
}

VerifyReport run_verify(const VerifyOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Position> roots = o.roots.empty() ? std::vector<Position>{parse_fen(START_FEN)} : o.roots;
    std::atomic<int> first_failure{INT_MAX};
    std::mutex lock;
    VerifyReport report;
    struct Local {
        uint64_t nodes = 0, leaves = 0;
    };
    // Samples after the first failure are skipped: the report names the first.
    const auto sample = [&](Local& l, size_t k) {
        const int i = int(k);
        if (i >= first_failure.load()) return;
        Rng rng{o.seed * 0x100000001B3ull + uint64_t(i)};
        const Position root = root_of(o, roots, i, rng);
        SampleChecker checker(i, root);
        bool ok = false;
        try {
            ok = checker.run(rng, rng.below(o.max_playout + 1), o.depth);
        } catch (const std::exception& e) {  // a generator threw: report it like a mismatch
            Mismatch m;
            m.check = "exception";
            m.detail = e.what();
            m.sample = i;
            m.root_fen = to_fen(root);
            checker.mismatch = m;
        }
        l.nodes += checker.nodes;
        l.leaves += checker.leaves;
        if (o.progress) o.progress->advance(1, checker.nodes);
        if (ok) return;
        std::lock_guard<std::mutex> g(lock);
        if (i < first_failure.load()) first_failure = i, report.mismatch = checker.mismatch;
    };
    parallel_reduce(size_t(std::max(o.positions, 0)), o.threads, [] { return Local{}; }, sample, [&](const Local& l) {
        report.nodes += l.nodes;
        report.leaves += l.leaves;
    });
    report.samples = std::min(o.positions, first_failure.load() == INT_MAX ? o.positions : first_failure.load() + 1);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

std::string verify_json(const VerifyOptions& o, const VerifyReport& r) {
    json::Object obj;
    obj.str("result", r.mismatch ? "mismatch" : "clean").integer("samples", r.samples);
    obj.integer("roots", o.roots.size()).boolean("chess960_starts", o.chess960_starts);
    obj.integer("depth", o.depth).integer("seed", o.seed);
    obj.integer("nodes", r.nodes).integer("leaves", r.leaves).num("seconds", r.seconds);
    if (const auto& m = r.mismatch) {
        json::Object mm;
        mm.integer("sample", m->sample).str("check", m->check).str("detail", m->detail);
        mm.str("root", m->root_fen).raw("path", json::strings(m->path)).str("position", m->fen);
        mm.str("reference_reads", m->reference_fen).raw("only_perftide", json::strings(m->only_common));
        mm.raw("only_reference", json::strings(m->only_reference));
        obj.raw("mismatch", mm.text());
    }
    return obj.text();
}

}  // namespace perftide
