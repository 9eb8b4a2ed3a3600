// Plain-text tables for terminal output: a heading row and right-aligned
// columns as wide as their widest cell.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace perftide {

class TextTable {
   public:
    explicit TextTable(std::vector<std::string> headings) : rows_{std::move(headings)} {}

    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

    void print(std::ostream& out) const {
        std::vector<size_t> width(rows_[0].size(), 0);
        for (const auto& r : rows_)
            for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
        for (const auto& r : rows_) {
            std::string line;
            for (size_t i = 0; i < width.size(); ++i) {
                const std::string cell = i < r.size() ? r[i] : "";
                line += (i ? "  " : "") + std::string(width[i] - cell.size(), ' ') + cell;
            }
            out << line << "\n";
        }
    }

   private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace perftide
