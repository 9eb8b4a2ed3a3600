// The answer a UCI engine gives to `go perft N`, in Stockfish's format:
//   e2e4: 600        one line per legal move (any order)
//   ...
//   Nodes searched: 8902
// Blank lines and "info ..." lines may appear anywhere. Parsing is strict:
// anything else, a repeated move, or a total that is not the sum of the
// lines is refused with a message quoting the offending text.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/count.hpp"

namespace perftide::engine {

struct PerftDivide {
    std::vector<std::pair<std::string, chess::u128>> moves;  // UCI move text and its count, as printed
    chess::u128 total = 0;
};

struct EngineOutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads the answer one line at a time, so a driver can stop at the last
// line (and notice garbage without waiting for more output).
class PerftOutputParser {
   public:
    // One line without its newline; returns true once "Nodes searched" has
    // been read and checked. Throws EngineOutputError on anything malformed.
    bool feed(std::string_view line);
    bool done() const { return done_; }
    const PerftDivide& result() const { return divide_; }

   private:
    PerftDivide divide_;
    std::set<std::string> seen_;
    bool done_ = false;
};

// The whole answer as text; throws EngineOutputError when it is malformed
// or ends before its "Nodes searched" line (text after that line is
// ignored).
PerftDivide parse_perft_output(std::string_view text);

// Quoted for messages, shortened and with control bytes escaped.
std::string quote_output(std::string_view text);

}  // namespace perftide::engine
