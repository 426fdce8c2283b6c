// Operators of the island's block-diagonal inertia M = blkdiag(M_1, …, M_s) (contact/problem.hpp).
//
// Nothing here forms a dense nv×nv matrix: every product goes system block by system block, so the
// cost of the Delassus operator A M⁻¹ Bᵀ = Σ_b A_b M_b⁻¹ B_bᵀ is that of the blocks the rows touch.
#include "contact/problem.hpp"
#include "contact/problem_into.hpp"
#include "contact/small_llt_arithmetic.hpp"
#include "contact/small_llt_solve.hpp"
#include "contact/stored_row.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace impetus {
namespace {

void solve_block_in_place(const SystemBlock& s, Eigen::Ref<Eigen::MatrixXd> x) {
  if (s.M_llt != nullptr) {
    if (s.size <= kSmallLltSize) small_llt_solve_in_place(*s.M_llt, x);   // the same bits, without the blocking
    else s.M_llt->solveInPlace(x);
  } else {
    assert(s.M != nullptr && "a system block has neither M nor its factor");
    Eigen::LLT<Eigen::MatrixXd>(*s.M).solveInPlace(x);   // allocates: callers should give M_llt
  }
}

}  // namespace

void RowsByBlock::build(const SparseRows& X, const std::vector<SystemBlock>& systems) {
  const int nb = static_cast<int>(systems.size());
  start.assign(nb + 1, 0);
  last_row.assign(nb, -1);
  // Each column's block looked up once per build, not searched for once per (row, block) pair.
  column_block.assign(X.cols(), -1);
  for (int b = 0; b < nb; ++b) {
    const int end = std::min<int>(systems[b].offset + systems[b].size, static_cast<int>(X.cols()));
    for (int col = std::max(systems[b].offset, 0); col < end; ++col) column_block[col] = b;
  }
  // A row's entries come in column order, so a block's entries are consecutive: one lookup per (row, block)
  // pair, and the rest of the block's entries stepped over.
  const int* inner = X.innerIndexPtr();
  const auto for_each_block = [&](int r, auto&& visit) {
    const auto [begin, end] = stored_row(X, r);
    for (Eigen::Index e = begin; e < end;) {
      const int b = column_block[inner[e]];
      assert(b >= 0 && "a row has an entry outside every system block");
      if (b < 0) {
        ++e;
        continue;
      }
      if (last_row[b] != r) {
        last_row[b] = r;
        visit(b);
      }
      const int block_end = systems[b].offset + systems[b].size;
      while (e < end && inner[e] < block_end) ++e;
    }
  };
  for (int r = 0; r < X.outerSize(); ++r) for_each_block(r, [&](int b) { ++start[b + 1]; });
  for (int b = 0; b < nb; ++b) start[b + 1] += start[b];
  rows.resize(start[nb]);
  std::fill(last_row.begin(), last_row.end(), -1);
  fill.assign(start.begin(), start.end() - 1);
  for (int r = 0; r < X.outerSize(); ++r) for_each_block(r, [&](int b) { rows[fill[b]++] = r; });
}

void ContactProblem::solve_M(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  out.resize(nv);
  solve_M_into(*this, x, out);
}

void solve_M_into(const ContactProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) {
  assert(x.size() == p.nv && out.size() == p.nv);
  out.setZero();   // coordinates outside every block (there should be none) are immobile
  for (const SystemBlock& s : p.systems) {
    if (s.size == 0) continue;
    out.segment(s.offset, s.size) = x.segment(s.offset, s.size);
    solve_block_in_place(s, out.segment(s.offset, s.size));
  }
}

void solve_M_columns_in_place(const ContactProblem& p, Eigen::Ref<Eigen::MatrixXd> X) {
  assert(X.rows() == p.nv);
  int covered = 0;   // coordinates outside every block (there should be none) are immobile, as in solve_M_into
  for (const SystemBlock& s : p.systems) {
    if (s.size == 0) continue;
    X.middleRows(covered, s.offset - covered).setZero();
    covered = s.offset + s.size;
    if (s.M_llt != nullptr && s.size <= kSmallLltSize) {   // the columns are independent in this solve
      small_llt_solve_in_place(*s.M_llt, X.middleRows(s.offset, s.size));
      continue;
    }
    for (Eigen::Index j = 0; j < X.cols(); ++j)   // Eigen's blocked solve: one column, as solve_M_into gives it
      solve_block_in_place(s, X.col(j).segment(s.offset, s.size));
  }
  X.bottomRows(p.nv - covered).setZero();
}

void ContactProblem::delassus(const SparseRows& A, const SparseRows& B, Eigen::MatrixXd& out,
                              DelassusScratch& w) const {
  out.resize(A.rows(), B.rows());
  delassus_into(*this, A, B, out, w);
}

