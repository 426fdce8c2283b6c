// Counting heap allocations in a test program, for the "no allocation once warm" tests (STYLE.md 11).
// Include it in one source file of a test program only: it defines the program's malloc, realloc and
// calloc. glibc: the program's definitions win over libc's, which stay reachable as __libc_*; Eigen,
// std::vector and operator new all allocate through them. Counting is off except inside
// allocations_in().
#pragma once

#include <atomic>
#include <cstddef>

extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);

namespace impetus::test::allocation_counting {
inline std::atomic<bool> counting{false};
inline std::atomic<long> allocations{0};
inline void count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace impetus::test::allocation_counting

extern "C" void* malloc(std::size_t size) {
  impetus::test::allocation_counting::count();
  return __libc_malloc(size);
}
extern "C" void* realloc(void* p, std::size_t size) {
  impetus::test::allocation_counting::count();
  return __libc_realloc(p, size);
}
extern "C" void* calloc(std::size_t n, std::size_t size) {
  impetus::test::allocation_counting::count();
  return __libc_calloc(n, size);
}

namespace impetus::test {

/// Heap allocations made by f(), on any thread while it runs.
template <class F>
long allocations_in(F&& f) {
  allocation_counting::allocations = 0;
  allocation_counting::counting = true;
  f();
  allocation_counting::counting = false;
  return allocation_counting::allocations.load();
}

}  // namespace impetus::test
