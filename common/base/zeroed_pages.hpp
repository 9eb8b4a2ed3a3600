// An array of n zeroed T straight from the kernel (anonymous mmap) and back
// to it on release: untouched pages cost nothing, a released table does not
// linger in the allocator's free lists, and arrays of 2 MiB or more ask for
// huge pages, since tables probed at random would otherwise miss the TLB on
// nearly every probe. Host code only; T must be valid when all bits are 0.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <utility>

namespace perftide {

template <class T>
class ZeroedPages {
   public:
    ZeroedPages() = default;
    explicit ZeroedPages(size_t n) : n_(n) {
        if (!n) return;
        void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        if (bytes() >= (size_t(2) << 20)) madvise(p, bytes(), MADV_HUGEPAGE);  // advisory only
        p_ = static_cast<T*>(p);
    }
    ZeroedPages(ZeroedPages&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    ZeroedPages& operator=(ZeroedPages&& o) noexcept {
        std::swap(p_, o.p_), std::swap(n_, o.n_);
        return *this;
    }
    ~ZeroedPages() {
        if (p_) munmap(p_, bytes());
    }

    size_t size() const { return n_; }
    T* data() const { return p_; }
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }

   private:
    size_t bytes() const { return n_ * sizeof(T); }

    T* p_ = nullptr;
    size_t n_ = 0;
};

}  // namespace perftide
