// The breadth-first engine's one working buffer, used as a stack: a level's
// arrays are pushed while it is expanded and popped when its subtree is done.
// It only does pointer arithmetic, so the same class manages device memory
// (one cudaMalloc) and host memory (the host pipeline).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu/gpu_perft.hpp"  // ArenaExhausted

namespace perftide::gpu {

class StackArena {
   public:
    static constexpr std::size_t ALIGN = 256;  // coalescing and CUB's alignment needs

    StackArena() = default;
    StackArena(void* base, std::size_t capacity) : base_(static_cast<std::byte*>(base)), capacity_(capacity) {}

    static constexpr std::size_t padded(std::size_t bytes) { return (bytes + ALIGN - 1) / ALIGN * ALIGN; }

    // n objects of T, uninitialised; `what` names the array in the message.
    template <class T>
    T* alloc(std::uint64_t n, const char* what) {
        const std::size_t bytes = padded(std::size_t(n) * sizeof(T));
        if (n > capacity_ / sizeof(T) || bytes > free())
            throw ArenaExhausted("working memory exhausted: " + std::string(what) + " needs " + std::to_string(bytes) +
                                 " bytes, " + std::to_string(free()) + " of " + std::to_string(capacity_) + " left");
        T* p = reinterpret_cast<T*>(base_ + top_);
        top_ += bytes;
        peak_ = std::max(peak_, top_);
        return p;
    }

    std::size_t mark() const { return top_; }
    void release(std::size_t mark) { top_ = std::min(top_, mark); }
    std::size_t free() const { return capacity_ - top_; }
    std::size_t capacity() const { return capacity_; }
    std::size_t peak() const { return peak_; }
    void reset_peak() { peak_ = top_; }

   private:
    std::byte* base_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t top_ = 0;
    std::size_t peak_ = 0;
};

// Pops everything pushed after its construction, also when an exception
// leaves the scope.
class ArenaScope {
   public:
    explicit ArenaScope(StackArena& a) : arena_(a), mark_(a.mark()) {}
    ~ArenaScope() { arena_.release(mark_); }
    ArenaScope(const ArenaScope&) = delete;
    ArenaScope& operator=(const ArenaScope&) = delete;

   private:
    StackArena& arena_;
    std::size_t mark_;
};

}  // namespace perftide::gpu
