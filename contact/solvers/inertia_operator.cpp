#include "contact/solvers/inertia_operator.hpp"

#include <cassert>

namespace impetus {

void BlockInertia::reset(const ContactProblem& problem) {
  const int nb = static_cast<int>(problem.systems.size());
  nv_ = problem.nv;
  offset_.resize(nb);
  size_.resize(nb);
  llt_.resize(nb);
  if (own_llt_.size() < static_cast<std::size_t>(nb)) own_llt_.resize(nb);
  for (int b = 0; b < nb; ++b) {
    const SystemBlock& s = problem.systems[b];
    offset_[b] = s.offset;
    size_[b] = s.size;
    if (s.M_llt != nullptr) {
      llt_[b] = s.M_llt;
    } else {
      assert(s.M != nullptr && "a system block has neither M nor its factor");
      own_llt_[b].compute(*s.M);
      llt_[b] = &own_llt_[b];
    }
  }
  index_columns();
}

void BlockInertia::reset(int nv, const std::vector<SystemBlock>& layout,
                         const std::vector<const Eigen::LLT<Eigen::MatrixXd>*>& factors) {
  assert(layout.size() == factors.size());
  const int nb = static_cast<int>(layout.size());
  nv_ = nv;
  offset_.resize(nb);
  size_.resize(nb);
  llt_.assign(factors.begin(), factors.end());
  for (int b = 0; b < nb; ++b) {
    offset_[b] = layout[b].offset;
    size_[b] = layout[b].size;
  }
  index_columns();
}

void BlockInertia::index_columns() {
  const int nb = static_cast<int>(offset_.size());
  block_of_column_.assign(nv_, -1);
  inv_diag_.assign(nv_, 0.0);
  for (int b = 0; b < nb; ++b)
    for (int j = 0; j < size_[b]; ++j) {
      block_of_column_[offset_[b] + j] = b;
      inv_diag_[offset_[b] + j] = 1.0 / llt_[b]->matrixLLT()(j, j);
    }
  touched_.assign(nb, 0);
  touched_list_.reserve(nb);
}

void BlockInertia::solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const {
  y.setZero();
  touched_list_.clear();
  for (SparseRows::InnerIterator it(*c.matrix, c.row); it; ++it) {
    const int b = block_of_column_[it.col()];
    if (b < 0) continue;   // an immobile coordinate: W⁻¹ is zero there
    y[it.col()] += it.value();
    if (!touched_[b]) {
      touched_[b] = 1;
      touched_list_.push_back(b);
    }
  }
  for (int b : touched_list_) {
    cholesky_solve_in_place(llt_[b]->matrixLLT(), inv_diag_.data() + offset_[b], y.data() + offset_[b]);
    touched_[b] = 0;
  }
}

void BlockInertia::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  for (int j = 0; j < nv_; ++j)
    if (block_of_column_[j] < 0) x[j] = 0;
  for (std::size_t b = 0; b < offset_.size(); ++b) {
    if (size_[b] == 0) continue;
    cholesky_solve_in_place(llt_[b]->matrixLLT(), inv_diag_.data() + offset_[b], x.data() + offset_[b]);
  }
}

bool DenseInertia::factor(const Eigen::MatrixXd& W) {
  llt_.compute(W);
  if (llt_.info() != Eigen::Success) return false;
  inv_diag_ = llt_.matrixLLT().diagonal().cwiseInverse();
  return inv_diag_.allFinite();
}

void DenseInertia::solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const {
  y.setZero();
  for (SparseRows::InnerIterator it(*c.matrix, c.row); it; ++it) y[it.col()] += it.value();
  cholesky_solve_in_place(llt_.matrixLLT(), inv_diag_.data(), y.data());
}

void DenseInertia::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  cholesky_solve_in_place(llt_.matrixLLT(), inv_diag_.data(), x.data());
}

}  // namespace impetus
