// Incremental Cholesky factor of the Delassus matrix of a changing set of constraint rows: the one
// linear-algebra kernel of FIND-INDICES (seed 000 Algorithm 2) and of the modified principal pivoting
// method (Algorithm 1).
//
// The rows held, C (k×nv, k ≤ nv), are linearly independent; each carries a target c_p·v = t_p
// (0 for a no-slip row, −φ/dt for an active normal row). For a metric W and free velocity v_f
// (inertia_operator.hpp) the velocity that meets every target with the least W-norm change is
//     W v = W v_f + Cᵀ λ,   C v = t                                                            (D1)
//     ⇒  D λ = t − C v_f,   D = C W⁻¹ Cᵀ = L Lᵀ,   v = v_f + Y λ,   Y = W⁻¹ Cᵀ (nv×k)        (D2)
// which is the KKT system (47) of seed 000 with the rows selected so far, solved in Schur form.
//
// Append (one new row c, O(k·nnz(c) + k²) plus one y = W⁻¹cᵀ): the bordered factor
//     [ L   0 ] [ Lᵀ  l ]   [ D      C W⁻¹cᵀ ]
//     [ lᵀ  δ^½][ 0  δ^½] = [ cW⁻¹Cᵀ  cW⁻¹cᵀ ],   L l = C W⁻¹ cᵀ,   δ = cW⁻¹cᵀ − ‖l‖²           (D3)
// δ is the squared W⁻¹-norm of the part of c independent of C, so δ / cW⁻¹cᵀ = sin²θ, θ the angle
// between c and the row space of C in the W⁻¹ inner product. The row is accepted when
// sin²θ > τ_dep (the "Cholesky succeeds" test of Algorithm 2, made scale-invariant; notes P5).
// A rejected row is a combination of the rows held, c ≈ ρᵀC with Lᵀρ = l (dependence()).
//
// Remove (row p, O((k−p)²)): deleting row and column p of D leaves the rows of L below p with an
// extra column x = L(p+1:k, p); the trailing factor L₂₂' satisfies L₂₂'L₂₂'ᵀ = L₂₂L₂₂ᵀ + x xᵀ, a
// rank-one update (Givens-like, Gill–Golub–Murray–Saunders 1974).                             (D4)
//
// Solve with refinement: λ and v of (D2), then up to two steps of r = t − C v, D δλ = r, λ += δλ,
// v += Y δλ, each only while r exceeds 1e-12 of the terms' scale: near-dependent rows kept
// (cond(D) up to 1/τ_dep) still meet their targets to roundoff, well-conditioned sets keep their bits. (D5)
//
// Nothing here depends on the number of contacts n: storage is O(nv²), allocated once per size.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"
#include "contact/solvers/inertia_operator.hpp"

namespace impetus {

class DelassusFactor {
 public:
  /// Empties the factor for metric W and free velocity v_f (both must outlive the solve).
  void reset(const InertiaOperator& W, const Eigen::Ref<const Eigen::VectorXd>& v_f);

  int size() const { return k_; }
  int capacity() const { return nv_; }

  /// Appends row c with target t when sin²θ > dependence_tolerance (D3). On rejection the factor is
  /// unchanged and dependence() describes c.
  bool try_append(RowRef c, double target, double dependence_tolerance);
  /// After a rejected try_append: ρ (size()) with c ≈ Σ_p ρ_p c_p.
  Eigen::VectorBlock<const VectorView> dependence();
  /// cW⁻¹cᵀ of the last row tried (its squared W⁻¹-norm).
  double last_norm2() const { return last_norm2_; }

  /// Removes row p (D4).
  void remove(int p);
  /// Keeps the first k rows (the leading block of L factors the leading block of D).
  void truncate(int k);

  /// λ = D⁻¹ (t − C v_f) and v = v_f + Y λ (D2), refined (D5); v: nv. λ is then lambda().
  void solve(Eigen::VectorXd& v);
  /// λ of the last solve (size()).
  Eigen::VectorBlock<const VectorView> lambda() const { return lambda_.head(k_); }
  /// x ← D⁻¹ x for the leading k×k block (x: k).
  void solve_leading(int k, Eigen::Ref<Eigen::VectorXd> x) const;
  /// x ← L⁻¹ x for the leading k×k block.
  void forward_leading(int k, Eigen::Ref<Eigen::VectorXd> x) const;

  RowRef row(int p) const { return rows_[p]; }
  /// y_p = W⁻¹ c_pᵀ (nv).
  auto y(int p) const { return Y_.col(p); }
  /// t_p − c_p·v_f.
  double rhs(int p) const { return rhs_[p]; }

 private:
  const InertiaOperator* W_ = nullptr;
  Eigen::Map<const Eigen::VectorXd> v_f_{nullptr, 0};   // the caller's v_f
  int nv_ = 0, k_ = 0;
  std::vector<RowRef> rows_;      // (k) the rows held, in factor order
  // Grow-only (contact/solvers/grow_only.hpp): one factor serves problems of every nv in turn.
  VectorView rhs_{nullptr, 0};    // (nv) t − C v_f
  MatrixView Y_{nullptr, 0, 0};   // (nv×(nv+1)) W⁻¹Cᵀ; column k is the candidate of try_append
  MatrixView L_{nullptr, 0, 0};   // (nv×nv) lower-triangular factor, leading k×k valid
  VectorView inv_diag_{nullptr, 0};   // (nv) 1/L_pp, leading k valid
  VectorView l_{nullptr, 0};      // (nv) L⁻¹ C W⁻¹ cᵀ of the last candidate
  VectorView x_{nullptr, 0};      // (nv) scratch of remove
  VectorView lambda_{nullptr, 0};   // (nv) λ of the last solve, leading k valid
  VectorView rho_{nullptr, 0};    // (nv) ρ of dependence(), leading k valid
  Eigen::VectorXd rhs_storage_, Y_storage_, L_storage_, inv_diag_storage_, l_storage_, x_storage_, lambda_storage_,
      rho_storage_;
  double last_norm2_ = 0;
  int last_k_ = 0;                // size() when l_ was computed
};

}  // namespace impetus
