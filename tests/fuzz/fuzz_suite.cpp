// libFuzzer target: the perft suite reader (EPD and python-chess formats),
// then the FEN parser on every entry it returns.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "chess/io/fen.hpp"
#include "inputs/suite.hpp"

// The attack tables are built once, before the first input is timed.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    chess::host_attacks();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<perftide::SuiteEntry> entries;
    try {
        entries = perftide::parse_suite(text);
    } catch (const perftide::SuiteError& e) {
        if (std::string(e.what()).empty()) std::abort();
        return 0;
    }
    for (const auto& e : entries) {
        if (e.expected.empty()) std::abort();  // the reader promises counts for every entry
        try {
            chess::parse_fen(e.fen);
        } catch (const chess::FenError&) {
        }
    }
    return 0;
}
