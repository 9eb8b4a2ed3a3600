// Reading text input one bounded line at a time, the same way for every file
// perftide reads (suites, perft --file, analyze, journals, UCI input): a UTF-8
// byte order mark skipped, LF, CRLF and CR line ends alike, NUL refused with
// its line number, and an input without line ends (/dev/zero, a binary file)
// refused at 64 KiB instead of filling memory.
#pragma once

#include <filesystem>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <string>

namespace perftide {

constexpr size_t MAX_LINE_BYTES = 64 * 1024;

class LineReader {
   public:
    // `what` names the input in messages: "suite file 'x.epd'", "stdin".
    LineReader(std::istream& in, std::string what) : in_(in), what_(std::move(what)) {}

    // The next line into `line` (without its end); false at the end of the
    // input. Throws std::invalid_argument "<what> line N ..." for a line
    // longer than 64 KiB or one holding a NUL byte.
    bool next(std::string& line) {
        line.clear();
        std::streambuf* buf = in_.rdbuf();
        ++number_;
        // The '\n' of a CRLF is taken here, when the next line is wanted
        // anyway, not after the CR: an interactive reader never waits for
        // the byte after a line before answering it.
        if (after_cr_ && buf->sgetc() == '\n') buf->sbumpc();
        after_cr_ = false;
        for (;;) {
            const int c = buf->sbumpc();
            if (c == EOF_CHAR) {
                in_.setstate(std::ios::eofbit);
                return !line.empty();
            }
            if (c == '\n') return true;
            if (c == '\r') return after_cr_ = true;
            if (c == 0) fail("holds a NUL byte (binary input?)");
            if (line.size() >= MAX_LINE_BYTES) fail("is longer than 64 KiB");
            line.push_back(char(c));
            if (number_ == 1 && !bom_checked_ && line.size() == 3) {
                bom_checked_ = true;
                if (line == BOM) line.clear();
            }
        }
    }

    // The number of the line `next` returned last (1 for the first).
    size_t line_number() const { return number_; }
    const std::string& what() const { return what_; }

   private:
    static constexpr int EOF_CHAR = std::char_traits<char>::eof();
    static constexpr const char* BOM = "\xEF\xBB\xBF";

    [[noreturn]] void fail(const char* why) const {
        throw std::invalid_argument(what_ + " line " + std::to_string(number_) + " " + why);
    }

    std::istream& in_;
    std::string what_;
    size_t number_ = 0;
    bool after_cr_ = false;
    bool bom_checked_ = false;
};

// Whether a line holds a position: not blank, not a '#' comment.
inline bool is_position_line(const std::string& line) {
    const size_t start = line.find_first_not_of(" \t");
    return start != std::string::npos && line[start] != '#';
}

// The lines of a position file that hold a position, for a progress line's
// total: 0 (unknown) for what is not a regular file or has a line the
// reader refuses.
inline size_t count_position_lines(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return 0;
    std::ifstream in(path, std::ios::binary);
    LineReader reader(in, path);
    size_t n = 0;
    try {
        for (std::string line; reader.next(line);) n += is_position_line(line);
    } catch (const std::invalid_argument&) {
        return 0;  // the reader itself names the line when the file is read
    }
    return n;
}

}  // namespace perftide
