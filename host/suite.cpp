#include "suite.hpp"

#include <fstream>
#include <sstream>

#include "chess/io/count_text.hpp"
#include "line_reader.hpp"

namespace gperft {
namespace {

std::string trim(std::string s) {
    const auto ws = " \t\r\n";
    s.erase(0, s.find_first_not_of(ws) == std::string::npos ? s.size() : s.find_first_not_of(ws));
    s.erase(s.find_last_not_of(ws) + 1);
    return s;
}

[[noreturn]] void fail(int line, const std::string& what) {
    throw SuiteError("line " + std::to_string(line) + ": " + what);
}

int parse_depth(const std::string& s, int line) {
    if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos)
        fail(line, "bad depth '" + s + "'");
    return std::stoi(s);
}

chess::u128 parse_count(const std::string& s, int line) {
    const auto v = chess::parse_u128(s);
    if (!v) fail(line, "bad node count '" + s + "'");
    return *v;
}

// "FEN ;D1 20 ;D2 400"
SuiteEntry parse_epd_line(const std::string& text, int line) {
    SuiteEntry e;
    e.line = line;
    e.id = "line " + std::to_string(line);
    std::stringstream ss(text);
    std::string part;
    std::getline(ss, part, ';');
    e.fen = trim(part);
    if (e.fen.empty()) fail(line, "no FEN before ';'");
    while (std::getline(ss, part, ';')) {
        std::stringstream op(trim(part));
        std::string name, count, extra;
        op >> name >> count;
        if (name.size() < 2 || (name[0] != 'D' && name[0] != 'd') || count.empty() || (op >> extra))
            fail(line, "expected ';D<depth> <count>', got ';" + part + "'");
        e.expected.emplace_back(parse_depth(name.substr(1), line), parse_count(count, line));
    }
    if (e.expected.empty()) fail(line, "no ';D<depth> <count>' entries");
    return e;
}

}  // namespace

std::vector<SuiteEntry> parse_suite(const std::string& text) {
    std::vector<SuiteEntry> out;
    std::stringstream in(text);
    std::string raw;
    int line = 0;
    SuiteEntry* block = nullptr;  // the python-chess entry being filled
    std::string pending_id;
    while (std::getline(in, raw)) {
        ++line;
        const std::string s = trim(raw);
        if (s.empty() || s[0] == '#') continue;
        const auto space = s.find_first_of(" \t");
        const std::string word = s.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : trim(s.substr(space));
        if (word == "id") {
            pending_id = rest;
            block = nullptr;
        } else if (word == "epd") {
            out.push_back({pending_id.empty() ? "line " + std::to_string(line) : pending_id, rest, {}, line});
            block = &out.back();
            pending_id.clear();
        } else if (word == "perft") {
            if (!block) fail(line, "'perft' line before any 'epd' line");
            std::stringstream ss(rest);
            std::string depth, count, extra;
            ss >> depth >> count;
            if (count.empty() || (ss >> extra)) fail(line, "expected 'perft <depth> <count>'");
            block->expected.emplace_back(parse_depth(depth, line), parse_count(count, line));
        } else {
            out.push_back(parse_epd_line(s, line));
            block = nullptr;
        }
    }
    for (const auto& e : out)
        if (e.expected.empty()) fail(e.line, "entry '" + e.id + "' has no perft counts");
    return out;
}

std::vector<SuiteEntry> read_suite_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw SuiteError("cannot open suite file '" + path + "'");
    // Line by line, each at most 64 KiB: an endless input is refused early.
    std::string text, line;
    try {
        for (size_t n = 1; read_bounded_line(f, line, n, "suite file '" + path + "'"); ++n) text += line + '\n';
    } catch (const std::invalid_argument& e) {
        throw SuiteError(e.what());
    }
    return parse_suite(text);
}

}  // namespace gperft
