// Runs the perftide binary through the shell and captures its exit status,
// stdout and stderr, for tests of the command-line behaviour.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

struct ProcessResult {
    int status = -1;
    std::string out, err;
};

inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// `command` is shell text (arguments already quoted as needed).
inline ProcessResult run_shell(const std::string& command) {
    const std::string base = "/tmp/perftide_test_" + std::to_string(getpid());
    const std::string full = command + " >" + base + ".out 2>" + base + ".err";
    const int raw = std::system(full.c_str());
    ProcessResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

inline ProcessResult run_perftide(const std::string& args) { return run_shell(std::string(PERFTIDE_BINARY) + " " + args); }

// The lines of `text`, without their ends.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

inline int count_lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

// Waits (a minute at most) until the file at `path` has `lines` lines: for
// tests that signal a run once its journal holds some records.
inline void wait_for_lines(const std::string& path, int lines) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        if (count_lines(slurp(path)) >= lines) return;
        if (std::chrono::steady_clock::now() > deadline) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// Starts perftide with `args` (shell words) in the background, its stdout to
// the file `out` and its stderr to fd `err` (-1: to `out` too), for tests
// that signal it; the caller waits for it (waitpid).
inline pid_t spawn_perftide(const std::string& args, const std::string& out, int err = -1) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(err < 0 ? fd : err, 2);
        execl("/bin/sh", "sh", "-c", ("exec " + std::string(PERFTIDE_BINARY) + " " + args).c_str(), (char*)nullptr);
        _exit(127);
    }
    return pid;
}
