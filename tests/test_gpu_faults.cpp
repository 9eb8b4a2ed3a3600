// What a user sees of the GPU's faults and memory refusals on the command
// line (label gpu-pipeline), through the host pipeline standing in for a
// device (PERFTIDE_HOST_GPU): planted faults, caps the device cannot give, bad
// PERFTIDE_DEVICE_MEMORY values, a device that is not there.
#include <cstdio>
#include <unistd.h>

#include "gpu/host_pipeline.hpp"
#include "support/engine_check.hpp"
#include "support/run_process.hpp"

// What a user sees when the device faults, through the host pipeline standing
// in for it (PERFTIDE_HOST_GPU) with each planted fault (PERFTIDE_HOST_GPU_FAULT):
// the fault's own message, exit 3, and no count on standard output.
ProcessResult run_faulted(const std::string& fault, const std::string& args) {
    return run_shell("PERFTIDE_HOST_GPU=1 PERFTIDE_HOST_GPU_FAULT=" + fault + " " + PERFTIDE_BINARY + " " + args +
                     " --backend gpu");
}

TEST(GpuFaults, EachPlantedFaultEndsInItsMessageAndExit3WithNoCount) {
    const std::string analyze = "analyze --no-search --json --file " + shell_quote(std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd");
    const struct {
        const char* fault;
        std::string args;
        const char* message;
    } cases[] = {
        {"generation", "perft --depth 4 --divide", "host pipeline: move generation disagreed with move counting"},
        {"generation", "perft --stats --depth 4 --json", "host pipeline: move generation disagreed with move counting"},
        {"generation", "perft --depth 5 --split 2 --quiet", "host pipeline: move generation disagreed with move counting"},
        {"arena", "perft --depth 3 --fen " + shell_quote(KIWIPETE), "GPU working memory exhausted: "},
        {"allocation", "perft --depth 4", "GPU out of memory for a working arena of "},
        {"allocation", "perft --depth 5 --split 2 --quiet", "GPU out of memory for 192 MiB of transposition tables"},
        // The GPU calls outside the level pipeline: unique's frontier and analyze's move counts.
        {"generation", "unique --depth 3", "move generation disagreed with move counting in the frontier of perftide unique"},
        {"arena", "unique --depth 3", "GPU working memory exhausted: the frontier of perftide unique"},
        {"allocation", "unique --depth 3 --json", "GPU out of memory for the frontier of perftide unique"},
        {"generation", analyze, "move generation disagreed with move counting in the move counts of analyze"},
        {"arena", analyze, "GPU working memory exhausted: the move counts of analyze"},
        {"allocation", analyze, "GPU out of memory for the move counts of analyze"},
    };
    for (const auto& c : cases) {
        const ProcessResult r = run_faulted(c.fault, c.args);
        EXPECT_EQ(r.status, 3) << c.fault << ": " << c.args << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.fault << ": " << c.args << ": " << r.err;
        EXPECT_EQ(r.out, "") << c.fault << ": " << c.args;
    }
    // An unknown kind is refused by every kind of GPU call, naming the value.
    for (const std::string& args : {std::string("perft --depth 2"), std::string("perft --stats --depth 2"),
                                    std::string("unique --depth 2"), analyze}) {
        const ProcessResult bad = run_faulted("sometimes", args);
        EXPECT_EQ(bad.status, 2) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find("PERFTIDE_HOST_GPU_FAULT=sometimes: give generation, arena or allocation"),
                  std::string::npos)
            << args << ": " << bad.err;
        EXPECT_EQ(bad.out, "") << args;
    }
}

// A journaled deep run whose device faults keeps no unit of the failed
// batch: run again without the fault, it ends at the exact count.
TEST(GpuFaults, AFaultedDeepRunJournalsNothingWrongAndResumesExactly) {
    const std::string journal = "/tmp/perftide_gpu_faults_" + std::to_string(getpid()) + ".journal";
    std::remove(journal.c_str());
    const std::string args = "perft --depth 5 --split 2 --json --journal " + journal;
    const ProcessResult faulted = run_faulted("generation", args);
    EXPECT_EQ(faulted.status, 3) << faulted.err;
    EXPECT_EQ(faulted.out, "");
    const ProcessResult again = run_shell("PERFTIDE_HOST_GPU=1 " + std::string(PERFTIDE_BINARY) + " " + args + " --backend gpu");
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("\"nodes\": 4865609,"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("\"units_resumed\": 0"), std::string::npos) << again.out;
    std::remove(journal.c_str());
}

