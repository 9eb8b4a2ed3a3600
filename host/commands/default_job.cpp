// `perftide` with no arguments: perft of the start position at a depth that
// takes a few seconds on the backend at hand, checked against the published
// count.
#include <cstdio>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "count/cpu_perft.hpp"

namespace perftide::cli {

// Start-position perft(0..14): chessprogramming.org "Perft Results" and
// OEIS A048987.
static const char* const START_COUNTS[] = {"1",
                                           "20",
                                           "400",
                                           "8902",
                                           "197281",
                                           "4865609",
                                           "119060324",
                                           "3195901860",
                                           "84998978956",
                                           "2439530234167",
                                           "69352859712417",
                                           "2097651003696806",
                                           "62854969236701747",
                                           "1981066775000396239",
                                           "61885021521585529237"};

int run_default_job() {
    const std::unique_ptr<Backend> backend = open_backend(BackendChoice::Auto);
    const int depth = backend->gpu() ? 8 : (default_threads() >= 2 ? 7 : 6);
    std::printf("perftide: start position perft(%d) on the %s backend\n", depth, backend->gpu() ? "GPU" : "CPU");
    std::fflush(stdout);
    const PerftResult r = backend->perft(chess::parse_fen(chess::START_FEN), depth);
    const bool ok = chess::to_string(r.nodes) == START_COUNTS[depth];
    std::printf("nodes    %s\nseconds  %.3f\nnodes/s  %.0f\npublished %s: %s\n", chess::to_string(r.nodes).c_str(),
                r.seconds, r.seconds > 0 ? double(r.nodes) / r.seconds : 0.0, START_COUNTS[depth],
                ok ? "match" : "MISMATCH");
    return ok ? EXIT_OK : EXIT_MISMATCH;
}

}  // namespace perftide::cli
