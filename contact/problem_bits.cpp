// (problem_bits.hpp): a problem's fields as raw bytes, compared or copied in place.
#include "contact/problem_bits.hpp"

#include <cstdint>
#include <cstring>

namespace impetus {
namespace {

/// Whether the problem's bits can be walked: no extension, every sparse matrix compressed.
bool comparable(const ContactProblem& p) {
  return p.extension.empty() && p.N.isCompressed() && p.S.isCompressed() && p.T.isCompressed() && p.L.isCompressed();
}

/// Walks every field of (problem_bits.hpp), sizes first: visitor.fixed(x) for a scalar, visitor.run(data, bytes)
/// for an array. The scalars' sizes are constants, so a visitor compares or copies each without a call.
template <class Visitor>
void for_each_field(const ContactProblem& p, Visitor& visitor) {
  auto vector = [&](const Eigen::VectorXd& x) {
    const Eigen::Index n = x.size();
    visitor.fixed(n);
    visitor.run(x.data(), sizeof(double) * n);
  };
  auto sparse = [&](const SparseRows& X) {
    const Eigen::Index rows = X.rows(), cols = X.cols(), nnz = X.nonZeros();
    visitor.fixed(rows);
    visitor.fixed(cols);
    visitor.fixed(nnz);
    visitor.run(X.outerIndexPtr(), sizeof(int) * (rows + 1));
    visitor.run(X.innerIndexPtr(), sizeof(int) * nnz);
    visitor.run(X.valuePtr(), sizeof(double) * nnz);
  };
  visitor.fixed(p.dt);
  visitor.fixed(p.nv);
  visitor.fixed(p.nc);
  visitor.fixed(p.nl);
  visitor.fixed(p.systems.size());
  for (const SystemBlock& s : p.systems) {
    visitor.fixed(s.offset);
    visitor.fixed(s.size);
    const Eigen::Index m = s.M != nullptr ? s.M->size() : -1;
    visitor.fixed(m);
    if (m > 0) visitor.run(s.M->data(), sizeof(double) * m);
  }
  vector(p.v);
  vector(p.v_star);
  sparse(p.N);
  sparse(p.S);
  sparse(p.T);
  vector(p.phi);
  vector(p.mu);
  vector(p.mu_viscous);
  visitor.fixed(p.keys.size());
  // The keys are three ints each, without padding: one run.
  static_assert(sizeof(ContactKey) == 3 * sizeof(int));
  visitor.run(p.keys.data(), sizeof(ContactKey) * p.keys.size());
  visitor.fixed(p.touch_margin);
  sparse(p.L);
  vector(p.phi_L);
  vector(p.p_N_guess);
  vector(p.p_S_guess);
  vector(p.p_T_guess);
  vector(p.p_L_guess);
}

/// The n bytes at a and b bitwise equal, word by word inline: a libc memcmp call per field cost more than the
/// compare of a field of a few dozen bytes (the resting spheres' islands under perf).
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  std::uint64_t differ = 0;
  std::size_t k = 0;
  for (; k + sizeof differ <= n; k += sizeof differ) {
    std::uint64_t x, y;
    std::memcpy(&x, a + k, sizeof x);
    std::memcpy(&y, b + k, sizeof y);
    differ |= x ^ y;
  }
  for (; k < n; ++k) differ |= static_cast<unsigned char>(a[k] ^ b[k]);
  return differ == 0;
}

/// Compares each field with the kept bytes from `at` on, until the first that differs.
struct CompareWithKept {
  const std::vector<char>& kept;
  std::size_t at = 0;
  bool same = true;

  template <class T>
  void fixed(const T& x) {
    run(&x, sizeof x);
  }
  void run(const void* data, std::size_t bytes) {
    if (!same) return;
    same = at + bytes <= kept.size() && same_bytes(kept.data() + at, static_cast<const char*>(data), bytes);
    at += bytes;
  }
};

/// Counts the bytes of the fields.
struct CountBytes {
  std::size_t bytes = 0;
  template <class T>
  void fixed(const T&) {
    bytes += sizeof(T);
  }
  void run(const void*, std::size_t n) { bytes += n; }
};

/// Copies each field to `to`, one after the other.
struct CopyTo {
  char* to;
  template <class T>
  void fixed(const T& x) {
    run(&x, sizeof x);
  }
  void run(const void* data, std::size_t bytes) {
    if (bytes > 0) std::memcpy(to, data, bytes);
    to += bytes;
  }
};

}  // namespace

bool ProblemBits::same(const ContactProblem& problem) const {
  if (!kept_ || !comparable(problem)) return false;
  CompareWithKept compare{bytes_};
  for_each_field(problem, compare);
  return compare.same && compare.at == bytes_.size();
}

void ProblemBits::keep(const ContactProblem& problem) {
  kept_ = comparable(problem);
  if (!kept_) return;
  // Sized once, then written in place (grow-only: no allocation once warm).
  CountBytes count;
  for_each_field(problem, count);
  bytes_.resize(count.bytes);
  CopyTo copy{bytes_.data()};
  for_each_field(problem, copy);
}

}  // namespace impetus
