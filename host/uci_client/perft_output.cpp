#include "uci_client/perft_output.hpp"

#include <cstdio>

#include "chess/io/count_text.hpp"

namespace perftide::engine {
namespace {

std::string_view trim(std::string_view s) {
    const auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && ws(s.front())) s.remove_prefix(1);
    while (!s.empty() && ws(s.back())) s.remove_suffix(1);
    return s;
}

bool is_uci_move(std::string_view m) {
    const auto square = [](std::string_view s) { return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'; };
    if (m.size() != 4 && m.size() != 5) return false;
    if (!square(m.substr(0, 2)) || !square(m.substr(2, 2))) return false;
    return m.size() == 4 || std::string_view("nbrq").find(m[4]) != std::string_view::npos;
}

chess::u128 count_of(std::string_view text, std::string_view line) {
    const auto n = chess::parse_u128(trim(text));
    if (!n) throw EngineOutputError("bad node count in " + quote_output(line));
    return *n;
}

}  // namespace

std::string quote_output(std::string_view text) {
    constexpr size_t MAX = 120;
    std::string q = "'";
    for (char c : text.substr(0, MAX)) {
        if (c >= 32 && c < 127) {
            q += c;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
            q += buf;
        }
    }
    return q + (text.size() > MAX ? "...'" : "'");
}

bool PerftOutputParser::feed(std::string_view raw) {
    if (done_) return true;
    const std::string_view line = trim(raw);
    if (line.empty() || line == "info" || line.starts_with("info ")) return false;
    constexpr std::string_view TOTAL = "Nodes searched:";
    if (line.starts_with(TOTAL)) {
        divide_.total = count_of(line.substr(TOTAL.size()), line);
        chess::u128 sum = 0;
        for (const auto& [move, n] : divide_.moves) {
            if (sum + n < sum) throw EngineOutputError("the per-move counts overflow 128 bits");
            sum += n;
        }
        if (sum != divide_.total)
            throw EngineOutputError("the per-move counts add up to " + chess::to_string(sum) + ", not to " +
                                    quote_output(line));
        return done_ = true;
    }
    const size_t colon = line.find(':');
    const std::string_view move = colon == std::string_view::npos ? line : trim(line.substr(0, colon));
    if (colon == std::string_view::npos || !is_uci_move(move))
        throw EngineOutputError("expected 'move: count' or 'Nodes searched: N', got " + quote_output(line));
    const chess::u128 n = count_of(line.substr(colon + 1), line);
    if (!seen_.insert(std::string(move)).second)
        throw EngineOutputError("move " + quote_output(move) + " is listed twice");
    divide_.moves.emplace_back(std::string(move), n);
    return false;
}

PerftDivide parse_perft_output(std::string_view text) {
    PerftOutputParser parser;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        if (parser.feed(text.substr(0, end))) return parser.result();
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    throw EngineOutputError("the answer ends before its 'Nodes searched: N' line");
}

}  // namespace perftide::engine
