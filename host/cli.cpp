#include "cli.hpp"

#include <cctype>
#include <iostream>
#include <map>
#include <sstream>

#include "chess/io/fen.hpp"

namespace gperft::cli {

CLI::Validator fen_validator() {
    return CLI::Validator(
        [](std::string& fen) {
            try {
                chess::parse_fen(fen);
                return std::string();
            } catch (const chess::FenError& e) {
                return std::string(e.what());
            }
        },
        "FEN", "FEN");
}

CLI::Option* add_backend_option(CLI::App& app, Backend& backend) {
    static const std::map<std::string, Backend> names{{"cpu", Backend::Cpu}, {"gpu", Backend::Gpu}, {"auto", Backend::Auto}};
    return app.add_option("--backend", backend, "cpu, gpu, or auto (the GPU when a CUDA device is usable)")
        ->transform(CLI::Validator([](std::string& value) -> std::string {
            std::string key = value;
            for (char& c : key) c = char(std::tolower((unsigned char)c));
            const auto it = names.find(key);
            if (it == names.end()) return "'" + value + "' is not a backend: use cpu, gpu or auto";
            value = std::to_string(int(it->second));  // CLI11 reads an enum as its number
            return "";
        }, ""))
        ->option_text("cpu|gpu|auto (default: auto)");
}

chess::Position position_from(const std::string& fen, const std::string& moves, bool chess960) {
    chess::Position p = chess::parse_fen(fen);
    if (chess960) p.chess960 = 1;
    std::istringstream in(moves);
    for (std::string m; in >> m;) p = chess::apply_move(p, chess::parse_uci_move(p, m));
    return p;
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

void error(const std::string& what) { std::cerr << "gperft: " << what << "\n"; }

}  // namespace gperft::cli
