// `perftide unique` under mpirun with three ranks on the CPU backend: the same
// stdout (text and JSON, but for the time taken) as the single-process run,
// A083276 to ply 5, --reach and --emit files identical to the single
// process's, a per-rank memory budget, and failures: a rank that fails
// cleanly is named once by rank 0, one that crashes or is killed ends the
// job without a table; with --journal, a killed rank's job resumed. Skips (visibly) without mpirun or without MPI.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <regex>

#include "chess/io/fen.hpp"
#include "chess/movegen.hpp"
#include "support/json_reader.hpp"
#include "support/mpi_cli_check.hpp"
#include "support/test_data.hpp"

namespace {

const std::string CPU1 = " --backend cpu --threads 1 ";

// The JSON object without its one field that differs between runs.
std::string without_seconds(const std::string& json) {
    return std::regex_replace(json, std::regex("\"seconds\": [-+.eE0-9]+, "), "");
}

size_t occurrences(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = 0; (at = text.find(part, at)) != std::string::npos; ++at) ++n;
    return n;
}

// The position after `plies` moves, each the first legal one that leaves
// the other side a move.
std::string after_first_moves(const std::string& fen, int plies) {
    const chess::Attacks at = chess::host_attacks();
    chess::Position p = chess::parse_fen(fen);
    for (int i = 0; i < plies; ++i) {
        chess::MoveList list;
        chess::generate_moves(p, at, list);
        int k = 0;
        while (k + 1 < list.size && chess::count_moves(chess::apply_move(p, list.moves[k]), at) == 0) ++k;
        p = chess::apply_move(p, list.moves[k]);
    }
    return chess::to_fen(p);
}

// Files named after this process, removed at the end of the test.
struct TempFiles {
    std::string base = "/tmp/perftide_mpi_unique_" + std::to_string(getpid());
    std::vector<std::string> made;
    std::string operator()(const std::string& name) { return made.emplace_back(base + "." + name); }
    ~TempFiles() {
        for (const std::string& f : made) std::remove(f.c_str());
    }
};

}  // namespace

// Text and JSON, single process and three ranks; the three ranks' JSON.
struct Outputs {
    ProcessResult text, json;
};

class MpiUnique : public MpiCli {
   protected:
    static Outputs single_and_distributed(const std::string& args, Outputs& many) {
        Outputs one{run_perftide(args), run_perftide(args + " --json")};
        many = {mpirun(args), mpirun(args + " --json")};
        return one;
    }
};

void expect_same_output(const Outputs& one, const Outputs& many, const std::string& what) {
    ASSERT_EQ(one.text.status, 0) << one.text.err;
    ASSERT_EQ(one.json.status, 0) << one.json.err;
    EXPECT_EQ(many.text.status, 0) << many.text.err;
    EXPECT_EQ(many.json.status, 0) << many.json.err;
    EXPECT_EQ(many.text.out, one.text.out) << what;
    EXPECT_EQ(without_seconds(many.json.out), without_seconds(one.json.out)) << what;
    EXPECT_TRUE(contains(many.text.err, std::to_string(RANKS) + " ranks")) << many.text.err;
}

TEST_F(MpiUnique, FromTheStartPositionIsA083276AsInOneProcess) {
    Outputs many;
    const Outputs one = single_and_distributed("unique --depth 5" + CPU1, many);
    expect_same_output(one, many, "start position");
    const testjson::Value v = testjson::parse(many.json.out);
    const std::map<int, std::string> terms = distinct_positions_per_ply();
    ASSERT_EQ(v["plies"].items.size(), 6u);
    for (int ply = 0; ply <= 5; ++ply) {
        EXPECT_EQ(v["plies"].items[size_t(ply)]["distinct"].text, terms.at(ply)) << "ply " << ply;
        if (ply > 0) {
            EXPECT_EQ(v["plies"].items[size_t(ply)]["paths"].text, published_perft(chess::START_FEN, ply));
        }
    }
}

// Diagrams are counted on rank 0 from every rank's part of each ply: the
// columns of one process (A019319, A209433, A209080 to ply 4).
TEST_F(MpiUnique, DiagramsAsInOneProcess) {
    Outputs many;
    const Outputs one = single_and_distributed("unique --depth 4 --diagrams" + CPU1, many);
    expect_same_output(one, many, "diagrams");
    const testjson::Value ply4 = testjson::parse(many.json.out)["plies"].items.at(4);
    EXPECT_EQ(ply4["diagrams"].text, "71852");
    EXPECT_EQ(ply4["diagrams_first"].text, "69731");
    EXPECT_EQ(ply4["diagrams_unique"].text, "8659");
}

