// Decimal text for 128-bit counts (host only).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "chess/count.hpp"

namespace chess {

inline std::string to_string(u128 v) {
    if (v == 0) return "0";
    char buf[40];  // 2^128 has 39 digits
    char* p = buf + sizeof buf;
    while (v) {
        *--p = char('0' + int(v % 10));
        v /= 10;
    }
    return std::string(p, buf + sizeof buf);
}

// Parses a non-negative decimal count; nullopt on anything else or overflow.
inline std::optional<u128> parse_u128(std::string_view s) {
    if (s.empty() || s.size() > 39) return std::nullopt;
    u128 v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        const u128 next = v * 10 + u128(c - '0');
        if (next / 10 != v) return std::nullopt;
        v = next;
    }
    return v;
}

}  // namespace chess
