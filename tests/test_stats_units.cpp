// Statistics on the deep engine: the table of whole rows (a row comes back
// only for its own key and depth), rows through work units, tables and
// batches equal to the published Grand Chess Tree rows and to the run
// without a table, and from the command line a journaled statistics run
// killed with SIGKILL and resumed to the exact row in every column.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "count/stats_tt.hpp"
#include "deep/deep_perft.hpp"
#include "support/stats_check.hpp"

namespace {

using Row = chess::BasicPerftStats<chess::u128>;

// Every published cell of the table's rows 1..depth against `rows`.
void expect_published(const ::StatsTable& t, int depth, const std::vector<Row>& rows, const std::string& what) {
    ASSERT_EQ(rows.size(), size_t(depth)) << what;
    for (const PublishedRow& r : t.rows) {
        if (r.depth > depth) continue;
        for (const auto& [key, expected] : r.cells)
            EXPECT_EQ(chess::to_string(perftide::stat_column(key).value(rows[r.depth - 1])), chess::to_string(expected))
                << what << ": " << t.name << " depth " << r.depth << " column " << key;
    }
}

std::string rows_text(const std::vector<Row>& rows) {
    std::string s;
    for (const Row& r : rows) {
        for (const chess::u128 c : r.c) s += chess::to_string(c) + " ";
        s += "\n";
    }
    return s;
}

// A statistics run on the CPU with these tables, split, batches and threads.
perftide::DeepResult deep_stats(const chess::Position& root, int depth, long long hash_mb, int split, int batch_units,
                                int threads) {
    perftide::DeepOptions o;
    o.stats = true;
    o.hash_mb = hash_mb;
    o.split = split;
    o.batch_units = batch_units;
    return perftide::run_deep_perft(*perftide::open_backend(perftide::BackendChoice::Cpu, threads), root, depth, o);
}

std::string json_field(const std::string& json, const std::string& key) {
    const size_t at = json.find("\"" + key + "\": ");
    if (at == std::string::npos) return "";
    const size_t start = at + key.size() + 4;
    return json.substr(start, json.find_first_of(",}", start) - start);
}

}  // namespace

TEST(StatsUnits, TableGivesBackARowOnlyForItsKeyAndDepth) {
    perftide::StatsTable table(perftide::StatsTable::buckets_for_mb(1));
    chess::PerftStats row;
    for (int i = 0; i < chess::STAT_COUNT; ++i) row.c[i] = 1000 + i;
    const chess::Key128 key{0x1234567890abcdefULL, 0x0fedcba987654321ULL};
    chess::PerftStats got;
    EXPECT_FALSE(table.probe(key, 4, got));
    table.store(key, 4, row);
    ASSERT_TRUE(table.probe(key, 4, got));
    for (int i = 0; i < chess::STAT_COUNT; ++i) EXPECT_EQ(got.c[i], row.c[i]) << i;
    EXPECT_FALSE(table.probe(key, 5, got));  // another remaining depth
    // Same bucket (low word), another position: the check word refuses it.
    EXPECT_FALSE(table.probe(chess::Key128{key.lo, key.hi ^ 1}, 4, got));
    // A second row in the bucket keeps the deeper one in the first slot.
    chess::PerftStats other = row;
    other.c[0] = 7;
    const chess::Key128 neighbour{key.lo, key.hi ^ 2};
    table.store(neighbour, 3, other);
    ASSERT_TRUE(table.probe(key, 4, got));
    EXPECT_EQ(got.c[0], row.c[0]);
    ASSERT_TRUE(table.probe(neighbour, 3, got));
    EXPECT_EQ(got.c[0], 7u);
}