TEST_F(MpiUnique, FromASuitePositionPrintsWhatOneProcessPrints) {
    // Castling, promotions, checks and mates within four plies.
    const std::string fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    Outputs many;
    const Outputs one = single_and_distributed("unique --depth 4 --fen '" + fen + "'" + CPU1, many);
    expect_same_output(one, many, fen);
    EXPECT_EQ(testjson::parse(one.json.out)["plies"].items[4]["paths"].text, published_perft(fen, 4));
}

// The emitted files hold every rank's positions, gathered on rank 0 and
// sorted as a single process sorts them: byte for byte the same files.
TEST_F(MpiUnique, ReachAndEmitMatchTheSingleProcessRun) {
    // Mates, stalemates and dead positions within three plies.
    const std::string root = "k7/8/1QN5/8/8/8/1r6/K7 w - - 0 1";
    const std::string reached = after_first_moves(root, 3), unreached = "k7/8/1Q6/8/8/8/8/K7 w - - 0 1";
    const std::string reach = " --reach '" + reached + "' --reach '" + unreached + "'";
    TempFiles tmp;
    const auto run = [&](bool distributed) {
        const std::string tag = distributed ? "many" : "one";
        const std::string args = "unique --depth 3 --dead --fen '" + root + "'" + reach + " --emit mates " +
                                 tmp("mates." + tag) + " --emit stalemates " + tmp("stalemates." + tag) +
                                 " --emit dead " + tmp("dead." + tag) + CPU1;
        return distributed ? mpirun(args) : run_perftide(args);
    };
    const ProcessResult single = run(false), many = run(true);
    ASSERT_EQ(single.status, 0) << single.err;
    ASSERT_EQ(many.status, 0) << many.err;
    EXPECT_EQ(many.out, single.out);
    EXPECT_TRUE(contains(single.out, "paths to " + reached + ": ")) << single.out;
    EXPECT_FALSE(contains(single.out, "paths to " + reached + ": 0\n")) << single.out;
    EXPECT_TRUE(contains(single.out, "paths to " + unreached + ": 0\n")) << single.out;
    for (const std::string kind : {"mates", "stalemates", "dead"}) {
        const std::string one = slurp(tmp.base + "." + kind + ".one");
        EXPECT_FALSE(one.empty()) << kind;
        EXPECT_EQ(slurp(tmp.base + "." + kind + ".many"), one) << kind;
    }

    // --reach in JSON, from the start position back to itself.
    const std::string start = "unique --depth 4 --json --reach '" + std::string(chess::START_FEN) + "'" + CPU1;
    const ProcessResult a = run_perftide(start), b = mpirun(start);
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(without_seconds(b.out), without_seconds(a.out));
    EXPECT_NE(testjson::parse(b.out)["reach"][chess::START_FEN].text, "0");
}

// --memory is each rank's budget: the plies run in several passes there,
// and the counts stay those of the single-process run.
TEST_F(MpiUnique, MemoryBudgetAppliesPerRank) {
    const ProcessResult single = run_perftide("unique --depth 4 --json" + CPU1);
    const ProcessResult many = mpirun("unique --depth 4 --json --memory 2" + CPU1);
    ASSERT_EQ(single.status, 0) << single.err;
    ASSERT_EQ(many.status, 0) << many.err;
    const testjson::Value one = testjson::parse(single.out), split = testjson::parse(many.out);
    ASSERT_EQ(split["plies"].items.size(), one["plies"].items.size());
    for (size_t i = 0; i < one["plies"].items.size(); ++i)
        for (const char* field : {"distinct", "paths", "in_check", "checkmates", "check_paths", "checkmate_paths"})
            EXPECT_EQ(split["plies"].items[i][field].text, one["plies"].items[i][field].text) << field << " ply " << i;
    EXPECT_GT(std::stoi(split["plies"].items[4]["passes"].text), 1);
}

