// A child process run through /bin/sh -c with pipes on its stdin and
// stdout (stderr is shared with ours), read line by line with deadlines so
// that a silent or runaway child can never hang the caller. The child runs
// in its own process group: when dropped, it gets end of file on stdin and a
// moment to exit, then the whole group is killed.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace perftide::engine {

using Deadline = std::chrono::steady_clock::time_point;

struct ProcessError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class ChildProcess {
   public:
    // Starts `/bin/sh -c command`; throws ProcessError if that fails.
    explicit ChildProcess(const std::string& command);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Writes text to the child's stdin; false when the child no longer
    // reads it (it has exited or closed stdin).
    bool write(const std::string& text);

    // Closes the child's stdin (it reads end of file).
    void close_input();

    enum class Read { Line, End, Timeout, TooLong };
    // The next line of the child's stdout (without "\n" or a trailing
    // "\r"). End: the child closed its stdout; Timeout: nothing complete by
    // the deadline; TooLong: a line over 1 MiB.
    Read read_line(std::string& line, Deadline deadline);

    // How the child ended ("exited with status 3", "was killed by signal
    // 9"), waiting up to `grace` for it; "is still running" otherwise.
    std::string exit_description(std::chrono::milliseconds grace);

    // Kills the process group and reaps the child (idempotent).
    void kill();

   private:
    pid_t pid_ = -1;
    int to_child_ = -1, from_child_ = -1;
    std::string buffer_;
    int status_ = 0;
    bool reaped_ = false;
};

}  // namespace perftide::engine
