// The kinds of failure every front end tells apart, and the exit status each
// ends a command with. An error type says which kind it is by its base:
// InputError for bad input or a refused request (nothing was counted),
// OutputError for a result that could not be written; anything else ends
// with no result. main and the MPI workers take the status from
// exit_status_of alone; the Python module raises ValueError for InputError.
#pragma once

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "settings.hpp"

namespace perftide {

// Exit statuses (the README's): 0 success, 1 a check failed, 2 bad input or
// no room, 3 no result, 4 the result could not be written.
constexpr int EXIT_OK = 0;
constexpr int EXIT_MISMATCH = 1;   // a check failed: counts differ, engines disagree
constexpr int EXIT_BAD_INPUT = 2;  // bad arguments or input, or a backend that is not there
constexpr int EXIT_INTERNAL = 3;   // an internal error or a device fault: no result
constexpr int EXIT_OUTPUT = 4;     // the result could not be written (full disk, closed stream)

// Bad input, or a request this machine refuses (too little memory or disk,
// no device): said before anything is counted, or instead of a count. Its
// text names settings as settings.hpp says; what() words them as the
// command line does, in_words(v) as front end `v` does.
class InputError : public std::runtime_error {
   public:
    explicit InputError(const std::string& text)
        : std::runtime_error(perftide::in_words(text, Vocabulary::Cli)), text_(std::make_shared<const std::string>(text)) {}
    std::string in_words(Vocabulary v) const { return perftide::in_words(*text_, v); }

   private:
    std::shared_ptr<const std::string> text_;  // shared: copying an exception does not throw
};

// A number asked of a setting past what this run allows, with its facts:
// which setting, what was asked, and the limit (the most it allows, or the
// least it needs), in the setting's unit (MiB, plies).
struct LimitError : InputError {
    LimitError(Setting s, long long asked_for, long long limit_of, const std::string& text)
        : InputError(text), setting(s), asked(asked_for), limit(limit_of) {}
    Setting setting;
    long long asked, limit;
};

// A result file or stream that could not be written, with its name.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What `e` says, in the words of front end `v`.
inline std::string message_in(const std::exception& e, Vocabulary v) {
    if (const auto* input = dynamic_cast<const InputError*>(&e)) return input->in_words(v);
    return e.what();
}

// The exit status a command that threw `e` ends with.
inline int exit_status_of(const std::exception& e) {
    if (dynamic_cast<const InputError*>(&e) || dynamic_cast<const std::invalid_argument*>(&e)) return EXIT_BAD_INPUT;
    if (dynamic_cast<const OutputError*>(&e)) return EXIT_OUTPUT;
    return EXIT_INTERNAL;
}

}  // namespace perftide
