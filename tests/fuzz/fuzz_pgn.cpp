// libFuzzer target: the PGN reader on any bytes, then every game it returns
// played out with the SAN reader (what analyze --pgn does before it
// analyses), and the SAN writer read back on the final position's moves.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "chess/io/fen.hpp"
#include "chess/io/san.hpp"
#include "pgn/game_replay.hpp"
#include "pgn/pgn_reader.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    chess::host_attacks();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    perftide::pgn::Reader reader(in, "fuzz");
    try {
        for (perftide::pgn::Game g; reader.next(g);) {
            if (g.moves.size() > perftide::pgn::MAX_GAME_PLIES || g.tags.size() > perftide::pgn::MAX_TAGS) std::abort();
            const perftide::pgn::Replay r = perftide::pgn::replay(g);
            if (!r.error.empty()) continue;
            if (r.plies != g.moves.size()) std::abort();
            chess::MoveList list;
            chess::generate_moves(r.final, chess::host_attacks(), list);
            for (chess::Move m : list)
                if (chess::parse_san(r.final, chess::move_to_san(r.final, m)) != m) std::abort();
        }
    } catch (const std::invalid_argument&) {  // the line reader's refusals (NUL, 64 KiB)
    }
    return 0;
}
