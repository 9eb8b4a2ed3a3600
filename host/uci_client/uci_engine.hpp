// Drives a UCI engine that answers `go perft N` in Stockfish's format. Every
// wait has a deadline; an engine that dies, stays silent past it or prints
// something malformed is reported as an EngineError saying which, and is
// killed.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "uci_client/child_process.hpp"
#include "uci_client/perft_output.hpp"

namespace perftide::engine {

struct EngineError : std::runtime_error {
    enum class Kind { Died, Timeout, Garbage };
    EngineError(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
    Kind kind;
};

class UciEngine {
   public:
    // Starts `command` (through /bin/sh -c) and completes the uci/uciok and
    // isready/readyok handshake; `timeout_s` bounds every wait.
    UciEngine(const std::string& command, double timeout_s);
    ~UciEngine();

    // The engine's `go perft depth` answer for the position `fen` after
    // `moves` (UCI text).
    PerftDivide perft(const std::string& fen, const std::vector<std::string>& moves, int depth);

    // Sends `setoption name NAME value VALUE` (engines do not answer it;
    // the next isready waits for it to take effect).
    void set_option(const std::string& name, const std::string& value);

    const std::string& name() const { return name_; }

   private:
    void send(const std::string& line, const std::string& waiting_for);
    // Reads lines until one equals `token` (banners, "id" and "option"
    // lines come before it), noting the engine's name on the way.
    void expect(const std::string& token, const std::string& waiting_for);
    std::string next_line(const std::string& waiting_for, Deadline deadline);
    [[noreturn]] void died(const std::string& waiting_for);

    std::string command_;
    std::chrono::milliseconds timeout_;
    std::unique_ptr<ChildProcess> child_;
    std::string name_;
};

}  // namespace perftide::engine
