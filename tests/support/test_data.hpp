// The test vectors in tests/data that several suites read: distinct
// positions per ply from the start position (OEIS A083276) and the
// published perft counts of the chessprogramming.org positions.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "chess/io/count_text.hpp"
#include "inputs/suite.hpp"

// ply -> distinct positions (OEIS A083276), as decimal text.
inline std::map<int, std::string> distinct_positions_per_ply() {
    std::ifstream f(std::string(PERFTIDE_TEST_DATA) + "/unique/a083276.txt");
    std::map<int, std::string> rows;
    for (std::string line; std::getline(f, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        int ply;
        std::string count;
        in >> ply >> count;
        rows[ply] = count;
    }
    return rows;
}

inline std::vector<perftide::SuiteEntry> cpw_positions() {
    return perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd");
}

// The published perft(depth) of `fen`, as decimal text.
inline std::string published_perft(const std::string& fen, int depth) {
    for (const auto& e : cpw_positions())
        if (e.fen == fen)
            for (const auto& [d, n] : e.expected)
                if (d == depth) return chess::to_string(n);
    return "missing from cpw_positions.epd";
}
