// gperft: GPU-accelerated perft and position analyzer. One file per
// subcommand registers itself here; with no subcommand the main job runs.
#include <exception>
#include <iostream>
#include <vector>

#include "chess/io/fen.hpp"
#include "cli.hpp"
#include "frontier.hpp"
#include "suite.hpp"

using namespace gperft::cli;

int main(int argc, char** argv) {
    CLI::App app{"gperft: GPU-accelerated perft and position analyzer"};
    app.set_version_flag("--version", "gperft 0.1.0");
    const std::vector<Command> commands = {setup_perft(app),   setup_suite(app),   setup_analyze(app), setup_unique(app),
                                           setup_verify(app),  setup_compare(app), setup_perftree(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        app.exit(e);
        return EXIT_BAD_INPUT;
    }
    try {
        for (const Command& c : commands)
            if (c.app->parsed()) return c.run();
        return run_default_job();
    } catch (const gperft::BackendUnavailable& e) {
        error(e.what());
    } catch (const chess::FenError& e) {
        error(e.what());
    } catch (const gperft::SuiteError& e) {
        error(e.what());
    } catch (const gperft::frontier::BudgetTooSmall& e) {
        error(e.what());
    } catch (const std::invalid_argument& e) {
        error(e.what());
    } catch (const std::exception& e) {
        error(std::string("internal error: ") + e.what());
        return 3;
    }
    return EXIT_BAD_INPUT;
}
