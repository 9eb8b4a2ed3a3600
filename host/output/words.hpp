// Counts in words for messages and summary lines: "1 game", "2 games", so
// that a count of one never reads "1 games".
#pragma once

#include <string>

namespace perftide {

inline std::string counted(unsigned long long n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace perftide
