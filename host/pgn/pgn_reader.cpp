#include "pgn/pgn_reader.hpp"

#include <algorithm>

namespace perftide::pgn {
namespace {

bool is_result(const std::string& w) { return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*"; }

void set_error(Game& g, const std::string& why) {
    if (g.error.empty()) g.error = why;
}

void keep_text(std::string& to, const std::string& text) { to.assign(text, 0, MAX_TEXT_BYTES); }

}  // namespace

const std::string& Game::tag(const std::string& name) const {
    static const std::string none;
    for (const auto& [k, v] : tags)
        if (k == name) return v;
    return none;
}

// [Name "value"], the value with \" and \\ escapes. Import format lets a
// line hold several tag pairs ([Event "a"] [Result "1-0"]): all are read, and
// a line that goes on with anything else but a ;comment is refused (moves
// dropped there would change the game).
void Reader::tag_line(Game& g, const std::string& line) {
    const std::string where = "line " + std::to_string(lines_.line_number());
    const auto malformed = [&] {
        set_error(g, where + ": malformed tag pair (expected [Name \"value\"]): " + line.substr(0, 80));
    };
    for (size_t at = 0; at < line.size() && line[at] != ';';) {
        if (line[at] != '[')
            return set_error(g, where + ": text after a tag pair (a tag line holds only tag pairs): " +
                                    line.substr(at, 80));
        size_t i = at + 1;
        const size_t name_end = line.find_first_of(" \t\"]", i);
        const std::string name = line.substr(i, name_end == std::string::npos ? std::string::npos : name_end - i);
        i = line.find_first_not_of(" \t", name_end == std::string::npos ? line.size() : name_end);
        if (name.empty() || i == std::string::npos || line[i] != '"') return malformed();
        std::string value;
        bool closed = false;
        for (++i; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 1 < line.size()) {
                value += line[++i];
            } else if (line[i] == '"') {
                closed = true;
                break;
            } else {
                value += line[i];
            }
        }
        const size_t end = closed ? line.find_first_not_of(" \t", i + 1) : std::string::npos;
        if (!closed || end == std::string::npos || line[end] != ']') return malformed();
        if (g.tags.size() >= MAX_TAGS) return set_error(g, where + ": more than 256 tag pairs");
        value.resize(std::min(value.size(), MAX_TEXT_BYTES));
        g.tags.emplace_back(name, value);
        at = std::min(line.size(), line.find_first_not_of(" \t", end + 1));
    }
}

void Reader::token(Game& g, std::string word) {
    if (word.empty() || variation_depth_ > 0 || word[0] == '$' || word == "e.p.") return;
    // A move number, alone ("12.", "12...") or before its move ("12.e4").
    size_t k = 0;
    while (k < word.size() && word[k] >= '0' && word[k] <= '9') ++k;
    if (k < word.size() && word[k] == '.') {
        while (k < word.size() && word[k] == '.') ++k;
        word.erase(0, k);
    } else if (word.find_first_not_of(".") == std::string::npos) {
        return;
    }
    if (word.empty() || word.find_first_not_of("!?") == std::string::npos) return;  // annotation glyphs
    if (g.moves.size() >= MAX_GAME_PLIES) return set_error(g, "more than 20000 plies");
    g.moves.push_back(std::move(word));
}

// A termination marker on the main line ends the game (what follows it on
// its line is passed over).
bool Reader::ends_game(Game& g, const std::string& word) const {
    if (variation_depth_ > 0 || !is_result(word)) return false;
    g.result = word;
    return true;
}

bool Reader::movetext(Game& g, const std::string& line) {
    std::string word;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (comment_depth_) {
            if (c == '}') {
                comment_depth_ = 0;
                if (variation_depth_ == 0) keep_text(g.last_comment, comment_);
            } else if (comment_.size() < MAX_TEXT_BYTES) {
                comment_ += c;
            }
            continue;
        }
        const bool breaks = c == ' ' || c == '\t' || c == '{' || c == ';' || c == '(' || c == ')';
        if (!breaks) {
            word += c;
            continue;
        }
        if (ends_game(g, word)) return true;
        token(g, std::move(word));
        word.clear();
        if (c == '{') {
            comment_depth_ = 1;
            comment_.clear();
        } else if (c == ';') {
            if (variation_depth_ == 0) keep_text(g.last_comment, line.substr(i + 1));
            return false;
        } else if (c == '(') {
            ++variation_depth_;
        } else if (c == ')') {
            if (variation_depth_ == 0) set_error(g, "line " + std::to_string(lines_.line_number()) + ": ')' without its '('");
            else --variation_depth_;
        }
    }
    if (ends_game(g, word)) return true;
    token(g, std::move(word));
    return false;
}

bool Reader::next(Game& g) {
    g = Game{};
    comment_depth_ = variation_depth_ = 0;
    comment_.clear();
    bool started = false, in_moves = false;
    const auto start = [&] {
        if (started) return;
        started = true;
        g.number = ++games_;
        g.line = lines_.line_number();
    };
    for (std::string line;;) {
        if (held_valid_) {
            line = std::move(held_);
            held_valid_ = false;
        } else if (!lines_.next(line)) {
            break;
        }
        const size_t a = line.find_first_not_of(" \t");
        if (a == std::string::npos) continue;
        if (comment_depth_ == 0 && line[0] == '%') continue;  // an escape line
        if (comment_depth_ == 0 && line[a] == '[') {
            if (in_moves) {  // the next game's tags: this one ended without a termination marker
                held_ = std::move(line), held_valid_ = true;
                return true;
            }
            start();
            tag_line(g, line.substr(a));
            continue;
        }
        start();
        in_moves = true;
        if (movetext(g, line)) return true;
    }
    if (comment_depth_) set_error(g, "the input ends inside a {comment}");
    return started;
}

}  // namespace perftide::pgn