namespace {

/// Y = M_b⁻¹ B_bᵀ into y (size_b × kb, column-major): the columns of B in block b, one per row of B touching it.
void block_columns_solve(const SystemBlock& s, const SparseRows& B, const int* brow, int kb, double* y) {
  Eigen::Map<Eigen::MatrixXd> Y(y, s.size, kb);
  Y.setZero();
  const int* inner = B.innerIndexPtr();
  const double* value = B.valuePtr();
  for (int j = 0; j < kb; ++j) {
    const auto [first, last] = stored_row_in(B, brow[j], s.offset, s.size);
    for (Eigen::Index e = first; e < last; ++e) Y(inner[e] - s.offset, j) += value[e];
  }
  solve_block_in_place(s, Y);
}

/// delassus_into for the columns j of out with columns[j] (all of them without `columns`), or with `diagonal`
/// only out(i, i) for i < diagonal (A = B). Every entry is the same sequence of multiply-adds either way:
/// Y = M_b⁻¹ B_bᵀ is solved for all of B's rows in the block whatever is wanted (so each column of Y is the
/// same numbers), and acc_j = Σ A_b(a, c)·Y(c, j) runs over a's entries in order, one `acc += a·y` per entry
/// in a vector lane or, for a diagonal entry, in scalar code. Both are written as a product and a sum, so the
/// compiler contracts both into an fma where the target has one (-march=native) and neither where it has not
/// (a portable build); an explicit std::fma here would round once where the vector lane rounds twice.
/// out(a, j) = 0 + acc over the blocks in order.
void delassus_part(const ContactProblem& p, const SparseRows& A, const SparseRows& B, const std::vector<char>* columns,
                   int diagonal, Eigen::Ref<Eigen::MatrixXd> out, DelassusScratch& w) {
  assert(A.cols() == p.nv && B.cols() == p.nv && out.rows() == A.rows() && out.cols() == B.rows());
  if (columns == nullptr && diagonal < 0) {
    out.setZero();
  } else if (columns != nullptr) {
    for (int j = 0; j < out.cols(); ++j)
      if ((*columns)[j]) out.col(j).setZero();
  } else {
    for (int i = 0; i < diagonal; ++i) out(i, i) = 0;
  }
  const bool kept = w.kept == &B && &A == &B;   // keep_delassus_rows: a_rows and every block's Y hold
  if (!kept) {
    w.a_rows.build(A, p.systems);
    w.kept = nullptr;   // a_rows no longer B's: what was kept cannot be read again
  }
  if (&A != &B) w.b_rows.build(B, p.systems);
  const RowsByBlock& b_rows = (&A == &B) ? w.a_rows : w.b_rows;

  for (int b = 0; b < static_cast<int>(p.systems.size()); ++b) {
    const SystemBlock& s = p.systems[b];
    const int ka = w.a_rows.count(b), kb = b_rows.count(b);
    if (ka == 0 || kb == 0 || s.size == 0) continue;

    const int* brow = b_rows.of(b);
    if (!kept) {
      if (w.y.size() < static_cast<size_t>(s.size) * kb) w.y.resize(static_cast<size_t>(s.size) * kb);
      block_columns_solve(s, B, brow, kb, w.y.data());
    }
    const Eigen::Map<const Eigen::MatrixXd> Y(kept ? w.y_kept.data() + w.y_offset[b] : w.y.data(), s.size, kb);
    const int* arow = w.a_rows.of(b);
    if (diagonal >= 0) {   // A = B: row i of A is row brow[j] of B at the same j
      for (int j = 0; j < kb; ++j) {
        if (arow[j] >= diagonal) continue;
        double acc = 0;
        for (SparseRows::InnerIterator it(A, arow[j]); it; ++it) {
          const int c = static_cast<int>(it.col()) - s.offset;
          if (c >= 0 && c < s.size) acc += it.value() * Y(c, j);
        }
        out(arow[j], arow[j]) += acc;
      }
      continue;
    }
    // Yᵀ over the wanted columns, so that the row of Y each entry of A scales is contiguous: the products
    // below are the same multiply-adds in the same order, vectorised.
    w.wanted.clear();
    for (int j = 0; j < kb; ++j)
      if (columns == nullptr || (*columns)[brow[j]]) w.wanted.push_back(j);
    const int kw = static_cast<int>(w.wanted.size());
    if (kw == 0) continue;
    if (w.y_t.size() < static_cast<size_t>(s.size) * kw) w.y_t.resize(static_cast<size_t>(s.size) * kw);
    Eigen::Map<Eigen::MatrixXd> Yt(w.y_t.data(), kw, s.size);
    for (int j = 0; j < kw; ++j) Yt.row(j) = Y.col(w.wanted[j]).transpose();

    // out(a, wanted B rows) += A_b(a, :) · Y for each row a of A touching block b. The row's entries in the block
    // are consecutive (its columns ascend, the block's are a range); each wanted column's sum over them is kept
    // in a register, four columns at a time, in the entries' order, each step acc + a·y as the vector lanes
    // computed it in memory (multiply_add: fused where the build has FMA; a chain kept in registers is left
    // unfused by GCC's znver tuning).
    using small_llt_detail::multiply_add;
    const int* A_inner = A.innerIndexPtr();
    const double* A_value = A.valuePtr();
    for (int i = 0; i < ka; ++i) {
      const auto [first, last] = stored_row_in(A, arow[i], s.offset, s.size);
      int j = 0;
      for (; j + 4 <= kw; j += 4) {
        double acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
        for (Eigen::Index e = first; e < last; ++e) {
          const double a = A_value[e];
          const double* y = Yt.data() + (A_inner[e] - s.offset) * kw + j;
          acc0 = multiply_add(a, y[0], acc0);
          acc1 = multiply_add(a, y[1], acc1);
          acc2 = multiply_add(a, y[2], acc2);
          acc3 = multiply_add(a, y[3], acc3);
        }
        out(arow[i], brow[w.wanted[j]]) += acc0;
        out(arow[i], brow[w.wanted[j + 1]]) += acc1;
        out(arow[i], brow[w.wanted[j + 2]]) += acc2;
        out(arow[i], brow[w.wanted[j + 3]]) += acc3;
      }
      for (; j < kw; ++j) {
        double acc = 0;
        for (Eigen::Index e = first; e < last; ++e) acc = multiply_add(A_value[e], Yt(j, A_inner[e] - s.offset), acc);
        out(arow[i], brow[w.wanted[j]]) += acc;
      }
    }
  }
}

}  // namespace

