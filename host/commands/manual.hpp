// The manual page (man 1) and the bash completion, made from the same CLI11
// option definitions that --help prints, so neither can drift from it. The
// build runs `perftide --man-page` and `--bash-completion` to install them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace perftide::cli {

// roff text for perftide(1): every subcommand with every option.
std::string man_page(const CLI::App& app, const std::string& version);
// A bash script completing subcommands and each subcommand's options.
std::string bash_completion(const CLI::App& app);

}  // namespace perftide::cli
