#include "analysis/proof_game.hpp"

#include <stdexcept>
#include <unordered_map>

#include "chess/io/fen.hpp"
#include "chess/io/san.hpp"
#include "chess/movegen.hpp"
#include "chess/packed_position.hpp"
#include "output/json.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

constexpr int UNREACHABLE = 1 << 20;

// The moves each side must still make, at the least, to reach `target`:
// every square where the target has a man of a side that does not stand
// there now needs a move of that side ending there (one move fills one
// square), and every man of a side beyond the target's count must be taken,
// by a move of the other side. UNREACHABLE where men would have to appear
// (men are never added; pawns never come back).
struct Needs {
    int moves[2] = {0, 0};
};

Needs needs(const Position& p, const Diagram& target) {
    Needs n;
    int men[2] = {0, 0}, target_men[2] = {0, 0}, pawns[2] = {0, 0}, target_pawns[2] = {0, 0};
    for (int sq = 0; sq < 64; ++sq) {
        const Piece want = target.board[sq], have = p.piece_on(sq);
        if (have != NO_PIECE) ++men[color_of(have)], pawns[color_of(have)] += type_of(have) == PAWN;
        if (want == NO_PIECE) continue;
        const Color c = color_of(want);
        ++target_men[c], target_pawns[c] += type_of(want) == PAWN;
        n.moves[c] += have != want;
    }
    for (Color c : {WHITE, BLACK}) {
        if (men[c] < target_men[c] || pawns[c] < target_pawns[c]) {
            n.moves[WHITE] = n.moves[BLACK] = UNREACHABLE;
            return n;
        }
        n.moves[!c] = std::max(n.moves[!c], men[c] - target_men[c]);
    }
    return n;
}

// Whether `target` can still be reached in exactly `plies` plies.
bool within_reach(const Position& p, const Diagram& target, int plies) {
    const Needs n = needs(p, target);
    const int mover = (plies + 1) / 2, other = plies / 2;  // the side to move's moves, the other side's
    return n.moves[p.stm] <= mover && n.moves[!p.stm] <= other;
}

struct Key {
    PackedPosition packed;
    int plies;
    bool operator==(const Key& o) const { return packed == o.packed && plies == o.plies; }
};
struct KeyHash {
    size_t operator()(const Key& k) const {
        uint64_t h = k.packed.occupied * 0x9E3779B97F4A7C15ULL ^ k.packed.men[0] * 0xC2B2AE3D27D4EB4FULL ^
                     k.packed.men[1] * 0x165667B19E3779F9ULL ^ uint64_t(k.plies);
        return size_t(h ^ (h >> 29));
    }
};

// Counts the move paths of exactly `plies` plies from a position to the
// target, each (position, plies) once.
class PathCounter {
   public:
    PathCounter(const Diagram& target, uint64_t max_positions) : target_(target), max_(max_positions) {}

    u128 paths(const Position& p, int plies) {
        if (plies == 0) return diagram_of(p) == target_ ? 1 : 0;
        if (!within_reach(p, target_, plies)) return 0;
        const Key key{pack(canonical(p, at_)), plies};
        if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
        if (memo_.size() >= max_) throw Exhausted{};
        MoveList list;
        generate_moves(p, at_, list);
        u128 n = 0;
        for (Move m : list) n += paths(apply_move(p, m), plies - 1);
        memo_.emplace(key, n);
        return n;
    }
    uint64_t positions() const { return memo_.size(); }

    // Every line of `plies` plies from p to the target, after `prefix`.
    void lines(const Position& p, int plies, std::vector<Move>& prefix, std::vector<std::vector<Move>>& out) {
        if (plies == 0) {
            out.push_back(prefix);
            return;
        }
        MoveList list;
        generate_moves(p, at_, list);
        for (Move m : list) {
            const Position child = apply_move(p, m);
            if (paths(child, plies - 1) == 0) continue;
            prefix.push_back(m);
            lines(child, plies - 1, prefix, out);
            prefix.pop_back();
        }
    }

    struct Exhausted {};

   private:
    const Diagram& target_;
    uint64_t max_;
    Attacks at_ = host_attacks();
    std::unordered_map<Key, u128, KeyHash> memo_;
};

}  // namespace

Diagram diagram_of(const Position& p) {
    Diagram d;
    for (int sq = 0; sq < 64; ++sq) d.board[sq] = p.piece_on(sq);
    return d;
}

bool operator==(const Diagram& a, const Diagram& b) {
    for (int sq = 0; sq < 64; ++sq)
        if (a.board[sq] != b.board[sq]) return false;
    return true;
}

Diagram parse_diagram(const std::string& text) {
    const std::string placement = text.substr(0, text.find_first_of(" \t"));
    std::vector<std::string> why;
    for (const char* side : {" w", " b"}) {
        const FenReading r = read_fen(placement + side + " - - 0 1");  // FenError: no board
        if (r.refusals.empty()) {
            Diagram d;
            for (int sq = 0; sq < 64; ++sq) d.board[sq] = r.board[sq];
            return d;
        }
        why.push_back(std::string(side[1] == 'w' ? "White" : "Black") + " to move: " + r.refusals.front());
    }
    throw std::invalid_argument("the diagram " + placement + " is no legal position with either side to move (" +
                                why[0] + "; " + why[1] + ")");
}

ProofGames find_proof_games(const Diagram& target, const ProofGameOptions& o) {
    const Position start = parse_fen(START_FEN);
    PathCounter counter(target, o.max_positions);
    ProofGames r;
    try {
        for (int plies = 0; plies <= o.max_plies && !r.shortest; ++plies) {
            const u128 n = counter.paths(start, plies);
            if (n == 0) continue;
            r.shortest = plies, r.games = n;
            if (n <= o.list_limit) {
                std::vector<Move> prefix;
                counter.lines(start, plies, prefix, r.lines);
            }
        }
    } catch (const PathCounter::Exhausted&) {
        r = ProofGames{};
        r.complete = false;
    }
    r.positions = counter.positions();
    return r;
}

const char* proof_verdict(const ProofGames& r) {
    if (!r.complete) return "unknown";
    if (!r.shortest) return "none";
    return r.games == 1 ? "dual-free" : "cooked";
}

std::string proof_games_json(const std::string& placement, int max_plies, const ProofGames& r, double seconds) {
    json::Object obj;
    obj.str("diagram", placement).integer("max_plies", max_plies).str("verdict", proof_verdict(r));
    if (r.shortest)
        obj.integer("shortest", *r.shortest).cnt("games", r.games);
    else
        obj.raw("shortest", "null").raw("games", "null");
    std::vector<std::string> lines;
    for (const auto& line : r.lines) lines.push_back(proof_game_text(line));
    obj.raw("lines", json::strings(lines)).cnt("positions", r.positions).num("seconds", seconds);
    return obj.text();
}

std::string proof_game_text(const std::vector<Move>& line) {
    Position p = parse_fen(START_FEN);
    std::string text;
    for (size_t i = 0; i < line.size(); ++i) {
        if (i % 2 == 0) {
            if (i) text += ' ';
            text += std::to_string(i / 2 + 1);
            text += '.';
        }
        text += ' ';
        text += move_to_san(p, line[i]);
        p = apply_move(p, line[i]);
    }
    return text;
}

}  // namespace perftide::analysis
