#include "mpi/faults.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace perftide::dist {

namespace {

constexpr int CRASH_SIGNALS[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int STOP_SIGNALS[] = {SIGTERM, SIGINT};
constexpr int MAX_SIGNAL = 65;

// Messages are built when the handlers are installed: a handler may only
// write() what is already there.
char g_message[MAX_SIGNAL][1024];
struct sigaction g_previous[MAX_SIGNAL];

void write_message(int sig) {
    const size_t n = std::strlen(g_message[sig]);
    for (size_t off = 0; off < n;) {
        const ssize_t w = write(STDERR_FILENO, g_message[sig] + off, n - off);
        if (w <= 0) break;
        off += size_t(w);
    }
}

// Writes the line, puts the previous handler back and lets the signal
// reach it (it is blocked until this handler returns).
void on_signal(int sig) {
    write_message(sig);
    sigaction(sig, &g_previous[sig], nullptr);
    raise(sig);
}

void install(int sig, const std::string& text) {
    std::snprintf(g_message[sig], sizeof g_message[sig], "%s\n", text.c_str());
    struct sigaction a = {};
    a.sa_handler = on_signal;
    sigemptyset(&a.sa_mask);
    sigaction(sig, &a, &g_previous[sig]);
}

}  // namespace

void install_crash_reporter(const std::string& rank_name) {
    for (int sig : CRASH_SIGNALS)
        install(sig, "perftide: " + rank_name + " pid " + std::to_string(getpid()) + " died on signal " +
                         std::to_string(sig) + " (" + strsignal(sig) + ")");
}

StopReporter::StopReporter(const std::string& rank_name, const std::string& resume_hint) {
    for (int sig : STOP_SIGNALS)
        install(sig, "perftide: " + rank_name + ": stopped by signal " + std::to_string(sig) + " (" + strsignal(sig) +
                         ") before the count was complete, no total printed; " + resume_hint);
}

StopReporter::~StopReporter() {
    for (int sig : STOP_SIGNALS) sigaction(sig, &g_previous[sig], nullptr);
}

TestFault parse_test_fault(const std::string& text) {
    TestFault f;
    const size_t a = text.find(':'), b = a == std::string::npos ? a : text.find(':', a + 1);
    try {
        if (b == std::string::npos) throw std::invalid_argument("");
        size_t used = 0;
        f.rank = std::stoi(text.substr(0, a), &used);
        if (used != a) throw std::invalid_argument("");
        f.after_units = std::stoul(text.substr(a + 1, b - a - 1), &used);
        if (used != b - a - 1) throw std::invalid_argument("");
    } catch (const std::logic_error&) {
        throw std::invalid_argument("PERFTIDE_TEST_FAULT='" + text + "' is not RANK:UNITS:MODE");
    }
    f.mode = text.substr(b + 1);
    if (f.rank < 1 || (f.mode != "kill" && f.mode != "abort" && f.mode != "throw"))
        throw std::invalid_argument("PERFTIDE_TEST_FAULT='" + text + "': RANK must be 1 or more, MODE kill, abort or throw");
    return f;
}

std::optional<TestFault> test_fault_from_env() {
    const char* v = std::getenv("PERFTIDE_TEST_FAULT");
    if (!v || !*v) return std::nullopt;
    return parse_test_fault(v);
}

void inject_fault(const std::string& mode) {
    if (mode == "kill") raise(SIGKILL);
    if (mode == "abort") std::abort();
    throw std::runtime_error("fault injected for a test (PERFTIDE_TEST_FAULT)");
}

}  // namespace perftide::dist
