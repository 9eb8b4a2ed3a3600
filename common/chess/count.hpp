// Node counts. Deep perft totals pass 2^64 (perft(14) of the start position
// is about 6.2e19), so every total and merge uses 128-bit unsigned integers;
// g++ and nvcc both support unsigned __int128 on 64-bit targets.
#pragma once

#include <stdexcept>

#include "chess/config.hpp"

namespace chess {

using u128 = unsigned __int128;

// Checked arithmetic for merging totals on the host (a unit's count times
// its multiplicity, summed over units): an overflow throws rather than
// wrapping, so a total is exact or absent, never wrong.
struct CountOverflow : std::overflow_error {
    using std::overflow_error::overflow_error;
};

inline u128 checked_add(u128 a, u128 b) {
    u128 r;
    if (__builtin_add_overflow(a, b, &r)) throw CountOverflow("node count exceeds 2^128");
    return r;
}

inline u128 checked_mul(u128 a, u128 b) {
    u128 r;
    if (__builtin_mul_overflow(a, b, &r)) throw CountOverflow("node count exceeds 2^128");
    return r;
}

// total + count * multiplicity, checked.
inline u128 add_product(u128 total, u128 count, u128 multiplicity) {
    return checked_add(total, checked_mul(count, multiplicity));
}

}  // namespace chess
