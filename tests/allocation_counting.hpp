// Counting heap allocations in a test program, for the "no allocation once warm" tests (STYLE.md 11).
// Include it in one source file of a test program only: it defines the program's malloc, realloc and
// calloc. glibc: the program's definitions win over libc's, which stay reachable as __libc_*; Eigen,
// std::vector and operator new all allocate through them. Counting is off except inside
// allocations_in() and allocations_outside().
// Where a counted allocation comes from: with IMPETUS_ALLOC_TRACE set, each one's call stack goes to stderr
// (raw frames, then "----"); tests/allocation_stacks.py names and groups them, e.g.
//   IMPETUS_ALLOC_TRACE=1 build/tests/test_sim --gtest_filter='*links_stance_id_qp_noslip' 2>stacks.txt
//   python3 tests/allocation_stacks.py build/tests/test_sim stacks.txt
#pragma once

#include <dlfcn.h>
#include <execinfo.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <cstdlib>
#include <unistd.h>

extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);

namespace impetus::test::allocation_counting {
inline std::atomic<bool> counting{false};
inline std::atomic<long> allocations{0}, attributed{0};
/// When set, an allocation with a frame of this shared library on its call stack is counted in `attributed`
/// instead of `allocations` (the call stack is walked with backtrace(), the frames named with dladdr()).
inline const char* attributed_library = nullptr;
inline thread_local bool walking = false;   // the walk's own allocations (libgcc's first load) are not counted
inline bool called_from(const char* library) {
  constexpr int kMaxFrames = 48;
  void* frames[kMaxFrames];
  const int n = backtrace(frames, kMaxFrames);
  for (int i = 0; i < n; ++i) {
    Dl_info info;
    if (dladdr(frames[i], &info) != 0 && info.dli_fname != nullptr && std::strstr(info.dli_fname, library) != nullptr)
      return true;
  }
  return false;
}
inline void count() {
  if (!counting.load(std::memory_order_relaxed) || walking) return;
  if (attributed_library != nullptr) {
    walking = true;
    const bool theirs = called_from(attributed_library);
    walking = false;
    if (theirs) {
      attributed.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (std::getenv("IMPETUS_ALLOC_TRACE") != nullptr) {
    walking = true;
    constexpr int kMaxFrames = 40;
    void* frames[kMaxFrames];
    const int n = backtrace(frames, kMaxFrames);
    backtrace_symbols_fd(frames, n, 2);
    write(2, "----\n", 5);
    walking = false;
  }
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

/// Heap allocations made by f() on any thread, split into those made with a frame of the shared library whose
/// path contains `library` on the call stack (inside it, or in code it calls back) and all the others.
struct AttributedAllocations {
  long outside = 0, inside = 0;
};
template <class F>
AttributedAllocations allocations_outside(const char* library, F&& f) {
  allocation_counting::walking = true;
  allocation_counting::called_from(library);   // the first backtrace() loads libgcc: before counting
  allocation_counting::walking = false;
  allocation_counting::attributed_library = library;
  allocation_counting::allocations = 0;
  allocation_counting::attributed = 0;
  allocation_counting::counting = true;
  f();
  allocation_counting::counting = false;
  allocation_counting::attributed_library = nullptr;
  return {allocation_counting::allocations.load(), allocation_counting::attributed.load()};
}

}  // namespace impetus::test
