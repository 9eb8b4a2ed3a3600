// libFuzzer target: the reference generator's own FEN reader. Any text is
// refused with a message or accepted; an accepted board prints to a FEN that
// reads back to the same text, and its moves can be generated and played.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "verify/reference.hpp"

namespace ref = perftide::reference;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ref::Board b;
    try {
        b = ref::parse_fen(text);
    } catch (const ref::ReferenceError& e) {
        if (std::string(e.what()).empty()) std::abort();
        return 0;
    }
    const std::string fen = ref::to_fen(b);
    if (ref::to_fen(ref::parse_fen(fen)) != fen) std::abort();
    for (const ref::Move& m : ref::legal_moves(b)) ref::play(b, m);
    return 0;
}
