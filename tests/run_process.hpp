// Runs the gperft binary through the shell and captures its exit status,
// stdout and stderr, for tests of the command-line behaviour.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

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
    const std::string base = "/tmp/gperft_test_" + std::to_string(getpid());
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

inline ProcessResult run_gperft(const std::string& args) { return run_shell(std::string(GPERFT_BINARY) + " " + args); }
