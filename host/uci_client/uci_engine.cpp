#include "uci_client/uci_engine.hpp"

#include <cstdio>

namespace perftide::engine {
namespace {

constexpr int MAX_HANDSHAKE_LINES = 100000;  // more is a runaway engine, not a banner

std::string seconds_text(std::chrono::milliseconds ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", double(ms.count()) / 1000);
    return buf;
}

}  // namespace

UciEngine::UciEngine(const std::string& command, double timeout_s)
    : command_(command), timeout_(std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000))) {
    try {
        child_ = std::make_unique<ChildProcess>(command);
    } catch (const ProcessError& e) {
        throw EngineError(EngineError::Kind::Died, std::string("cannot start the engine: ") + e.what());
    }
    send("uci", "'uciok'");
    expect("uciok", "'uciok' after 'uci'");
    send("isready", "'readyok'");
    expect("readyok", "'readyok' after 'isready'");
}

UciEngine::~UciEngine() {
    if (child_) child_->write("quit\n");
}

void UciEngine::set_option(const std::string& name, const std::string& value) {
    send("setoption name " + name + " value " + value, "'setoption name " + name + "' to be read");
}

PerftDivide UciEngine::perft(const std::string& fen, const std::vector<std::string>& moves, int depth) {
    // isready first: it also skips whatever the engine printed after its
    // previous answer.
    send("isready", "'readyok'");
    expect("readyok", "'readyok' after 'isready'");
    std::string position = "position fen " + fen;
    if (!moves.empty()) position += " moves";
    for (const auto& m : moves) position += " " + m;
    const std::string go = "go perft " + std::to_string(depth);
    const std::string waiting_for = "the answer to '" + go + "'";
    send(position, waiting_for);
    send(go, waiting_for);
    const Deadline deadline = std::chrono::steady_clock::now() + timeout_;
    PerftOutputParser parser;
    for (;;) {
        const std::string line = next_line(waiting_for, deadline);
        try {
            if (parser.feed(line)) return parser.result();
        } catch (const EngineOutputError& e) {
            child_->kill();
            throw EngineError(EngineError::Kind::Garbage,
                              "the engine printed garbage in " + waiting_for + ": " + e.what());
        }
    }
}

void UciEngine::send(const std::string& line, const std::string& waiting_for) {
    if (!child_->write(line + "\n")) died(waiting_for);
}

void UciEngine::expect(const std::string& token, const std::string& waiting_for) {
    const Deadline deadline = std::chrono::steady_clock::now() + timeout_;
    for (int n = 0; n < MAX_HANDSHAKE_LINES; ++n) {
        const std::string line = next_line(waiting_for, deadline);
        if (line == token) return;
        if (line.starts_with("id name ")) name_ = line.substr(8);
    }
    child_->kill();
    throw EngineError(EngineError::Kind::Garbage,
                      "the engine printed " + std::to_string(MAX_HANDSHAKE_LINES) + " lines without " + waiting_for);
}

std::string UciEngine::next_line(const std::string& waiting_for, Deadline deadline) {
    std::string line;
    switch (child_->read_line(line, deadline)) {
        case ChildProcess::Read::Line:
            return line;
        case ChildProcess::Read::End:
            died(waiting_for);
        case ChildProcess::Read::Timeout:
            child_->kill();
            throw EngineError(EngineError::Kind::Timeout, "the engine timed out: perftide waited " +
                                                              seconds_text(timeout_) + " for " + waiting_for +
                                                              " (the engine was killed)");
        case ChildProcess::Read::TooLong:
            break;
    }
    child_->kill();
    throw EngineError(EngineError::Kind::Garbage,
                      "the engine printed garbage: a line over 1 MiB while perftide waited for " + waiting_for);
}

void UciEngine::died(const std::string& waiting_for) {
    std::string how = child_->exit_description(std::chrono::milliseconds(1000));
    if (how == "is still running") how = "closed its output";
    if (how == "exited with status 127") how += " (command not found?)";
    child_->kill();
    throw EngineError(EngineError::Kind::Died,
                      "the engine died: it " + how + " while perftide waited for " + waiting_for);
}

}  // namespace perftide::engine
