// common/base: parallel loops and the machine probe.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/machine.hpp"
#include "base/parallel.hpp"

namespace {

// Every index once, whatever the thread count; merge once a thread at most.
TEST(Parallel, ReduceVisitsEveryIndexOnceAndMergesEachThread) {
    for (const int threads : {1, 2, 3, 8, 0}) {
        for (const size_t n : {size_t(0), size_t(1), size_t(5), size_t(1000)}) {
            std::vector<int> seen(n, 0);
            uint64_t sum = 0;
            int merges = 0;
            perftide::parallel_reduce(
                n, threads, [] { return uint64_t(0); },
                [&](uint64_t& local, size_t i) {
                    local += i;
                    ++seen[i];  // each index goes to one thread only
                },
                [&](const uint64_t& local) {
                    sum += local;
                    ++merges;
                });
            EXPECT_EQ(sum, n * (n ? n - 1 : 0) / 2) << threads << " threads, n " << n;
            for (size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << i;
            const int most = threads > 0 ? threads : perftide::machine::default_threads();
            EXPECT_GE(merges, 1);
            EXPECT_LE(merges, std::max(1, std::min<int>(most, int(n))));
        }
    }
}

TEST(Parallel, ReduceStopsOnRequestAndThrows) {
    perftide::StopScope scope;
    size_t visited = 0;
    EXPECT_THROW(perftide::parallel_reduce(
                     1000000, 1, [] { return 0; },
                     [&](int&, size_t i) {
                         ++visited;
                         if (i == 10) perftide::StopScope::request();
                     },
                     [](const int&) {}),
                 perftide::Stopped);
    EXPECT_EQ(visited, 11u) << "no item is taken after the request";
}

// An item that throws, on any thread, ends the loop (no thread takes a new
// item after it, none merges) and its exception reaches the caller, which
// would otherwise end the process (an exception leaving a std::thread).
TEST(Parallel, ReduceHandsAnItemsExceptionToTheCaller) {
    for (const int threads : {1, 2, 4}) {
        std::atomic<size_t> visited{0};
        int merges = 0;
        try {
            perftide::parallel_reduce(
                100000, threads, [] { return 0; },
                [&](int&, size_t i) {
                    ++visited;
                    if (i == 100) throw std::runtime_error("disk full");
                },
                [&](const int&) { ++merges; });
            FAIL() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "disk full");
        }
        EXPECT_LT(visited.load(), 100000u) << threads << " threads";
        EXPECT_EQ(merges, 0) << threads << " threads";
    }
}

// MemTotal in bytes, from the kernel.
uint64_t mem_total() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    while (meminfo >> key >> kb) {
        if (key == "MemTotal:") return kb << 10;
        meminfo.ignore(64, '\n');
    }
    return 0;
}

// Every error's exit status follows from its kind: input 2, output 4,
// anything else 3 (no result).
TEST(Errors, TheStatusFollowsTheKind) {
    struct Refused : perftide::InputError {
        using InputError::InputError;
    };
    EXPECT_EQ(perftide::exit_status_of(Refused("no room")), perftide::EXIT_BAD_INPUT);
    EXPECT_EQ(perftide::exit_status_of(std::invalid_argument("bad")), perftide::EXIT_BAD_INPUT);
    EXPECT_EQ(perftide::exit_status_of(perftide::OutputError("disk full")), perftide::EXIT_OUTPUT);
    EXPECT_EQ(perftide::exit_status_of(std::logic_error("bug")), perftide::EXIT_INTERNAL);
    EXPECT_EQ(perftide::exit_status_of(std::bad_alloc()), perftide::EXIT_INTERNAL);
}

// A library message names its settings once; each front end reads them in
// its own words, and a remedy names only the settings that front end has.
TEST(Errors, EachFrontEndReadsTheSettingsInItsOwnWords) {
    using perftide::Setting, perftide::Vocabulary;
    const perftide::LimitError e(Setting::Hash, 9000, 6000,
                                 perftide::named(Setting::Hash, "9000") + " MiB is more than the free memory" +
                                     perftide::advice("; give a smaller ", {Setting::Split, Setting::Hash, Setting::HostHash}));
    EXPECT_STREQ(e.what(), "--hash 9000 MiB is more than the free memory; give a smaller --split, --hash or --host-hash");
    EXPECT_EQ(e.in_words(Vocabulary::Uci), "Hash 9000 MiB is more than the free memory; give a smaller Hash");
    EXPECT_EQ(e.in_words(Vocabulary::Python), "hash_mib=9000 MiB is more than the free memory; give a smaller hash_mib");
    EXPECT_EQ(e.setting, Setting::Hash);
    EXPECT_EQ(e.asked, 9000);
    EXPECT_EQ(e.limit, 6000);
    // Where a front end has none of the remedies, the advice goes; a
    // setting it lacks is said in plain words; a word value is quoted in Python.
    const std::string text = perftide::named(Setting::WorkDir, "/tmp/x") + " is full" +
                             perftide::advice(" (", {Setting::WorkDir}, " keeps a frontier on disk)");
    EXPECT_EQ(perftide::in_words(text, Vocabulary::Cli), "--work-dir /tmp/x is full (--work-dir keeps a frontier on disk)");
    EXPECT_EQ(perftide::in_words(text, Vocabulary::Uci), "the work directory /tmp/x is full");
    EXPECT_EQ(perftide::in_words(perftide::named(Setting::Backend, "gpu"), Vocabulary::Python), "backend='gpu'");
    // Text without settings, and a stray marker, come through unchanged.
    EXPECT_EQ(perftide::in_words("{hash} 1-0", Vocabulary::Python), "{hash} 1-0");
    EXPECT_EQ(perftide::in_words("a\x1f" "b", Vocabulary::Uci), "a\x1f" "b");
    EXPECT_EQ(perftide::message_in(std::runtime_error("plain"), Vocabulary::Uci), "plain");
    EXPECT_EQ(perftide::message_in(e, Vocabulary::Uci), e.in_words(Vocabulary::Uci));
}

TEST(Machine, AvailableMemoryIsPositiveAndWithinTheTotal) {
    const size_t bytes = perftide::machine::available_bytes();
    EXPECT_GT(bytes, 0u);
    if (const uint64_t total = mem_total()) {
        EXPECT_LE(bytes, total);
    }
    EXPECT_EQ(perftide::machine::available_mb(), perftide::machine::available_bytes() >> 20);
    EXPECT_GE(perftide::machine::default_threads(), 1);
}

}  // namespace