TEST_F(MpiUnique, FailingRankIsNamedOnceByRankZero) {
    const ProcessResult r = mpirun("unique --depth 4" + CPU1, "PERFTIDE_TEST_FAULT=1:3:throw");
    EXPECT_EQ(r.status, 3);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(occurrences(r.err, "perftide: rank 1 ("), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "failed: fault injected for a test")) << r.err;
    EXPECT_TRUE(contains(r.err, "the job stopped without a total")) << r.err;
}

TEST_F(MpiUnique, CrashingOrKilledRankEndsTheJob) {
    const ProcessResult crashed = mpirun_with_a_death("unique --depth 4" + CPU1, "PERFTIDE_TEST_FAULT=2:2:abort");
    EXPECT_NE(crashed.status, 0);
    EXPECT_EQ(crashed.out, "");
    EXPECT_TRUE(std::regex_search(crashed.err, std::regex("perftide: rank 2 \\([^)]*\\) pid [0-9]+ died on signal 6")))
        << crashed.err;
    const ProcessResult killed = mpirun_with_a_death("unique --depth 4" + CPU1, "PERFTIDE_TEST_FAULT=1:3:kill");
    EXPECT_NE(killed.status, 0);
    EXPECT_EQ(killed.out, "");
    EXPECT_TRUE(std::regex_search(killed.err, std::regex("process rank 1 .* signal 9"))) << killed.err;
}

TEST_F(MpiUnique, BadInputIsReportedOnceWithStatusTwo) {
    for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
             {"unique --depth 2 --emit checks /tmp/x", "'checks' is not one of mates, stalemates, dead"},
             // Only rank 0 writes, so only rank 0 finds out.
             {"unique --depth 2 --emit mates /nonexistent/dir/x", "--emit: cannot open /nonexistent/dir/x for writing"}}) {
        const ProcessResult r = mpirun(args + CPU1);
        EXPECT_EQ(r.status, 2) << args << ": " << r.err;
        EXPECT_EQ(r.out, "") << args;
        EXPECT_EQ(occurrences(r.err, message), 1u) << args << ": " << r.err;
    }
}

// With --journal each rank keeps its own passes of the last ply (pass p is
// rank p mod ranks'), in FILE.rank<R>. A rank killed after journaling two
// passes ends the job; the same command run again resumes every rank from
// its journal and prints the single process's counts. A rank's journal is
// refused by a run that is not that rank.
TEST_F(MpiUnique, JournaledRunResumesAfterAKilledRank) {
    TempFiles files;
    const std::string journal = files("journal");
    for (int r = 0; r < RANKS; ++r) files("journal.rank" + std::to_string(r));
    const std::string args = "unique --depth 5 --passes 9 --json" + CPU1;
    const ProcessResult one = run_perftide(args);
    ASSERT_EQ(one.status, 0) << one.err;
    const ProcessResult killed = mpirun_with_a_death(args + "--journal " + journal, "PERFTIDE_TEST_PASS_FAULT=1:2:kill");
    EXPECT_NE(killed.status, 0);
    EXPECT_EQ(killed.out, "");
    EXPECT_TRUE(std::regex_search(killed.err, std::regex("process rank 1 .* signal 9"))) << killed.err;
    EXPECT_EQ(count_lines(slurp(journal + ".rank1")), 1 + 2 * 12);  // a header, then twelve counters a pass
    const ProcessResult resumed = mpirun(args + "--journal " + journal);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_TRUE(contains(resumed.err, "resuming from journal " + journal + ".rank1: 2 of the last ply's 9 passes done"))
        << resumed.err;
    const std::regex resumed_field(", \"passes_resumed\": [0-9]+");
    EXPECT_EQ(std::regex_replace(without_seconds(resumed.out), resumed_field, ""), without_seconds(one.out));
    const ProcessResult again = mpirun(args + "--journal " + journal);
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_TRUE(contains(again.out, "\"passes_resumed\": 9")) << again.out;
    const ProcessResult alone = run_perftide(args + "--journal " + journal + ".rank0");
    EXPECT_EQ(alone.status, 2);
    EXPECT_TRUE(contains(alone.err, "perftide: journal " + journal + ".rank0 is a unique journal written by " +
                                        std::to_string(RANKS) + " ranks, this run is one process: run it with " +
                                        std::to_string(RANKS) + " ranks, or use another journal file"))
        << alone.err;
    // Fewer ranks than wrote the journals: refused as such, before anything runs.
    const ProcessResult fewer = run_shell(std::string(PERFTIDE_MPIEXEC) + " " + PERFTIDE_MPIEXEC_FLAGS + " -np " +
                                          std::to_string(RANKS - 1) + " " + PERFTIDE_BINARY + " " + args +
                                          "--journal " + journal);
    EXPECT_EQ(fewer.status, 2) << fewer.err;
    EXPECT_TRUE(contains(fewer.err, "perftide: journal " + journal + ".rank0 is a unique journal written by " +
                                        std::to_string(RANKS) + " ranks, this run has " + std::to_string(RANKS - 1)))
        << fewer.err;
    EXPECT_FALSE(contains(fewer.err, "position unique rank")) << fewer.err;
}

