#include "pgn/game_replay.hpp"

#include <algorithm>

#include "chess/io/fen.hpp"
#include "chess/io/san.hpp"

namespace perftide::pgn {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

bool has(const std::string& text, const char* part) { return lower(text).find(part) != std::string::npos; }

// The position the game starts from, in Chess960 mode for a Chess960 game.
chess::Position start_of(const Game& g) {
    const std::string variant = lower(g.tag("Variant"));
    const bool chess960 = variant == "chess960" || variant == "chess 960" || variant == "fischerandom" ||
                          variant == "freestyle";
    if (!variant.empty() && !chess960 && variant != "standard" && variant != "from position")
        throw std::invalid_argument("variant '" + g.tag("Variant") + "' is not chess");
    const std::string& fen = g.tag("FEN");
    if (!fen.empty() && g.tag("SetUp") == "0") throw std::invalid_argument("a FEN tag with SetUp \"0\"");
    chess::Position p;
    try {
        p = chess::parse_fen(fen.empty() ? chess::START_FEN : fen);
    } catch (const chess::FenError& e) {
        throw std::invalid_argument("FEN tag: " + std::string(e.what()));
    }
    if (chess960) p.chess960 = 1;
    return p;
}

}  // namespace

Replay replay(const Game& g) {
    Replay r;
    if (!g.error.empty()) {
        r.error = g.error;
        return r;
    }
    try {
        r.final = start_of(g);
    } catch (const std::invalid_argument& e) {
        r.error = e.what();
        return r;
    }
    for (const std::string& san : g.moves) {
        try {
            r.final = chess::apply_move(r.final, chess::parse_san(r.final, san));
        } catch (const std::invalid_argument& e) {
            r.error = "at move " + std::to_string(r.plies / 2 + 1) + (r.plies % 2 ? " (Black): " : " (White): ") + e.what();
            return r;
        }
        ++r.plies;
    }
    return r;
}

std::optional<chess::Color> flagged(const Game& g) {
    const std::string& result = g.result.empty() || g.result == "*" ? g.tag("Result") : g.result;
    if (result != "1-0" && result != "0-1") return std::nullopt;
    const std::string& t = g.tag("Termination");
    const bool on_time = has(t, "time forfeit") || has(t, "won on time") || has(t, "lost on time") ||
                         has(g.last_comment, "forfeits on time") || has(g.last_comment, "lost on time") ||
                         has(g.last_comment, "won on time");
    if (!on_time) return std::nullopt;
    return result == "1-0" ? chess::BLACK : chess::WHITE;
}

std::string describe(const Game& g) {
    std::string s = "game " + std::to_string(g.number);
    const std::string& site = !g.tag("Site").empty() ? g.tag("Site") : g.tag("Link");
    const std::string players = g.tag("White").empty() && g.tag("Black").empty() ? "" : g.tag("White") + " - " + g.tag("Black");
    if (!players.empty() || !site.empty()) s += " (" + players + (players.empty() || site.empty() ? "" : ", ") + site + ")";
    return s + ", line " + std::to_string(g.line);
}

}  // namespace perftide::pgn
