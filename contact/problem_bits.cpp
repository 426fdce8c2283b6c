// (problem_bits.hpp): a problem's fields as raw bytes, compared in place or appended.
#include "contact/problem_bits.hpp"

#include <cstring>

namespace impetus {
namespace {

/// Whether the problem's bits can be walked: no extension, every sparse matrix compressed.
bool comparable(const ContactProblem& p) {
  return p.extension.empty() && p.N.isCompressed() && p.S.isCompressed() && p.T.isCompressed() && p.L.isCompressed();
}

/// Calls visit(data, bytes) on every field of (problem_bits.hpp), sizes first.
template <class Visit>
void for_each_field(const ContactProblem& p, Visit&& visit) {
  auto scalar = [&](const auto& x) { visit(&x, sizeof x); };
  auto vector = [&](const Eigen::VectorXd& x) {
    const Eigen::Index n = x.size();
    scalar(n);
    visit(x.data(), sizeof(double) * n);
  };
  auto sparse = [&](const SparseRows& X) {
    const Eigen::Index rows = X.rows(), cols = X.cols(), nnz = X.nonZeros();
    scalar(rows);
    scalar(cols);
    scalar(nnz);
    visit(X.outerIndexPtr(), sizeof(int) * (rows + 1));
    visit(X.innerIndexPtr(), sizeof(int) * nnz);
    visit(X.valuePtr(), sizeof(double) * nnz);
  };
  scalar(p.dt);
  scalar(p.nv);
  scalar(p.nc);
  scalar(p.nl);
  const std::size_t systems = p.systems.size();
  scalar(systems);
  for (const SystemBlock& s : p.systems) {
    scalar(s.offset);
    scalar(s.size);
    const Eigen::Index m = s.M != nullptr ? s.M->size() : -1;
    scalar(m);
    if (m > 0) visit(s.M->data(), sizeof(double) * m);
  }
  vector(p.v);
  vector(p.v_star);
  sparse(p.N);
  sparse(p.S);
  sparse(p.T);
  vector(p.phi);
  vector(p.mu);
  vector(p.mu_viscous);
  const std::size_t keys = p.keys.size();
  scalar(keys);
  for (const ContactKey& k : p.keys) {
    scalar(k.geom_a);
    scalar(k.geom_b);
    scalar(k.feature);
  }
  scalar(p.touch_margin);
  sparse(p.L);
  vector(p.phi_L);
  vector(p.p_N_guess);
  vector(p.p_S_guess);
  vector(p.p_T_guess);
  vector(p.p_L_guess);
}

}  // namespace

bool ProblemBits::same(const ContactProblem& problem) const {
  if (!kept_ || !comparable(problem)) return false;
  std::size_t at = 0;
  bool same = true;
  for_each_field(problem, [&](const void* data, std::size_t bytes) {
    if (!same) return;
    same = at + bytes <= bytes_.size() && (bytes == 0 || std::memcmp(bytes_.data() + at, data, bytes) == 0);
    at += bytes;
  });
  return same && at == bytes_.size();
}

void ProblemBits::keep(const ContactProblem& problem) {
  kept_ = comparable(problem);
  if (!kept_) return;
  bytes_.clear();
  for_each_field(problem, [&](const void* data, std::size_t bytes) {
    const char* c = static_cast<const char*>(data);
    bytes_.insert(bytes_.end(), c, c + bytes);
  });
}

}  // namespace impetus
