// PGN games read one at a time from a stream, in constant memory: the tag
// pairs, the main line's moves as SAN, the result and the comments that
// speak of the game's end. Comments ({...}, ;...), variations, NAGs, move
// numbers and % escape lines are skipped. A game that cannot be read is
// returned with its error set, and reading goes on with the next game.
#pragma once

#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "inputs/line_reader.hpp"

namespace perftide::pgn {

// Caps that keep a hostile file from growing a game without bound.
constexpr size_t MAX_GAME_PLIES = 20000;
constexpr size_t MAX_TAGS = 256;
constexpr size_t MAX_TEXT_BYTES = 4096;  // a tag value, or the kept comment

struct Game {
    size_t number = 0;  // 1 for the file's first game
    size_t line = 0;    // the line where it starts
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<std::string> moves;  // the main line, as written
    std::string result;              // the movetext's termination marker ("1-0", "0-1", "1/2-1/2", "*"), if any
    std::string last_comment;        // the main line's last comment (servers write "White forfeits on time" there)
    std::string error;               // why the game cannot be read; empty when it can

    // The value of tag `name`, or "" when the game has none.
    const std::string& tag(const std::string& name) const;
};

class Reader {
   public:
    // `what` names the input in messages ("games.pgn", "stdin").
    Reader(std::istream& in, std::string what) : lines_(in, std::move(what)) {}

    // The next game; false at the end of the input. Throws only what the
    // line reader throws (a NUL byte, a line over 64 KiB) and read errors.
    bool next(Game& game);

   private:
    enum class State { Tags, Moves };
    void tag_line(Game& g, const std::string& line);
    bool movetext(Game& g, const std::string& line);  // true at the game's termination marker
    void token(Game& g, std::string word);
    bool ends_game(Game& g, const std::string& word) const;

    LineReader lines_;
    std::string held_;         // a line read ahead: the first of the next game
    bool held_valid_ = false;
    size_t games_ = 0;
    int comment_depth_ = 0;    // inside {...}, across lines (0 or 1)
    int variation_depth_ = 0;  // inside (...)
    std::string comment_;      // the comment being read
};

}  // namespace perftide::pgn
