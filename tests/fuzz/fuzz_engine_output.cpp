// libFuzzer target: a UCI engine's answer to `go perft N`, as the compare
// driver reads it: whole text, and line by line.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "chess/count.hpp"
#include "uci_client/perft_output.hpp"

using namespace perftide::engine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const PerftDivide d = parse_perft_output(text);
        chess::u128 sum = 0;
        for (const auto& [move, n] : d.moves) sum += n;
        if (sum != d.total) std::abort();  // accepted answers add up
    } catch (const EngineOutputError& e) {
        if (std::string(e.what()).empty()) std::abort();
    }
    if (quote_output(text).size() > 1 + 4 * 120 + 4) std::abort();  // quoted text stays short
    return 0;
}
