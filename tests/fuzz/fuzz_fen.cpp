// libFuzzer target: the FEN parser. Any text is refused with a message or
// accepted; an accepted position prints to a FEN that parses back to it, and
// move generation on it is well defined (list and counter agree).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "chess/io/fen.hpp"

// The attack tables are built once, before the first input is timed.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    chess::host_attacks();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    chess::Position p;
    try {
        p = chess::parse_fen(text);
    } catch (const chess::FenError& e) {
        if (std::string_view(e.what()).empty()) std::abort();  // every refusal says why
        return 0;
    }
    if (!(chess::parse_fen(chess::to_fen(p)) == p)) std::abort();
    chess::MoveList list;
    chess::generate_moves(p, chess::host_attacks(), list);
    if (chess::count_moves(p, chess::host_attacks()) != uint32_t(list.size)) std::abort();
    return 0;
}
