#include "output/interrupt_note.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace perftide {

namespace {

// Formatted before any signal can come: the handler only writes it.
char message[4096];
size_t message_length = 0;
struct sigaction previous_int, previous_term;

void on_signal(int sig) {
    for (size_t off = 0; off < message_length;) {
        const ssize_t n = write(STDERR_FILENO, message + off, message_length - off);
        if (n <= 0) break;
        off += size_t(n);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

InterruptNote::InterruptNote(const std::string& journal_path) {
    // "\r\033[K" clears a progress bar the message would otherwise follow.
    const std::string text = std::string(isatty(STDERR_FILENO) ? "\r\033[K" : "") +
                             "perftide: interrupted; the finished work is in the journal " + journal_path +
                             ": run the same command again to resume\n";
    message_length = std::min(text.size(), sizeof message);
    std::memcpy(message, text.data(), message_length);
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
