// libFuzzer target: UCI move lists as the command line takes them (--moves).
// The first line is a FEN (the start position when it is refused), the rest
// a move list played from it; every move is legal or refused with a message.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "chess/io/fen.hpp"
#include "inputs/position_line.hpp"

// The attack tables are built once, before the first input is timed.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    chess::host_attacks();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t nl = text.find('\n');
    std::string fen = text.substr(0, nl);
    const std::string moves = nl == std::string::npos ? "" : text.substr(nl + 1);
    try {
        chess::parse_fen(fen);
    } catch (const chess::FenError&) {
        fen = chess::START_FEN;
    }
    try {
        const chess::Position p = perftide::position_from(fen, moves, false);
        // A Chess960 position whose remaining rights look like standard
        // chess's reads back in standard mode: the mode is the caller's.
        chess::Position q = chess::parse_fen(chess::to_fen(p));
        if (p.chess960) q.chess960 = 1;
        if (!(q == p)) std::abort();
        q = chess::parse_fen(chess::to_fen(p, chess::CastlingNotation::Shredder));
        if (p.chess960) q.chess960 = 1;
        if (!(q == p)) std::abort();
    } catch (const std::invalid_argument& e) {
        if (std::string(e.what()).empty()) std::abort();
    }
    return 0;
}
