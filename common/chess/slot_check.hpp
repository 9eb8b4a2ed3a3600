// Lock-free table slots verified by their key: the one statement of why a
// slot read while another thread writes it is safe, for every table of the
// project (the deep engine's count and statistics tables, deep/tt and
// deep/stats_tt; the device's, gpu/perft_tables).
//
// A slot is a check word and data words (a count, or a row of counts with
// its depth), stored as
//     check = key.hi ^ fold(data)          fold(d) = d for one data word,
// and looked up at an index taken from key.lo (and the depth), so a hit
// verifies the index bits and all 64 bits of key.hi.
//
// Readers and writers access the words separately (relaxed atomics on the
// host, 16-byte accesses on the device), so a reader may see words of two
// writes (a torn read). It accepts the slot for key K only when
//     check == K.hi ^ fold(data as read).
// If every word read was written for K, the data is K's either way: every
// writer of a key stores the same count or row for it. If the check comes
// from a write of key A and the data (or part of it) from key B, acceptance
// needs K.hi == A.hi ^ fold(dataA) ^ fold(data read), which for K != A is a
// 2^-64 coincidence, like any key collision, because fold mixes every word
// non-linearly; for K == A it needs fold(data read) == fold(dataA), the same
// 2^-64 coincidence unless the data read is A's. So a torn slot is as safe as
// the 128-bit key itself, and a wrong count needs a 64-bit key collision.
#pragma once

#include <cstdint>

#include "chess/config.hpp"

namespace chess {

// Every word of data[0, n), mixed non-linearly (multiply, rotate).
CHESS_FI uint64_t fold_words(const uint64_t* data, int n) {
    uint64_t h = 0;
    for (int k = 0; k < n; ++k) {
        h = (h ^ data[k]) * 0xff51afd7ed558ccdULL;
        h = (h << 29) | (h >> 35);
    }
    return h;
}

// The check of a one-word slot, and whether a slot read verifies for key.hi.
CHESS_FI uint64_t slot_check(uint64_t key_hi, uint64_t data) { return key_hi ^ data; }
CHESS_FI bool slot_verified(uint64_t key_hi, uint64_t check, uint64_t data) { return (check ^ data) == key_hi; }

// The same for a slot of n data words.
CHESS_FI uint64_t slot_check(uint64_t key_hi, const uint64_t* data, int n) { return key_hi ^ fold_words(data, n); }
CHESS_FI bool slot_verified(uint64_t key_hi, uint64_t check, const uint64_t* data, int n) {
    return check == slot_check(key_hi, data, n);
}

}  // namespace chess
