// The journal's reading rules, in process: records round-trip, a torn last
// line is dropped, and every other defect (bad checksum, another run's
// header, a unit that names another position or depth, conflicting counts)
// is refused with a message saying what is wrong. Also the progress line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "journal/journal.hpp"
#include "journal/tally.hpp"
#include "output/progress.hpp"
#include "support/run_process.hpp"

using perftide::JournalHeader;
using perftide::JournalUnit;

namespace {

JournalHeader header() {
    JournalHeader h;
    h.depth = 6;
    h.split = 2;
    h.seed = 0x1234;
    h.units = 3;
    h.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    return h;
}

const std::vector<uint64_t> FINGERPRINTS = {0xaa, 0xbb, 0xcc};

std::string line(const JournalUnit& u) { return perftide::journal_line(perftide::unit_payload(u)); }
std::string head(const JournalHeader& h = header()) { return perftide::journal_line(perftide::header_payload(h)); }

// The message of the JournalError that reading `text` throws ("" if none).
std::string refusal(const std::string& text) {
    try {
        perftide::read_journal(text, header(), FINGERPRINTS, "j");
    } catch (const perftide::JournalError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Journal, RecordsRoundTrip) {
    const std::string text = head() + line({0, 0xaa, 4, {400}}) + line({2, 0xcc, 4, {9000}});
    const auto c = perftide::read_journal(text, header(), FINGERPRINTS, "j");
    EXPECT_TRUE(c.has_header);
    EXPECT_EQ(c.intact_bytes, text.size());
    ASSERT_EQ(c.done.size(), 2u);
    EXPECT_TRUE(c.done.at(0) == std::vector<chess::u128>{400} && c.done.at(2) == std::vector<chess::u128>{9000});
}

TEST(Journal, TornLastLineIsDropped) {
    const std::string good = head() + line({0, 0xaa, 4, {400}});
    for (size_t cut = 1; cut < line({1, 0xbb, 4, {77}}).size(); ++cut) {
        const std::string text = good + line({1, 0xbb, 4, {77}}).substr(0, cut);
        const auto c = perftide::read_journal(text, header(), FINGERPRINTS, "j");
        EXPECT_EQ(c.done.size(), 1u) << cut;
        EXPECT_EQ(c.intact_bytes, good.size()) << cut;
    }
    const auto empty = perftide::read_journal(head().substr(0, 10), header(), FINGERPRINTS, "j");
    EXPECT_FALSE(empty.has_header);
}

TEST(Journal, CorruptLinesAreRefused) {
    std::string flipped = line({0, 0xaa, 4, {400}});
    flipped[flipped.find("400")] = '5';  // a count changed after the checksum was taken
    EXPECT_TRUE(contains(refusal(head() + flipped), "j line 2 is corrupt")) << refusal(head() + flipped);
    EXPECT_TRUE(contains(refusal(head() + "garbage\n"), "line 2 is corrupt"));
    EXPECT_TRUE(contains(refusal(head() + "\n" + line({0, 0xaa, 4, {400}})), "line 2 is corrupt"));
    // A corrupt line in the middle is not a torn tail.
    EXPECT_TRUE(contains(refusal(head() + flipped + line({1, 0xbb, 4, {7}})), "line 2"));
    EXPECT_TRUE(contains(refusal(perftide::journal_line("unit 0 aa 4") + line({0, 0xaa, 4, {400}})), "is not a perftide journal"));
}

TEST(Journal, AnotherRunsJournalIsRefused) {
    auto with = [](auto change) {
        JournalHeader h = header();
        change(h);
        return refusal(head(h));
    };
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.depth = 7; }), "depth 7, this run has depth 6"));
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.split = 3; }), "split depth 3"));
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.seed = 99; }), "zobrist seed"));
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.version = 2; }), "format version 2"));
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.fen = "8/8/8/8/8/8/8/K6k w - - 0 1"; }), "position 8/8/8/8/8/8/8/K6k"));
    EXPECT_TRUE(contains(with([](JournalHeader& h) { h.units = 4; }), "unit count"));
}

TEST(Journal, UnitsMustBelongToThisRun) {
    EXPECT_TRUE(contains(refusal(head() + line({1, 0xcc, 4, {5}})), "unit 1 is a different position"));
    EXPECT_TRUE(contains(refusal(head() + line({3, 0xcc, 4, {5}})), "unit 3 does not exist"));
    EXPECT_TRUE(contains(refusal(head() + line({1, 0xbb, 3, {5}})), "wrong depth"));
    EXPECT_TRUE(contains(refusal(head() + line({1, 0xbb, 4, {5}}) + line({1, 0xbb, 4, {6}})), "two different counts"));
    EXPECT_EQ(refusal(head() + line({1, 0xbb, 4, {5}}) + line({1, 0xbb, 4, {5}})), "");
}

