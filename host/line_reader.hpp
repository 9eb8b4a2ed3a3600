// Reading text input one bounded line at a time, so that an input without
// line ends (/dev/zero, a binary file) is refused instead of filling memory.
#pragma once

#include <filesystem>
#include <fstream>
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

// The lines of a position file that hold a position (not blank, not '#'),
// for a progress line's total: 0 (unknown) for what is not a regular file
// or has a line read_bounded_line refuses.
inline size_t count_position_lines(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return 0;
    std::ifstream in(path);
    size_t n = 0;
    try {
        std::string line;
        for (size_t k = 1; read_bounded_line(in, line, k, path); ++k) {
            const size_t start = line.find_first_not_of(" \t\r");
            n += start != std::string::npos && line[start] != '#';
        }
    } catch (const std::invalid_argument&) {
        return 0;  // the reader itself names the line
    }
    return n;
}

}  // namespace gperft
