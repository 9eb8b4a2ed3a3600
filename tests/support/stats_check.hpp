// Shared by the statistics tests: the published tables (the Grand Chess Tree
// JSON results and the chessprogramming rows in cpw_stats.txt), and a check
// that computes every row up to a node budget and compares each published cell.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "count/cpu_stats.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"

// A published row of statistics: depth and column key -> value.
struct PublishedRow {
    int depth = 0;
    std::map<std::string, chess::u128> cells;  // column key -> published value
};

struct StatsTable {
    std::string name, fen;
    std::vector<PublishedRow> rows;
};

inline std::string data_path(const std::string& file) { return std::string(PERFTIDE_TEST_DATA) + "/" + file; }

// A Grand Chess Tree results file: every numeric column of every depth >= 1.
inline StatsTable read_gct_table(const std::string& file) {
    const testjson::Value doc = testjson::parse(slurp(data_path(file)));
    StatsTable t{doc["position_name"].text, doc["position_fen"].text, {}};
    for (const testjson::Value& r : doc["results"].items) {
        PublishedRow row;
        row.depth = std::stoi(r["depth"].text);
        if (row.depth == 0) continue;
        for (const perftide::StatColumn& c : perftide::stat_columns())
            if (r.has(c.key)) row.cells[c.key] = *chess::parse_u128(r[c.key].text);
        t.rows.push_back(row);
    }
    return t;
}

// cpw_stats.txt: "position NAME | FEN" then rows of the chessprogramming columns.
inline std::vector<StatsTable> read_cpw_tables() {
    static const char* const COLUMNS[] = {"nodes",  "captures",         "enpassants",    "castles",   "promotions",
                                          "checks", "discovery_checks", "double_checks", "checkmates"};
    std::ifstream in(data_path("perft/cpw_stats.txt"));
    std::vector<StatsTable> tables;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("position ", 0) == 0) {
            const size_t bar = line.find(" | ");
            tables.push_back({line.substr(9, bar - 9), line.substr(bar + 3), {}});
            continue;
        }
        std::istringstream fields(line);
        PublishedRow row;
        fields >> row.depth;
        for (const char* key : COLUMNS) {
            std::string v;
            fields >> v;
            if (v != "-") row.cells[key] = *chess::parse_u128(v);
        }
        tables.back().rows.push_back(row);
    }
    return tables;
}

inline StatsTable cpw_table(const std::string& name) {
    for (const StatsTable& t : read_cpw_tables())
        if (t.name == name) return t;
    throw std::runtime_error("cpw_stats.txt has no table '" + name + "'");
}

// Computes the table's rows whose node count is at most max_nodes and compares
// every published cell; returns how many rows were compared.
inline int check_stats_table(const StatsTable& t, double max_nodes) {
    int depth = 0;
    for (const PublishedRow& r : t.rows)
        if (double(r.cells.at("nodes")) <= max_nodes) depth = std::max(depth, r.depth);
    if (depth == 0) return 0;
    const auto computed = perftide::cpu_perft_stats(chess::parse_fen(t.fen), depth, 0);
    int compared = 0;
    for (const PublishedRow& r : t.rows) {
        if (r.depth > depth) continue;
        for (const auto& [key, expected] : r.cells)
            EXPECT_EQ(chess::to_string(perftide::stat_column(key).value(computed[r.depth - 1])),
                      chess::to_string(expected))
                << t.name << " depth " << r.depth << " column " << key;
        ++compared;
    }
    return compared;
}
