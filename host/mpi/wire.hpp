// The messages of distributed perft, packed into arrays of 64-bit words
// (sent as MPI_UINT64_T; ranks run the same build on the same kind of
// machine). Counts travel as two words each, low then high: MPI has no
// 128-bit integer type.
//
//   hello   worker -> 0   [backend (0 cpu, 1 gpu), threads]
//   batch   0 -> worker   [remaining depth, n, unit index x n, position x n (6 words each)]
//   result  worker -> 0   [n, seconds (IEEE bits), width, (unit index, (count low, count high) x width) x n]
//                         (width: the counts of a unit's tally, journal/tally.hpp)
//   failure worker -> 0   [exit status, length, text bytes packed 8 per word]
//   stop, test fault      0 -> worker (a fault carries its mode as a failure's text)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"
#include "count/backend.hpp"

namespace perftide::dist {

enum Tag : int { TAG_HELLO = 1, TAG_BATCH, TAG_RESULT, TAG_FAILURE, TAG_STOP, TAG_TEST_FAULT };

using Words = std::vector<uint64_t>;

// A message that does not unpack (a protocol bug, or ranks of different builds).
struct WireError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void put_u128(Words& w, chess::u128 v) {
    w.push_back(uint64_t(v));
    w.push_back(uint64_t(v >> 64));
}
inline chess::u128 get_u128(uint64_t lo, uint64_t hi) { return chess::u128(hi) << 64 | lo; }

struct Hello {
    BackendKind backend = BackendKind::Cpu;
    int threads = 0;
    std::string device;  // Backend::device_name()
};
Words pack(const Hello& h);
Hello unpack_hello(const Words& w);

struct Batch {
    int remaining = 0;
    std::vector<uint32_t> units;
    std::vector<chess::Position> positions;
};
Words pack(const Batch& b);
Batch unpack_batch(const Words& w);

struct BatchResult {
    std::vector<uint32_t> units;
    std::vector<chess::u128> counts;  // the units' tallies, counts.size() / units.size() each
    double seconds = 0;
};
Words pack(const BatchResult& r);
BatchResult unpack_result(const Words& w);

struct Failure {
    int status = 0;
    std::string message;
};
Words pack(const Failure& f);
Failure unpack_failure(const Words& w);

}  // namespace perftide::dist
