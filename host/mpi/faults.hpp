// What a distributed run says when a rank dies. The launcher ends the whole
// job when one rank dies (Open MPI's mpirun and Slurm both do); these
// handlers add perftide's own line before it happens: a crashing rank names
// itself and its signal, and rank 0, stopped by the launcher, says that no
// total was printed and how to resume. A hook for tests makes a chosen rank
// die on purpose.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace perftide::dist {

// On SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT: writes
// "perftide: rank R (host) pid P died on signal S" and hands the signal on to
// the handler that was there before (MPI's backtrace, or the default).
void install_crash_reporter(const std::string& rank_name);

// While it lives, on SIGTERM and SIGINT (how mpirun and srun stop the
// other ranks): writes "perftide: <rank_name>: stopped by signal S before the
// count was complete, no total printed; <resume_hint>" and ends with that
// signal.
class StopReporter {
   public:
    StopReporter(const std::string& rank_name, const std::string& resume_hint);
    ~StopReporter();
    StopReporter(const StopReporter&) = delete;
    StopReporter& operator=(const StopReporter&) = delete;
};

// A fault the coordinator injects for tests, from the environment variable
// PERFTIDE_TEST_FAULT="RANK:UNITS:MODE": once UNITS units are counted, the
// next time RANK (>= 1) asks for work it is told to fail in MODE instead:
// "kill" (raise SIGKILL), "abort" (abort()) or "throw" (an exception, which
// the worker reports to rank 0).
struct TestFault {
    int rank = 0;
    size_t after_units = 0;
    std::string mode;
};
std::optional<TestFault> test_fault_from_env();
// Throws std::invalid_argument for a malformed value.
TestFault parse_test_fault(const std::string& text);

// Carries out `mode` on this process (does not return for kill and abort).
void inject_fault(const std::string& mode);

}  // namespace perftide::dist
