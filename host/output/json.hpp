// A small JSON writer for machine-readable output. Counts past 2^53 go out as
// decimal strings (JSON readers lose integer precision beyond that).
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "chess/io/count_text.hpp"

namespace perftide::json {

// The length of the valid UTF-8 sequence at s[i], or 0 when the byte there
// does not start one (overlong forms and surrogates included).
inline size_t utf8_length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (b(i + k) & 0x3F);
    }
    static constexpr uint32_t MIN[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < MIN[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

// A JSON string. Text that is not valid UTF-8 (binary input) stays valid
// JSON: each stray byte is escaped as the code point of its value (\u00XX).
inline std::string quote(std::string_view s) {
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        const size_t n = utf8_length(s, i);
        if (n > 1) {
            out.append(s.substr(i, n));
            i += n;
            continue;
        }
        ++i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (n == 0 || static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

inline std::string count(chess::u128 v) {
    const std::string digits = chess::to_string(v);
    return v <= (chess::u128(1) << 53) ? digits : quote(digits);
}

inline std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// Builds one array: [value, ...]. Values are already JSON text.
class Array {
   public:
    Array& raw(std::string_view value) {
        body_ += body_.empty() ? "" : ", ";
        body_ += value;
        return *this;
    }
    Array& str(std::string_view v) { return raw(quote(v)); }
    template <std::integral T>
    Array& integer(T v) {
        return raw(std::to_string(v));
    }
    // Every integer of `values`.
    template <std::integral T>
    static std::string integers(const std::vector<T>& values) {
        Array a;
        for (T v : values) a.integer(v);
        return a.text();
    }
    std::string text() const { return "[" + body_ + "]"; }
    bool empty() const { return body_.empty(); }

   private:
    std::string body_;
};

// Builds one object: {"key": value, ...}. Values are already JSON text.
class Object {
   public:
    Object& raw(std::string_view key, std::string_view value) {
        body_ += body_.empty() ? "" : ", ";
        body_ += quote(key) + ": " + std::string(value);
        return *this;
    }
    Object& str(std::string_view key, std::string_view v) { return raw(key, quote(v)); }
    Object& cnt(std::string_view key, chess::u128 v) { return raw(key, count(v)); }
    Object& num(std::string_view key, double v) { return raw(key, number(v)); }
    template <std::integral T>
    Object& integer(std::string_view key, T v) {
        return raw(key, std::to_string(v));
    }
    Object& boolean(std::string_view key, bool v) { return raw(key, v ? "true" : "false"); }
    std::string text() const { return "{" + body_ + "}"; }
    bool empty() const { return body_.empty(); }

   private:
    std::string body_;
};

// ["a", "b", ...]: strings as a JSON array.
inline std::string strings(const std::vector<std::string>& items) {
    Array a;
    for (const std::string& s : items) a.str(s);
    return a.text();
}

}  // namespace perftide::json
