// A small JSON writer for machine-readable output. Counts past 2^53 go out as
// decimal strings (JSON readers lose integer precision beyond that).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "chess/io/count_text.hpp"

namespace gperft::json {

inline std::string quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
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
    Object& boolean(std::string_view key, bool v) { return raw(key, v ? "true" : "false"); }
    std::string text() const { return "{" + body_ + "}"; }
    bool empty() const { return body_.empty(); }

   private:
    std::string body_;
};

}  // namespace gperft::json