void delassus_into(const ContactProblem& p, const SparseRows& A, const SparseRows& B, Eigen::Ref<Eigen::MatrixXd> out,
                   DelassusScratch& w) {
  delassus_part(p, A, B, nullptr, -1, out, w);
}

void delassus_columns_into(const ContactProblem& p, const SparseRows& A, const SparseRows& B,
                           const std::vector<char>& columns, Eigen::Ref<Eigen::MatrixXd> out, DelassusScratch& w) {
  assert(static_cast<Eigen::Index>(columns.size()) == B.rows());
  delassus_part(p, A, B, &columns, -1, out, w);
}

void keep_delassus_rows(const ContactProblem& p, const SparseRows& B, DelassusScratch& w) {
  w.a_rows.build(B, p.systems);
  const int nb = static_cast<int>(p.systems.size());
  w.y_offset.resize(nb);
  std::size_t size = 0;
  for (int b = 0; b < nb; ++b) {
    w.y_offset[b] = size;
    size += static_cast<std::size_t>(p.systems[b].size) * w.a_rows.count(b);
  }
  if (w.y_kept.size() < size) w.y_kept.resize(size);   // grow-only: nothing allocated once warm
  for (int b = 0; b < nb; ++b) {
    const SystemBlock& s = p.systems[b];
    const int kb = w.a_rows.count(b);
    if (kb == 0 || s.size == 0) continue;
    block_columns_solve(s, B, w.a_rows.of(b), kb, w.y_kept.data() + w.y_offset[b]);
  }
  w.kept = &B;
}

void delassus_diagonal_into(const ContactProblem& p, const SparseRows& A, int count, Eigen::Ref<Eigen::MatrixXd> out,
                            DelassusScratch& w) {
  assert(count >= 0 && count <= A.rows());
  delassus_part(p, A, A, nullptr, count, out, w);
}

void ContactProblem::clear_rows(int columns) {
  nc = 0;
  N.resize(0, columns);
  S.resize(0, columns);
  T.resize(0, columns);
  phi.resize(0);
  mu.resize(0);
  mu_viscous.resize(0);
  keys.clear();
  touch_margin = std::numeric_limits<double>::infinity();
  nl = 0;
  L.resize(0, columns);
  phi_L.resize(0);
  p_N_guess.resize(0);
  p_S_guess.resize(0);
  p_T_guess.resize(0);
  p_L_guess.resize(0);
}

double ContactProblem::kinetic_energy(const Eigen::VectorXd& x) const {
  assert(x.size() == nv);
  double twice = 0;
  for (const SystemBlock& s : systems) {
    if (s.size == 0) continue;
    const auto xb = x.segment(s.offset, s.size);
    if (s.M != nullptr) {
      for (int j = 0; j < s.size; ++j) twice += xb[j] * s.M->col(j).dot(xb);   // no temporary
    } else {
      assert(s.M_llt != nullptr);
      const Eigen::MatrixXd& L = s.M_llt->matrixLLT();   // L in the lower triangle
      for (int i = 0; i < s.size; ++i) {                  // xᵀ L Lᵀ x = ‖Lᵀx‖²
        const double lt_x = L.col(i).tail(s.size - i).dot(xb.tail(s.size - i));
        twice += lt_x * lt_x;
      }
    }
  }
  return 0.5 * twice;
}

}  // namespace impetus