TEST(Journal, FileIsReopenedAppendedAndLocked) {
    const std::string path = "/tmp/perftide_journal_" + std::to_string(getpid());
    std::remove(path.c_str());
    {
        perftide::Journal j(path, header(), FINGERPRINTS);
        EXPECT_TRUE(j.done().empty());
        j.append({{0, 0xaa, 4, {400}}, {1, 0xbb, 4, {500}}});
        EXPECT_THROW(perftide::Journal(path, header(), FINGERPRINTS), perftide::JournalError);  // locked
    }
    { std::ofstream(path, std::ios::app) << "unit 2 00000000000000cc 4 12"; }  // torn
    {
        perftide::Journal j(path, header(), FINGERPRINTS);
        EXPECT_EQ(j.done().size(), 2u);
        j.append({{2, 0xcc, 4, {600}}});
    }
    const std::string text = slurp(path);
    EXPECT_EQ(text, head() + line({0, 0xaa, 4, {400}}) + line({1, 0xbb, 4, {500}}) + line({2, 0xcc, 4, {600}}));
    std::remove(path.c_str());
}

TEST(Journal, AnUnrelatedFileIsLeftAlone) {
    const std::string path = "/tmp/perftide_not_a_journal_" + std::to_string(getpid());
    { std::ofstream(path) << "precious notes without a newline"; }
    EXPECT_THROW(perftide::Journal(path, header(), FINGERPRINTS), perftide::JournalError);
    EXPECT_EQ(slurp(path), "precious notes without a newline");
    std::remove(path.c_str());
}

TEST(Progress, LineShowsUnitsRateAndEta) {
    EXPECT_EQ(perftide::progress_line(50, 200, 312.4e6, 65),
              "[#####...............] 50/200 units  312.4 M nodes/s  ETA 1m05s");
    // A slow count (verify's samples) keeps its digits.
    EXPECT_EQ(perftide::progress_line(3, 0, 23456, NAN, "samples"), "3 samples  23.5 k nodes/s");
    EXPECT_EQ(perftide::progress_line(3, 0, 512, NAN, "samples"), "3 samples  512 nodes/s");
    EXPECT_EQ(perftide::format_duration(7322), "2h02m");
    EXPECT_EQ(perftide::format_duration(NAN), "?");
}

// A statistics journal (perft --stats) holds a tally of rows a unit, says
// `stats` in its header, and a plain run refuses it, and the other way round.
TEST(Journal, StatisticsAndPlainJournalsRefuseEachOther) {
    JournalHeader stats = header();
    stats.stats = true;
    const std::vector<chess::u128> tally(perftide::tally_width(true, 4), 3);
    const std::string text = head(stats) + line({1, 0xbb, 4, tally});
    const auto c = perftide::read_journal(text, stats, FINGERPRINTS, "j");
    ASSERT_EQ(c.done.size(), 1u);
    EXPECT_EQ(c.done.at(1), tally);
    EXPECT_TRUE(contains(head(stats), " stats fen "));
    EXPECT_TRUE(contains(refusal(text), "the journal holds statistics rows (perft --stats), this run counts plain perft"))
        << refusal(text);
    try {
        perftide::read_journal(head() + line({1, 0xbb, 4, {5}}), stats, FINGERPRINTS, "j");
        ADD_FAILURE() << "a plain journal was read by a statistics run";
    } catch (const perftide::JournalError& e) {
        EXPECT_TRUE(contains(e.what(), "holds plain perft counts, this run counts statistics rows")) << e.what();
    }
    // A unit record with another number of counts than the run's units have.
    const std::string short_tally = head(stats) + line({1, 0xbb, 4, {1, 2, 3}});
    try {
        perftide::read_journal(short_tally, stats, FINGERPRINTS, "j");
        ADD_FAILURE() << "a unit with 3 counts was accepted";
    } catch (const perftide::JournalError& e) {
        EXPECT_TRUE(contains(e.what(), "unit 1 has 3 counts, this run's units have 56")) << e.what();
    }
    EXPECT_TRUE(contains(refusal(head() + line({1, 0xbb, 4, {5, 6}})), "unit 1 has 2 counts"));
}
