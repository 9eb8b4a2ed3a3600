#include "inputs/position_line.hpp"

#include <regex>
#include <sstream>
#include <vector>

#include "chess/io/fen.hpp"

namespace perftide {

std::string fen_named(const std::string& text) { return text == "startpos" ? chess::START_FEN : text; }

chess::Position position_from(const std::string& fen, const std::string& moves, bool chess960) {
    chess::Position p = chess::parse_fen(fen_named(fen));
    if (chess960) p.chess960 = 1;
    std::istringstream in(moves);
    for (std::string m; in >> m;) p = chess::apply_move(p, chess::parse_uci_move(p, m));
    return p;
}

std::pair<std::string, std::string> split_position_line(const std::string& line) {
    const size_t semicolon = line.find(';');
    std::string head = line.substr(0, semicolon);
    head.erase(head.find_last_not_of(" \t") + 1);  // npos + 1 == 0: all blank
    std::istringstream in(head);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    auto is_number = [](const std::string& s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    const bool counters = fields.size() <= 6 && (fields.size() < 5 || is_number(fields[4])) &&
                          (fields.size() < 6 || is_number(fields[5]));
    const std::string rest = semicolon == std::string::npos ? "" : line.substr(semicolon);
    if (fields.size() == 1) return {fen_named(fields[0]), rest};  // "startpos" as --fen takes it
    if (counters || fields.size() < 4) return {head, rest};
    // Past the fourth field of the line itself, split by the same blanks as
    // the fields (any the stream skips: a \v or \f too).
    const char* blanks = " \t\n\v\f\r";
    size_t at = 0;
    for (int k = 0; k < 4 && at != std::string::npos; ++k)
        at = line.find_first_of(blanks, line.find_first_not_of(blanks, at));
    return {fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3],
            at == std::string::npos ? "" : line.substr(at)};
}

LineMetadata line_metadata(const std::string& rest_of_line) {
    LineMetadata m;
    std::string rest = rest_of_line;
    static const std::regex id_op(R"re((^|;)\s*id\s+"([^"]*)"\s*(;|$))re");
    std::smatch match;
    if (std::regex_search(rest, match, id_op)) {
        m.id = match[2];
        rest = match.prefix().str() + ";" + match.suffix().str();
    }
    const size_t a = rest.find_first_not_of(" \t;"), b = rest.find_last_not_of(" \t;");
    m.comment = a == std::string::npos ? "" : rest.substr(a, b - a + 1);
    return m;
}

}  // namespace perftide
