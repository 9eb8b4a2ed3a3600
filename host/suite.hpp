// Perft suite files. Two formats are read:
//   EPD:          FEN ;D1 20 ;D2 400 ...   (also "; D1 20", CRLF tolerated)
//   python-chess: blocks of "id NAME", "epd FEN", "perft DEPTH COUNT" lines
// '#' starts a comment line in either.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chess/count.hpp"

namespace gperft {

struct SuiteEntry {
    std::string id;   // the python-chess id, or "line N"
    std::string fen;  // as written (parsed and validated by the caller)
    std::vector<std::pair<int, chess::u128>> expected;  // (depth, count)
    int line = 0;     // where the entry starts
};

struct SuiteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses suite text; throws SuiteError naming the line on malformed input.
std::vector<SuiteEntry> parse_suite(const std::string& text);
std::vector<SuiteEntry> read_suite_file(const std::string& path);

}  // namespace gperft