// Through the table, units and small batches on two threads; the same rows
// with no table; every Grand Chess Tree column.
TEST(StatsUnits, TablesAndUnitsGiveThePublishedRows) {
    struct Case {
        const char* file;
        int depth;
    };
    for (const Case& c : {Case{"perft/grandchesstree_p0_results.json", 6}, Case{"perft/grandchesstree_p1_results.json", 5}}) {
        const ::StatsTable t = read_gct_table(c.file);
        const chess::Position root = chess::parse_fen(t.fen);
        const perftide::DeepResult tabled = deep_stats(root, c.depth, 16, 2, 8, 2);
        expect_published(t, c.depth, tabled.stats, "table, split 2");
        EXPECT_GT(tabled.hash_mb, 0u);
        EXPECT_EQ(tabled.perft.nodes, tabled.stats.back().c[0]);
        const perftide::DeepResult bare = deep_stats(root, c.depth, 0, 3, 0, 2);
        EXPECT_EQ(bare.hash_mb, 0u);
        EXPECT_EQ(rows_text(bare.stats), rows_text(tabled.stats)) << t.name;
        // No split: the root is one batch of its own.
        const perftide::DeepResult whole = deep_stats(root, c.depth - 1, 16, 0, 0, 1);
        expect_published(t, c.depth - 1, whole.stats, "table, no split");
    }
}

TEST(StatsUnits, KilledJournaledRunResumesToTheExactRow) {
    const std::string journal = "/tmp/perftide_stats_units_" + std::to_string(getpid()) + ".journal";
    const std::string out = journal + ".out";
    std::remove(journal.c_str());
    const std::string args =
        "perft --stats --depth 7 --backend cpu --threads 1 --split 3 --hash 16 --batch-units 8 --quiet --json --journal " +
        journal;
    const pid_t pid = spawn_perftide(args, out, 2);
    wait_for_lines(journal, 1 + 24);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";
    EXPECT_EQ(slurp(out), "");
    EXPECT_NE(slurp(journal).find(" stats fen "), std::string::npos) << slurp(journal).substr(0, 200);
    const int finished = count_lines(slurp(journal)) - 1;
    ASSERT_GE(finished, 24);

    const auto resumed = run_perftide(args);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(json_field(resumed.out, "units_resumed"), std::to_string(finished));
    // Every published column of every ply, from the resumed run's JSON.
    const ::StatsTable t = read_gct_table("perft/grandchesstree_p0_results.json");
    const testjson::Value doc = testjson::parse(resumed.out);
    ASSERT_EQ(doc["stats"].items.size(), 7u);
    int cells = 0;
    for (const PublishedRow& r : t.rows) {
        if (r.depth > 7) continue;
        for (const auto& [key, expected] : r.cells) {
            EXPECT_EQ(doc["stats"].items[r.depth - 1][key].text, chess::to_string(expected)) << "ply " << r.depth << " " << key;
            ++cells;
        }
    }
    EXPECT_GE(cells, 7 * 14);

    // A plain perft run refuses the statistics journal, and the other way round.
    const auto plain = run_perftide("perft --depth 6 --backend cpu --split 3 --quiet --journal " + journal);
    EXPECT_EQ(plain.status, 2);
    EXPECT_NE(plain.err.find("holds statistics rows (perft --stats), this run counts plain perft"), std::string::npos)
        << plain.err;
    std::remove(journal.c_str());
    const auto counted = run_perftide("perft --depth 5 --backend cpu --split 2 --quiet --journal " + journal);
    ASSERT_EQ(counted.status, 0) << counted.err;
    const auto stats = run_perftide("perft --stats --depth 5 --backend cpu --split 2 --quiet --journal " + journal);
    EXPECT_EQ(stats.status, 2);
    EXPECT_NE(stats.err.find("holds plain perft counts, this run counts statistics rows"), std::string::npos)
        << stats.err;
    EXPECT_EQ(stats.out, "");
    std::remove(journal.c_str());
    std::remove(out.c_str());
}

// Options the statistics run cannot honour are refused, not ignored.
TEST(StatsUnits, RefusesTheLosslessHostTable) {
    const auto r = run_perftide("perft --stats --depth 5 --backend cpu --host-hash 16");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--host-hash"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
}
