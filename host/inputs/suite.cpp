#include "inputs/suite.hpp"

#include <fstream>
#include <sstream>

#include "chess/io/count_text.hpp"
#include "count/perft_result.hpp"
#include "inputs/line_reader.hpp"
#include "inputs/position_line.hpp"

namespace perftide {
namespace {

std::string trim(std::string s) {
    const auto ws = " \t\r\n";
    s.erase(0, s.find_first_not_of(ws) == std::string::npos ? s.size() : s.find_first_not_of(ws));
    s.erase(s.find_last_not_of(ws) + 1);
    return s;
}

class SuiteParser {
   public:
    explicit SuiteParser(std::string what) : what_(std::move(what)) {}

    [[noreturn]] void fail(int line, const std::string& why) const {
        throw SuiteError(what_ + " line " + std::to_string(line) + ": " + why);
    }

    int depth(const std::string& s, int line) const {
        if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos)
            fail(line, "bad depth '" + s + "'");
        const int d = std::stoi(s);
        if (d > MAX_PERFT_DEPTH)
            fail(line, "depth " + s + " is deeper than perft counts (at most " + std::to_string(MAX_PERFT_DEPTH) + ")");
        return d;
    }

    // One count per depth: a second one (even an equal one) is a malformed
    // line, never two verdicts on one count.
    void add_count(SuiteEntry& e, int d, chess::u128 n, int line) const {
        for (const auto& [have, _] : e.expected)
            if (have == d) fail(line, "two counts for depth " + std::to_string(d));
        e.expected.emplace_back(d, n);
    }

    chess::u128 count(const std::string& s, int line) const {
        const auto v = chess::parse_u128(s);
        if (!v) fail(line, "bad node count '" + s + "'");
        return *v;
    }

    // "FEN ;D1 20 ;D2 400", or EPD "FIELDS bm e4; id \"x\"; D1 20;": the
    // ';'-separated operations D<depth> <count> are the counts, the others
    // metadata.
    SuiteEntry epd_line(const std::string& text, int line) const {
        auto [fen, rest] = split_position_line(text);
        SuiteEntry e{"line " + std::to_string(line), trim(fen), {}, line, ""};
        if (e.fen.empty()) fail(line, "no FEN before ';'");
        std::string others;
        std::stringstream ops(rest);
        for (std::string part; std::getline(ops, part, ';');) {
            std::stringstream op(trim(part));
            std::string name, n, extra;
            op >> name >> n;
            const bool is_depth = name.size() >= 2 && (name[0] == 'D' || name[0] == 'd') &&
                                  name.find_first_not_of("0123456789", 1) == std::string::npos;
            if (!is_depth) {
                if (!name.empty()) others += part + ";";
                continue;
            }
            if (n.empty() || (op >> extra)) fail(line, "expected ';D<depth> <count>', got ';" + part + "'");
            add_count(e, depth(name.substr(1), line), count(n, line), line);
        }
        const LineMetadata m = line_metadata(others);
        if (!m.id.empty()) e.id = m.id;
        e.operations = m.comment;
        if (e.expected.empty()) fail(line, "no ';D<depth> <count>' entries");
        return e;
    }

    std::vector<SuiteEntry> parse(std::istream& in) const;

   private:
    std::string what_;
};

std::vector<SuiteEntry> SuiteParser::parse(std::istream& in) const {
    std::vector<SuiteEntry> out;
    LineReader reader(in, what_);
    SuiteEntry* block = nullptr;  // the python-chess entry being filled
    std::string pending_id, raw;
    try {
        while (reader.next(raw)) {
            const int line = int(reader.line_number());
            const std::string s = trim(raw);
            if (s.empty() || s[0] == '#') continue;
            const auto space = s.find_first_of(" \t");
            const std::string word = s.substr(0, space);
            const std::string rest = space == std::string::npos ? "" : trim(s.substr(space));
            if (word == "id") {
                pending_id = rest;
                block = nullptr;
            } else if (word == "epd") {
                out.push_back({pending_id.empty() ? "line " + std::to_string(line) : pending_id, rest, {}, line, ""});
                block = &out.back();
                pending_id.clear();
            } else if (word == "perft") {
                if (!block) fail(line, "'perft' line before any 'epd' line");
                std::stringstream ss(rest);
                std::string d, n, extra;
                ss >> d >> n;
                if (n.empty() || (ss >> extra)) fail(line, "expected 'perft <depth> <count>'");
                add_count(*block, depth(d, line), count(n, line), line);
            } else {
                out.push_back(epd_line(s, line));
                block = nullptr;
            }
        }
    } catch (const std::invalid_argument& e) {
        throw SuiteError(e.what());  // the line reader's refusal (NUL, 64 KiB)
    }
    for (const auto& e : out)
        if (e.expected.empty()) fail(e.line, "entry '" + e.id + "' has no perft counts");
    return out;
}

}  // namespace

std::vector<SuiteEntry> parse_suite(std::istream& in, const std::string& what) { return SuiteParser(what).parse(in); }

std::vector<SuiteEntry> parse_suite(const std::string& text) {
    std::istringstream in(text);
    return parse_suite(in, "suite");
}

std::vector<SuiteEntry> read_suite_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw SuiteError("cannot open suite file '" + path + "'");
    return parse_suite(f, "suite file '" + path + "'");
}

}  // namespace perftide
