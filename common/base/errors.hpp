// The kinds of failure every front end tells apart, and the exit status each
// ends a command with. An error type says which kind it is by its base:
// InputError for bad input or a refused request (nothing was counted),
// OutputError for a result that could not be written; anything else ends
// with no result. main and the MPI workers take the status from
// exit_status_of alone; the Python module raises ValueError for InputError.
#pragma once

#include <exception>
#include <stdexcept>

namespace perftide {

// Exit statuses (the README's): 0 success, 1 a check failed, 2 bad input or
// no room, 3 no result, 4 the result could not be written.
constexpr int EXIT_OK = 0;
constexpr int EXIT_MISMATCH = 1;   // a check failed: counts differ, engines disagree
constexpr int EXIT_BAD_INPUT = 2;  // bad arguments or input, or a backend that is not there
constexpr int EXIT_INTERNAL = 3;   // an internal error or a device fault: no result
constexpr int EXIT_OUTPUT = 4;     // the result could not be written (full disk, closed stream)

// Bad input, or a request this machine refuses (too little memory or disk,
// no device): said before anything is counted, or instead of a count.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A result file or stream that could not be written, with its name.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The exit status a command that threw `e` ends with.
inline int exit_status_of(const std::exception& e) {
    if (dynamic_cast<const InputError*>(&e) || dynamic_cast<const std::invalid_argument*>(&e)) return EXIT_BAD_INPUT;
    if (dynamic_cast<const OutputError*>(&e)) return EXIT_OUTPUT;
    return EXIT_INTERNAL;
}

}  // namespace perftide
