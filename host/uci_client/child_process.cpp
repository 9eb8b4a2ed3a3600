#include "uci_client/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace perftide::engine {
namespace {

constexpr size_t MAX_LINE = size_t(1) << 20;

std::string os_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

ChildProcess::ChildProcess(const std::string& command) {
    // Writing to a child that has gone must fail with EPIPE, not kill us.
    ::signal(SIGPIPE, SIG_IGN);
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) throw ProcessError(os_error("pipe"));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]);
        throw ProcessError(os_error("pipe"));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);  // the child gets the usual SIGPIPE back
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);  // its own process group, killed as one
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    const int rc = posix_spawn(&pid_, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    if (rc != 0) {
        ::close(to_child_), ::close(from_child_);
        pid_ = -1;
        throw ProcessError(std::string("cannot start /bin/sh: ") + std::strerror(rc));
    }
}

ChildProcess::~ChildProcess() {
    close_input();
    if (pid_ > 0) {
        exit_description(std::chrono::milliseconds(200));  // a child that stops at end of input is gone by then
        ::kill(-pid_, SIGKILL);                            // whatever is left of its process group
    }
    kill();
    if (from_child_ >= 0) ::close(from_child_);
}

void ChildProcess::close_input() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
}

bool ChildProcess::write(const std::string& text) {
    if (to_child_ < 0) return false;
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(to_child_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Deadline deadline) {
    for (;;) {
        const size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return Read::Line;
        }
        if (buffer_.size() > MAX_LINE) return Read::TooLong;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return Read::Timeout;
        pollfd p{from_child_, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left.count() + 1, 1 << 30)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) continue;  // the deadline check above decides
        char chunk[4096];
        const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (buffer_.empty()) return Read::End;
            line.swap(buffer_);  // a last line without its newline
            buffer_.clear();
            return Read::Line;
        }
        buffer_.append(chunk, size_t(n));
    }
}

std::string ChildProcess::exit_description(std::chrono::milliseconds grace) {
    const auto until = std::chrono::steady_clock::now() + grace;
    while (!reaped_ && pid_ > 0) {
        const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
        if (r == pid_ || (r < 0 && errno != EINTR)) {
            reaped_ = true;
            break;
        }
        if (std::chrono::steady_clock::now() >= until) return "is still running";
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status_)) return "exited with status " + std::to_string(WEXITSTATUS(status_));
    if (WIFSIGNALED(status_)) return "was killed by signal " + std::to_string(WTERMSIG(status_));
    return "ended";
}

void ChildProcess::kill() {
    if (pid_ <= 0 || reaped_) return;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
}

}  // namespace perftide::engine
