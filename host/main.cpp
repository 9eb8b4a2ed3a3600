// perftide: GPU-accelerated perft and position analyzer. One file per
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

#include "commands/cli.hpp"
#include "commands/manual.hpp"
#include "frontier/frontier.hpp"
#include "gpu/gpu_perft.hpp"
#include "mpi/session.hpp"
#include "output/build_info.hpp"

using namespace perftide::cli;

namespace {

// The options that say what this program is rather than run a command:
// --version [--json], and the hidden --man-page and --bash-completion that
// the build installs.
struct About {
    bool version = false, json = false, man = false, completion = false;
    bool asked() const { return version || man || completion; }
    std::string text(const CLI::App& app) const {
        const perftide::BuildInfo b = perftide::build_info();
        if (man) return man_page(app, b.version);
        if (completion) return bash_completion(app);
        return json ? perftide::version_json(b) : perftide::version_text(b);
    }
};

// The flags write into `about` while the app parses.
void add_about_options(CLI::App& app, About& about) {
    auto* version = app.add_flag("--version", about.version,
                                 "Print the version, commit, compilers and build features, then exit");
    app.add_flag("--json", about.json, "With --version: print it as one JSON object")->needs(version);
    app.add_flag("--man-page", about.man, "Print the manual page (roff)")->group("");
    app.add_flag("--bash-completion", about.completion, "Print the bash completion script")->group("");
}

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

// How a command that threw ends: its exit status and the message.
struct Failure {
    int status;
    std::string message;
    bool every_rank;  // each rank says it, naming itself (else rank 0 alone)
};

// The status comes from the error's kind (perftide::exit_status_of, as
// for the MPI workers); the words add the remedy where a device or memory
// ran short. Bad input is the same on every rank (they all parse the same
// arguments), so rank 0 alone reports it, except where it is about one
// rank's own disk.
Failure classify(const std::exception_ptr& thrown) {
    try {
        std::rethrow_exception(thrown);
    } catch (const perftide::frontier::WorkDirUnusable& e) {
        return {EXIT_BAD_INPUT, e.what(), true};
    } catch (const perftide::gpu::MemoryUnavailable& e) {
        return {EXIT_INTERNAL, std::string("GPU ") + e.what() + ", no result (give a smaller --device-memory or --hash)",
                true};
    } catch (const perftide::gpu::ArenaExhausted& e) {
        return {EXIT_INTERNAL, std::string("GPU ") + e.what() + ", no result (give a larger --device-memory)", true};
    } catch (const std::bad_alloc&) {
        return {EXIT_INTERNAL,
                "out of memory: an allocation failed, no result (give smaller --hash, --host-hash or --memory)", true};
    } catch (const std::exception& e) {
        const int status = perftide::exit_status_of(e);
        if (status == EXIT_INTERNAL) return {status, std::string("internal error: ") + e.what(), true};
        return {status, e.what(), status == EXIT_OUTPUT};
    } catch (...) {
        return {EXIT_INTERNAL, "internal error: an unknown exception", true};
    }
}

// Says what ended the command, where it should be said, and returns its status.
int report(const std::exception_ptr& thrown, const perftide::dist::Session& s) {
    const Failure f = classify(thrown);
    if (!f.every_rank) {
        if (s.rank() == 0) error(f.message);
    } else {
        error((s.rank() && f.status != EXIT_OUTPUT ? s.describe(s.rank()) + ": " : "") + f.message);
    }
    return f.status;
}

int run(int argc, char** argv, const perftide::dist::Session& session) {
    CLI::App app{"perftide: GPU-accelerated perft and position analyzer"};
    About about;
    add_about_options(app, about);
    const std::vector<Command> commands = {setup_perft(app),   setup_suite(app),   setup_analyze(app), setup_unique(app),
                                           setup_verify(app),  setup_compare(app), setup_perftree(app), setup_proof(app),
                                           setup_uci(app),     setup_bench(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (session.rank() != 0) return e.get_exit_code() == 0 ? EXIT_OK : EXIT_BAD_INPUT;  // rank 0 says it
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        app.exit(e);
        return EXIT_BAD_INPUT;
    }
    if (about.asked()) {
        if (session.rank() == 0) std::cout << about.text(app);
        return EXIT_OK;
    }
    try {
        for (const Command& c : commands) {
            if (!c.app->parsed()) continue;
            if (session.distributed() && !DISTRIBUTED_COMMANDS.count(c.app->get_name())) break;
            return c.run();
        }
        if (session.distributed()) {
            if (session.rank() == 0)
                error("only `perftide perft` and `perftide unique` run on several ranks; start anything else without mpirun "
                      "or srun");
            return EXIT_BAD_INPUT;
        }
        return run_default_job();
    } catch (...) {
        return report(std::current_exception(), session);
    }
    return EXIT_BAD_INPUT;
}

}  // namespace

int main(int argc, char** argv) {
    std::unique_ptr<perftide::dist::Session> session;
    try {
        session = std::make_unique<perftide::dist::Session>(argc, argv);
    } catch (const perftide::dist::LaunchError& e) {
        if (perftide::dist::launch_from_env().rank == 0) error(e.what());
        return EXIT_BAD_INPUT;
    }
    return flush_output(run(argc, argv, *session));
}
