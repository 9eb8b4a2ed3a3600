// gperft: GPU-accelerated perft and position analyzer. One file per
// subcommand registers itself here; with no subcommand the main job runs.
// Started by an MPI launcher, every rank runs this same main: the options
// are parsed on each, and only rank 0 prints what they all would.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "deep/journal.hpp"
#include "dist/session.hpp"
#include "frontier.hpp"
#include "pipeline_memory.hpp"
#include "stack_arena.hpp"
#include "suite.hpp"

using namespace gperft::cli;

namespace {

// The subcommands that run on several ranks (the others refuse under a
// launcher rather than run K copies of themselves).
const std::set<std::string> DISTRIBUTED_COMMANDS = {"perft", "unique"};

// Everything printed must have reached its destination: a full disk or a
// closed stream ends in EXIT_OUTPUT with the reason, never in exit 0.
int flush_output(int status) {
    errno = 0;
    std::cout.flush();
    const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (!failed) return status;
    error(std::string("writing the result to standard output failed: ") +
          (errno ? std::strerror(errno) : "the stream is in an error state (a full disk, or a closed pipe or file)"));
    return EXIT_OUTPUT;
}

// Bad input is the same on every rank (they all parse the same arguments),
// so rank 0 alone reports it.
void input_error(const gperft::dist::Session& s, const std::string& what) {
    if (s.rank() == 0) error(what);
}

int run(int argc, char** argv, const gperft::dist::Session& session) {
    CLI::App app{"gperft: GPU-accelerated perft and position analyzer"};
    app.set_version_flag("--version", "gperft 0.1.0");
    const std::vector<Command> commands = {setup_perft(app),   setup_suite(app),   setup_analyze(app), setup_unique(app),
                                           setup_verify(app),  setup_compare(app), setup_perftree(app),
                                           setup_uci(app),     setup_bench(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (session.rank() != 0) return e.get_exit_code() == 0 ? EXIT_OK : EXIT_BAD_INPUT;  // rank 0 says it
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        app.exit(e);
        return EXIT_BAD_INPUT;
    }
    try {
        for (const Command& c : commands) {
            if (!c.app->parsed()) continue;
            if (session.distributed() && !DISTRIBUTED_COMMANDS.count(c.app->get_name())) break;
            return c.run();
        }
        if (session.distributed()) {
            if (session.rank() == 0)
                error("only `gperft perft` and `gperft unique` run on several ranks; start anything else without mpirun "
                      "or srun");
            return EXIT_BAD_INPUT;
        }
        return run_default_job();
    } catch (const gperft::BackendUnavailable& e) {
        input_error(session, e.what());
    } catch (const chess::FenError& e) {
        input_error(session, e.what());
    } catch (const gperft::SuiteError& e) {
        input_error(session, e.what());
    } catch (const gperft::frontier::BudgetTooSmall& e) {
        input_error(session, e.what());
    } catch (const gperft::JournalError& e) {
        input_error(session, e.what());
    } catch (const std::invalid_argument& e) {
        input_error(session, e.what());
    } catch (const OutputError& e) {
        error(e.what());
        return EXIT_OUTPUT;
    } catch (const gperft::gpu::MemoryUnavailable& e) {
        error((session.rank() ? session.describe(session.rank()) + ": " : "") + "GPU " + e.what() +
              ", no result (give a smaller --device-memory or --hash)");
        return EXIT_INTERNAL;
    } catch (const gperft::gpu::ArenaExhausted& e) {
        error((session.rank() ? session.describe(session.rank()) + ": " : "") + "GPU " + e.what() +
              ", no result (give a larger --device-memory)");
        return EXIT_INTERNAL;
    } catch (const std::bad_alloc&) {
        error((session.rank() ? session.describe(session.rank()) + ": " : "") +
              "out of memory: an allocation failed, no result (give smaller --hash, --host-hash or --memory)");
        return EXIT_INTERNAL;
    } catch (const std::exception& e) {
        // Not necessarily the same everywhere: each rank says it, naming itself.
        error((session.rank() ? session.describe(session.rank()) + ": " : "") + "internal error: " + e.what());
        return EXIT_INTERNAL;
    }
    return EXIT_BAD_INPUT;
}

}  // namespace

int main(int argc, char** argv) {
    std::unique_ptr<gperft::dist::Session> session;
    try {
        session = std::make_unique<gperft::dist::Session>(argc, argv);
    } catch (const gperft::dist::LaunchError& e) {
        if (gperft::dist::launch_from_env().rank == 0) error(e.what());
        return EXIT_BAD_INPUT;
    }
    return flush_output(run(argc, argv, *session));
}
