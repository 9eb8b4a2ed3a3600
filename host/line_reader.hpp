// Reading text input one bounded line at a time, so that an input without
// line ends (/dev/zero, a binary file) is refused instead of filling memory.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>

namespace gperft {

constexpr size_t MAX_LINE_BYTES = 64 * 1024;

// The next line of `in` into `line` (without its '\n'); false at the end.
// Throws std::invalid_argument "<what> line N is longer than 64 KiB".
inline bool read_bounded_line(std::istream& in, std::string& line, size_t line_number, const std::string& what) {
    line.clear();
    std::streambuf* buf = in.rdbuf();
    for (;;) {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            return !line.empty();
        }
        if (c == '\n') return true;
        if (line.size() >= MAX_LINE_BYTES)
            throw std::invalid_argument(what + " line " + std::to_string(line_number) + " is longer than 64 KiB");
        line.push_back(char(c));
    }
}

}  // namespace gperft
