// The one place that knows whether code is being compiled by nvcc, and for
// which side. Every rule function in common/ is marked CHESS_HD so g++ and
// nvcc compile the same definition; bit intrinsics dispatch here too.
#pragma once

#include <cstdint>

// CHESS_LEAF: a hot function that the host keeps out of line (one copy,
// its locals in registers) and the device inlines.
#if defined(__CUDACC__)
#define CHESS_HD __host__ __device__
#define CHESS_FI __host__ __device__ __forceinline__
#define CHESS_LEAF CHESS_FI
#else
#define CHESS_HD
#define CHESS_FI inline __attribute__((always_inline))
#define CHESS_LEAF inline __attribute__((noinline))
#endif

namespace chess::intrin {

CHESS_FI int popcount(uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __popcll(b);
#else
    return __builtin_popcountll(b);
#endif
}

// Index of the lowest set bit; b must be non-zero.
CHESS_FI int lsb(uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __ffsll(static_cast<long long>(b)) - 1;
#else
    return __builtin_ctzll(b);
#endif
}

// Index of the highest set bit; b must be non-zero.
CHESS_FI int msb(uint64_t b) {
#if defined(__CUDA_ARCH__)
    return 63 - __clzll(static_cast<long long>(b));
#else
    return 63 - __builtin_clzll(b);
#endif
}

// A load from memory that no thread writes while rules code runs (lookup
// tables): the read-only data cache on the device, a plain load on the host.
template <class T>
CHESS_FI T load_ro(const T* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
}

}  // namespace chess::intrin
