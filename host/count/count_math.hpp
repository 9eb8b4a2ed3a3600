// Checked 128-bit count arithmetic for merging deep perft totals: a unit's
// count times its multiplicity, summed over units. An overflow throws rather
// than wrapping, so a total is exact or absent, never wrong.
#pragma once

#include <stdexcept>

#include "chess/count.hpp"

namespace perftide {

struct CountOverflow : std::overflow_error {
    using std::overflow_error::overflow_error;
};

inline chess::u128 checked_add(chess::u128 a, chess::u128 b) {
    chess::u128 r;
    if (__builtin_add_overflow(a, b, &r)) throw CountOverflow("node count exceeds 2^128");
    return r;
}

inline chess::u128 checked_mul(chess::u128 a, chess::u128 b) {
    chess::u128 r;
    if (__builtin_mul_overflow(a, b, &r)) throw CountOverflow("node count exceeds 2^128");
    return r;
}

// total + count * multiplicity, checked.
inline chess::u128 add_product(chess::u128 total, chess::u128 count, chess::u128 multiplicity) {
    return checked_add(total, checked_mul(count, multiplicity));
}

}  // namespace perftide