// A journaled distributed run splits the last ply into max(--passes,
// ranks) passes, not sized by --memory: a pass that outgrows the budget
// names --passes as the remedy.
TEST_F(MpiUnique, JournaledPassThatOutgrowsTheBudgetAsksForMorePasses) {
    TempFiles files;
    const std::string journal = files("small.journal");
    for (int r = 0; r < RANKS; ++r) files("small.journal.rank" + std::to_string(r));
    const ProcessResult r = mpirun("unique --depth 5 --memory 3 --journal " + journal + CPU1);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(contains(r.err, " passes, not sized by --memory: give more --passes")) << r.err;
    EXPECT_FALSE(contains(r.err, "give more memory")) << r.err;
}

// A work directory that cannot take a rank's frontier (/proc: no space
// free) is that rank's machine's failure: every rank stops and rank 0 says
// "rank N (host) failed: ..." with the directory and both sizes, exit 2,
// journaled (every rank loads the whole ply before the last) or not.
TEST_F(MpiUnique, WorkDirWithoutTheSpaceIsARankFailure) {
    TempFiles files;
    const std::string journal = files("proc.journal");
    for (int r = 0; r < RANKS; ++r) files("proc.journal.rank" + std::to_string(r));
    const std::string args = "unique --depth 5 --memory 1 --passes 24 --work-dir /proc" + CPU1;
    for (const std::string& extra : {std::string(), "--journal " + journal}) {
        const ProcessResult r = mpirun(args + extra);
        EXPECT_EQ(r.status, 2) << extra << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_TRUE(std::regex_search(r.err, std::regex("perftide: rank [0-9]+ \\(.*\\) failed: --work-dir /proc has 0 "
                                                        "MiB free; this ply's frontier of about [0-9]+ positions needs "
                                                        "about [0-9]+ MiB.*; the job stopped without a total")))
            << extra << r.err;
        EXPECT_FALSE(contains(r.err, "internal error")) << r.err;
    }
}

// With --journal every rank loads the whole ply before the last, a piece of
// each rank's part a round (ALLGATHER_PIECE), into its own engine: past half
// of --memory, into a file of its --work-dir. Ply 4 (72,078 positions, 2.2
// MiB packed) under --memory 2 goes to disk in two rounds; the counts are
// the single process's, which keeps ply 4 on disk too (24 passes, so that
// one fits: a journaled distributed run takes max(--passes, ranks), not a
// count sized by --memory). Without --work-dir the same budget is refused,
// as in one process.
TEST_F(MpiUnique, JournaledRunLoadsThePlyBeforeTheLastIntoItsWorkDir) {
    TempFiles files;
    const std::string dir = files("work");
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
    const std::string journal = files("work.journal");
    for (int r = 0; r < RANKS; ++r) files("work.journal.rank" + std::to_string(r));
    const std::string args = "unique --depth 5 --json --memory 2 --passes 24" + CPU1;
    const ProcessResult one = run_perftide(args + "--work-dir " + dir);
    ASSERT_EQ(one.status, 0) << one.err;
    const ProcessResult many = mpirun(args + "--work-dir " + dir + " --journal " + journal);
    ASSERT_EQ(many.status, 0) << many.err;
    const std::regex resumed_field(", \"passes_resumed\": [0-9]+");
    EXPECT_EQ(std::regex_replace(without_seconds(many.out), resumed_field, ""), without_seconds(one.out));
    const ProcessResult in_memory = mpirun(args + "--journal " + journal + ".2");
    files("work.journal.2");
    for (int r = 0; r < RANKS; ++r) files("work.journal.2.rank" + std::to_string(r));
    EXPECT_NE(in_memory.status, 0);
    EXPECT_TRUE(contains(in_memory.err, "cannot hold this ply's frontiers")) << in_memory.err;
}
