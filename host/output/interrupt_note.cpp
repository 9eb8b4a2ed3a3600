#include "output/interrupt_note.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace perftide {

namespace {

// Formatted before any signal can come: the handler only looks for the
// journal (access is async-signal-safe) and writes one of the two.
struct Text {
    char bytes[4096];
    size_t length = 0;
    void set(const std::string& s) {
        length = std::min(s.size(), sizeof bytes);
        std::memcpy(bytes, s.data(), length);
    }
};
Text journal_file, kept, not_written;
struct sigaction previous_int, previous_term;

void on_signal(int sig) {
    const Text& m = access(journal_file.bytes, F_OK) == 0 ? kept : not_written;
    for (size_t off = 0; off < m.length;) {
        const ssize_t n = write(STDERR_FILENO, m.bytes + off, m.length - off);
        if (n <= 0) break;
        off += size_t(n);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

InterruptNote::InterruptNote(const std::string& journal_path) {
    // "\r\033[K" clears a progress bar the message would otherwise follow.
    const std::string clear = isatty(STDERR_FILENO) ? "\r\033[K" : "";
    journal_file.set(journal_path.substr(0, sizeof journal_file.bytes - 1) + '\0');
    kept.set(clear + "perftide: interrupted; the finished work is in the journal " + journal_path +
             ": run the same command again to resume\n");
    not_written.set(clear + "perftide: interrupted before the journal " + journal_path +
                    " was written (nothing finished is kept yet): the same command starts over\n");
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &previous_int);
    sigaction(SIGTERM, &sa, &previous_term);
}

InterruptNote::~InterruptNote() {
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGTERM, &previous_term, nullptr);
}

}  // namespace perftide
