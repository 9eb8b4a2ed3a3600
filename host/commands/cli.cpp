#include "commands/cli.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "chess/io/fen.hpp"
#include "gpu/gpu_perft.hpp"
#include "output/progress.hpp"

namespace perftide::cli {

CLI::Validator file_name_validator() {
    return CLI::Validator(
        [](std::string& path) { return path.empty() ? std::string("the file name is empty") : std::string(); }, "FILE");
}

namespace {
bool same_file(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}
}  // namespace

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            const auto& [a_opt, a] = outputs[i];
            const auto& [b_opt, b] = outputs[j];
            if (a == "/dev/null" || b == "/dev/null" || !same_file(a, b)) continue;
            throw std::invalid_argument(a_opt + " " + a + " and " + b_opt + " " + b +
                                        " are one file: give each output a file of its own");
        }
}

CLI::Validator startpos_alias() {
    return CLI::Validator(
        [](std::string& fen) {
            fen = fen_named(fen);
            return std::string();
        },
        "FEN", "FEN");
}

// A FEN, or "startpos" (the start position, as UCI writes it), which is
// replaced by the start position's FEN.
CLI::Validator fen_validator() {
    return CLI::Validator(
        [](std::string& fen) {
            fen = fen_named(fen);
            try {
                chess::parse_fen(fen);
                return std::string();
            } catch (const chess::FenError& e) {
                return std::string(e.what());
            }
        },
        "FEN", "FEN");
}

// A 64-bit seed in decimal or 0x-prefixed hexadecimal.
CLI::Validator seed_validator() {
    return CLI::Validator(
        [](std::string& s) {
            const bool hex = s.starts_with("0x") || s.starts_with("0X");
            const std::string digits = hex ? s.substr(2) : s;
            const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
            if (digits.empty() || digits.find_first_not_of(allowed) != std::string::npos ||
                digits.size() > (hex ? 16u : 20u))
                return "'" + s + "' is not a 64-bit number (decimal or 0x hex)";
            errno = 0;
            const unsigned long long v = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
            if (errno == ERANGE) return "'" + s + "' does not fit in 64 bits";
            s = std::to_string(v);
            return std::string();
        },
        "SEED", "SEED");
}

CLI::Validator positive_count_validator() {
    return CLI::Validator(
        [](std::string& s) {
            char* end = nullptr;
            errno = 0;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 1 || errno == ERANGE)
                return "'" + s + "' is not a node count of 1 or more";
            return std::string();
        },
        "N", "N");
}

// Before a Range: CLI11's Range lets NaN through (no comparison with it is
// true) and answers a word with "not in range".
CLI::Validator thread_count_validator() {
    return CLI::Validator(
        [](std::string& s) {
            if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
                return "'" + s + "' is not a number of threads (a whole number from 1 to " +
                       std::to_string(MAX_THREADS) + ")";
            return std::string();
        },
        "T", "T");
}

namespace {

CLI::Validator seconds_validator() {
    return CLI::Validator(
        [](std::string& s) {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0))
                return "'" + s + "' is not a number of seconds greater than 0";
            return std::string();
        },
        "SECONDS", "SECONDS");
}

}  // namespace

CLI::Option* add_progress_option(CLI::App& app) {
    return app
        .add_option_function<double>(
            "--progress", [](const double& s) { Progress::set_log_seconds(s); },
            "Without a terminal, write a progress line every SECONDS to stderr, for logs (default: none)")
        ->check(seconds_validator())
        ->check(CLI::Range(0.1, 86400.0))
        ->option_text("SECONDS");
}

CLI::Option* add_threads_option(CLI::App& app, int& threads, const std::string& by_default) {
    return app.add_option("-t,--threads", threads, "CPU threads (default: " + by_default + ")")
        ->check(thread_count_validator())
        ->check(CLI::Range(1, MAX_THREADS));
}

CLI::Option* add_backend_option(CLI::App& app, BackendChoice& backend) {
    CLI::Option* backend_option = app.add_option("--backend", backend, "cpu, gpu, or auto (the GPU when a CUDA device is usable)")
        ->transform(CLI::Validator([](std::string& value) -> std::string {
            const std::optional<BackendChoice> b = parse_backend(value);
            if (!b) return not_a_backend(value);
            value = std::to_string(int(*b));  // CLI11 reads an enum as its number
            return "";
        }, ""))
        ->option_text("cpu|gpu|auto (default: auto)");
    app.add_option_function<uint64_t>(
           "--device-memory", [](const uint64_t& mib) { gpu::set_device_memory_limit(std::size_t(mib) << 20); },
           "Most GPU memory to take, MiB: arena and tables (or unique's frontier buffers) together (default: "
           "PERFTIDE_DEVICE_MEMORY, else three quarters of the free memory; what a call does not need is not taken)")
        ->check(CLI::Range(gpu::MIN_DEVICE_MEMORY_MIB, gpu::MAX_DEVICE_MEMORY_MIB));
    // Before any CUDA call: the device becomes the only one the runtime sees
    // (the N-th of CUDA_VISIBLE_DEVICES when that is set; under an MPI
    // launcher a rank already sees only its node-local rank's GPU).
    app.add_option_function<int>(
           "--device",
           [](const int& n) {
               const std::string refusal = gpu::choose_device(n);
               if (!refusal.empty()) throw CLI::ValidationError("--device", refusal);
           },
           "GPU to run on, 0 the first (default 0; under an MPI launcher each rank sees only its node-local rank's)")
        ->check(CLI::Range(0, 1023));
    return backend_option;
}

CLI::Option* add_chess960_flag(CLI::App& app, bool& chess960) {
    return app.add_flag("--chess960", chess960,
                        "Chess960 mode: castling written king takes rook (e1h1), as Stockfish does with "
                        "UCI_Chess960 (a FEN whose castling rights need Chess960 switches it on by itself)");
}

CLI::Option* add_shredder_flag(CLI::App& app, chess::CastlingNotation& notation) {
    return app.add_flag_callback(
        "--shredder-fen", [&notation] { notation = chess::CastlingNotation::Shredder; },
        "Write FENs with the castling rooks' files (Shredder-FEN, HAha) instead of X-FEN (KQkq)");
}

std::string join_words(const std::vector<std::string>& words, const std::string& none) {
    if (words.empty()) return none;
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

void error(const std::string& what) { std::cerr << "perftide: " << what << "\n"; }

}  // namespace perftide::cli