// Device memory on the command line, through the stand-in (a pretend device
// of STAND_IN_BYTES, all free): a cap the device cannot give is refused in
// one wording by perft, statistics and unique, naming where the cap came
// from (--device-memory or PERFTIDE_DEVICE_MEMORY) and the same free memory;
// bad PERFTIDE_DEVICE_MEMORY values are refused by every GPU subcommand,
// naming the variable and the value.
TEST(GpuMemoryMessages, RefusalsNameTheirSourceInOneWording) {
    const std::string stand_in = "PERFTIDE_HOST_GPU=1 ";
    const std::string free_text = std::to_string(perftide::gpu::host::stand_in::STAND_IN_BYTES >> 20) + " MiB free";
    const std::string analyze = "analyze --no-search --file " + shell_quote(std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd");
    for (const char* args : {"perft --depth 3", "perft --stats --depth 3", "unique --depth 3"}) {
        const ProcessResult flag = run_shell(stand_in + PERFTIDE_BINARY + " " + args + " --backend gpu --device-memory 2000");
        EXPECT_EQ(flag.status, 2) << args << ": " << flag.err;
        EXPECT_NE(flag.err.find("(--device-memory 2000) is more than the device can give: "), std::string::npos)
            << args << ": " << flag.err;
        EXPECT_NE(flag.err.find(free_text), std::string::npos) << args << ": " << flag.err;
        const ProcessResult env =
            run_shell(stand_in + "PERFTIDE_DEVICE_MEMORY=2000 " + PERFTIDE_BINARY + " " + args + " --backend gpu");
        EXPECT_EQ(env.status, 2) << args << ": " << env.err;
        EXPECT_NE(env.err.find("(PERFTIDE_DEVICE_MEMORY=2000) is more than the device can give: "), std::string::npos)
            << args << ": " << env.err;
        EXPECT_NE(env.err.find(free_text), std::string::npos) << args << ": " << env.err;
        EXPECT_EQ(env.err.find("--device-memory"), std::string::npos) << args << ": " << env.err;
    }
    for (const std::string& args : {std::string("perft --depth 3"), std::string("perft --stats --depth 3"),
                                   std::string("unique --depth 3"), analyze}) {
        for (const char* bad : {"abc", "0", "-5", "12x", "10", "99999999999999999999"}) {
            const ProcessResult r = run_shell(stand_in + "PERFTIDE_DEVICE_MEMORY=" + shell_quote(bad) + " " +
                                              PERFTIDE_BINARY + " " + args + " --backend gpu");
            EXPECT_EQ(r.status, 2) << args << ", " << bad << ": " << r.err;
            EXPECT_NE(r.err.find(std::string("PERFTIDE_DEVICE_MEMORY='") + bad + "'"), std::string::npos)
                << args << ", " << bad << ": " << r.err;
            EXPECT_EQ(r.out, "") << args << ", " << bad;
        }
    }
}

// --device is checked against the devices present: the stand-in has one.
TEST(GpuMemoryMessages, DeviceChoiceIsCheckedAgainstTheStandInsOneDevice) {
    const std::string stand_in = "PERFTIDE_HOST_GPU=1 " + std::string(PERFTIDE_BINARY);
    const ProcessResult ok = run_shell(stand_in + " perft --depth 2 --backend gpu --device 0");
    EXPECT_EQ(ok.status, 0) << ok.err;
    for (const char* args : {"perft --depth 2 --backend gpu --device 3", "unique --depth 2 --backend gpu --device 1"}) {
        const ProcessResult bad = run_shell(stand_in + " " + args);
        EXPECT_EQ(bad.status, 2) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find("the host pipeline standing in for a GPU (PERFTIDE_HOST_GPU) has 1 device"), std::string::npos)
            << args << ": " << bad.err;
        EXPECT_EQ(bad.out, "") << args;
    }
}
