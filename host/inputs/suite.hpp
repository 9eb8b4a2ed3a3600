// Perft suite files. Two formats are read:
//   EPD:          FEN ;D1 20 ;D2 400 ...   (also "; D1 20"; other EPD operations
//                 such as "bm e4" or "id \"x\"" are kept as metadata)
//   python-chess: blocks of "id NAME", "epd FEN", "perft DEPTH COUNT" lines
// '#' starts a comment line in either. Lines are read as every perftide input
// is (line_reader.hpp): a BOM skipped, LF, CRLF or CR ends, NUL refused.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "chess/count.hpp"

namespace perftide {

struct SuiteEntry {
    std::string id;                                     // the python-chess or EPD id, or "line N"
    std::string fen;                                    // as written (parsed and validated by the caller)
    std::vector<std::pair<int, chess::u128>> expected;  // (depth, count)
    int line = 0;                                       // where the entry starts
    std::string operations;  // EPD operations other than ;Dn and id, as written ("bm e4; c0 x")
};

struct SuiteError : InputError {
    using InputError::InputError;
};

// Parses a suite; throws SuiteError naming `what` and the line on malformed
// input (a depth above MAX_PERFT_DEPTH included).
std::vector<SuiteEntry> parse_suite(std::istream& in, const std::string& what);
std::vector<SuiteEntry> parse_suite(const std::string& text);
std::vector<SuiteEntry> read_suite_file(const std::string& path);

}  // namespace perftide
