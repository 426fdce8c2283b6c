// Least-‖τ‖ impulses at a fixed v⁺ (least_torque.hpp, LT1–LT4).
#include "control/inverse_dynamics/least_torque.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

// Rank of E = U Jᵀ and of (LT3)'s constraint: |R_ii| of a pivoted QR above this fraction of the
// largest. Their entries are unit directions and lever arms (≤ 1 m); dependent columns (a foot's
// tangent rows beside the base's six DoF) are dependent exactly, so their R_ii is round-off, ~1e-15;
// 1e-9 separates the two as the Stage II face of id_qp does (kNullspaceTolerance).
constexpr double kRankTolerance = 1e-9;
// Rank of the Gram matrix B_F B_Fᵀ: pivots of its pivoted Cholesky factorisation above this fraction
// of its largest diagonal entry. They carry an absolute round-off of ~1e-16 of the largest, so below ~1e-14 they
// are noise; 1e-13 keeps every direction whose singular value is ~3e-7 of the largest (lever arms
// above 0.3 µm on a 1 m robot).
constexpr double kGramRank = 1e-13;
// ε of (LT2), relative to ‖A‖²_F/m: breaks ties only where τ does not depend on δ (two rows of one
// contact both loaded); it moves τ by ~1e-10 relative.
constexpr double kRegularization = 1e-10;
// Active-set decisions (LT4): a row joins W when (LT3) drives p′ below this fraction of the largest
// impulse, and leaves it when λ_k is below this fraction of the multipliers' scale. (LT3) is solved
// to ~1e-12 relative in τ′ but only to ~1e-6 in the tie-breaking directions (its matrix has condition
// ~1/ε), so 1e-9 keeps round-off from moving rows in and out; a decision below it changes τ by at
// most that fraction.
constexpr double kActiveTolerance = 1e-9;
// The final p_N may end below 0 by the tie-breaking directions' accuracy: accepted down to this
// fraction of the largest impulse and clamped.
constexpr double kFeasibility = 1e-6;
// The undriven balance E δ = 0 after the passes, relative to ‖E‖·‖δ‖: the constraint of (LT3) is met
// by an orthogonal factorisation, to round-off.
constexpr double kBalanceTolerance = 1e-9;
// Passes of the active-set method. Each one changes W (else it stops); it settles in a few passes
// from W = ∅ (2 on the bench's standing quadruped); the cap only ends a cycle, which the method does
// not exclude for a general convex QP.
constexpr int kMaxPasses = 50;

}  // namespace

const MatrixView& undriven_impulse_kernel(const Eigen::MatrixXd& Jt, const std::vector<int>& actuated,
                                          UndrivenKernelWorkspace& ws) {
  const int nv = static_cast<int>(Jt.rows()), m = static_cast<int>(Jt.cols());
  std::vector<char>& driven = ws.driven;
  driven.assign(nv, 0);
  for (int a : actuated) driven[a] = 1;
  // Every buffer at its bound for m columns (E: at most nv rows; Z: at most m columns; Eᵀ's QR: at most nv
  // columns, Q m × m), so that no driven set nor rank allocates once the most columns were met.
  const Eigen::Index E_bound = static_cast<Eigen::Index>(nv) * m, Z_bound = static_cast<Eigen::Index>(m) * m;
  if (ws.E_storage.size() < E_bound) ws.E_storage.resize(E_bound);
  if (ws.Z_storage.size() < Z_bound) ws.Z_storage.resize(Z_bound);
  ws.qr.reserve(m, nv);
  grow(ws.E, ws.E_storage, nv - static_cast<int>(actuated.size()), m);
  MatrixView& E = ws.E;
  for (int i = 0, r = 0; i < nv; ++i)
    if (!driven[i]) E.row(r++) = Jt.row(i);
  if (E.rows() == 0) {
    grow(ws.Z, ws.Z_storage, m, m);
    ws.Z.setIdentity();
    return ws.Z;
  }
  ws.qr.compute(E.transpose());
  ws.qr.set_threshold(kRankTolerance);
  ws.qr.q_into(ws.Q, ws.Q_storage);
  const int rank = static_cast<int>(ws.qr.rank());
  grow(ws.Z, ws.Z_storage, m, m - rank);
  ws.Z = ws.Q.rightCols(m - rank);
  return ws.Z;
}

int LeastTorqueSelection::factor_gram() {
  // Right-looking, pivoting on the largest diagonal of the updated remainder, so the pivots decrease
  // and the first one below kGramRank of the largest ends the rank. (Eigen's LDLT pivots on the
  // original diagonal: a dependent coordinate may take a round-off pivot before independent ones.)
  S_ = G_;
  perm_.resize(nv_);
  for (int i = 0; i < nv_; ++i) perm_[i] = i;
  L_.setZero(nv_, nv_);
  const double top = nv_ > 0 ? S_.diagonal().maxCoeff() : 0.0;
  int r = 0;
  for (; r < nv_; ++r) {
    int j = 0;
    const double d = S_.diagonal().tail(nv_ - r).maxCoeff(&j);
    j += r;
    if (!(d > kGramRank * top)) break;
    if (j != r) {
      S_.row(r).swap(S_.row(j));
      S_.col(r).swap(S_.col(j));
      L_.row(r).head(r).swap(L_.row(j).head(r));
      std::swap(perm_[r], perm_[j]);
    }
    const int n = nv_ - r - 1;
    const double l = std::sqrt(d);
    L_(r, r) = l;
    L_.col(r).tail(n) = S_.col(r).tail(n) / l;
    S_.bottomRightCorner(n, n).noalias() -= L_.col(r).tail(n) * L_.col(r).tail(n).transpose();
  }
  return r;
}

void LeastTorqueSelection::reserve(int nv, int na, int most_columns) {
  // Kept per driven count: the effort limits' rounds solve with driven joints held (fewer columns of P).
  if (nv != reserved_nv_) {
    reserved_nv_ = nv;
    reserved_columns_.assign(nv + 1, 0);
    ranks_parked_.assign(nv + 1, 0);
  }
  if (most_columns <= reserved_columns_[na]) return;
  const int nu = nv - na;
  // E's QR at every column count up to the bound.
  if (nu > 0)
    for (int m = reserved_columns_[na] + 1; m <= most_columns; ++m) {
      auto& qr = qr_E_(nu, m);
      if (qr.rows() != nu || qr.cols() != m) qr.compute(Eigen::MatrixXd::Zero(nu, m));   // sized by a compute
    }
  // Ẽᵀ's QR and H's LLT at every rank: r ≤ nv whatever m.
  if (!ranks_parked_[na])
    for (int r = 1; r <= nv; ++r) {
      if (nu > 0) {
        auto& qr = qr_(r, nu);
        if (qr.rows() != r || qr.cols() != nu) qr.compute(Eigen::MatrixXd::Zero(r, nu));
      }
      auto& llt = llt_(r, r);
      if (llt.rows() != r) llt.compute(Eigen::MatrixXd::Identity(r, r));
    }
  ranks_parked_[na] = 1;
  // The views' storage at the bounds (grow() then only points them).
  const Eigen::Index m = std::max(most_columns, static_cast<int>(B_storage_.size() / std::max(nv, 1)));
  auto at_least = [](Eigen::VectorXd& storage, Eigen::Index size) {
    if (storage.size() < size) storage.resize(size);
  };
  at_least(A_storage_, na * m);
  at_least(E_storage_, nu * m);
  at_least(B_storage_, nv * m);
  at_least(delta_storage_, m);
  at_least(x_new_storage_, m);
  at_least(At_storage_, na * nv);
  at_least(Et_storage_, nu * nv);
  at_least(AZ_storage_, na * nv);
  for (Eigen::VectorXd* square : {&Qy_storage_, &Zy_storage_, &H_storage_}) at_least(*square, nv * nv);
  for (Eigen::VectorXd* vector : {&householder_storage_, &y_storage_, &u_storage_, &rhs_storage_, &Zty_storage_,
                                  &step_storage_, &z_storage_, &Atau_storage_, &gradient_storage_, &g_storage_})
    at_least(*vector, nv);
  held_.reserve(m);
  reserved_columns_[na] = most_columns;
}

void LeastTorqueSelection::solve_piece(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::VectorXd& tau) {
  // b = τ + A_W x_W, e = E_W x_W: the held rows' δ_k = −x_k moved to the right-hand side.
  b_ = tau;
  e_.setZero(nu_);
  delta_.setZero();
  for (int k = 0; k < m_; ++k)
    if (held_[k]) {
      b_.noalias() += A_.col(k) * x[k];
      e_.noalias() += E_.col(k) * x[k];
      delta_[k] = -x[k];
    }
  // G = B_F B_Fᵀ = C Cᵀ, C = Πᵀ L (nv×r) from the pivoted Cholesky factor (LT3). As B_F and C have
  // the same Gram matrix, B_F = C Vᵀ with V (m×r) orthonormal, and on the pivot rows V = B_pivᵀ L₁₁⁻ᵀ:
  // δ_F = V y = B_Fᵀ η.
  const int r = factor_gram();
  grow(At_, At_storage_, na_, r);
  grow(Et_, Et_storage_, nu_, r);
  for (int i = 0; i < nv_; ++i) {
    const int c = perm_[i];
    if (c < na_) At_.row(c) = L_.row(i).head(r);
    else Et_.row(c - na_) = L_.row(i).head(r);
  }
  // The constraint Ẽ y = e on the null space of Ẽ: Ẽᵀ P = Q R, y = Q₁ R₁₁⁻ᵀ (Pᵀe)₁ + Q₂ w.
  // Every temporary of the expressions is a member of the type Eigen would make (no allocation once warm),
  // each product evaluated into a whole plain vector or matrix as Eigen evaluates its temporaries: the bits.
  int q = 0;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd>* qr = nullptr;
  grow(y_, y_storage_, r);
  y_.setZero();
  if (nu_ > 0 && r > 0) {
    qr = &qr_(r, nu_);
    qr->compute(Et_.transpose());
    qr->setThreshold(kRankTolerance);
    q = static_cast<int>(qr->rank());
    grow(Qy_, Qy_storage_, r, r);
    grow(householder_, householder_storage_, r);
    qr->householderQ().evalTo(Qy_, householder_);
    Pe_.noalias() = qr->colsPermutation().transpose() * e_;
    grow(u_, u_storage_, q);
    u_ = Pe_.head(q);
    qr->matrixR().topLeftCorner(q, q).transpose().triangularView<Eigen::Lower>().solveInPlace(u_);
    y_.noalias() = Qy_.leftCols(q) * u_;
    grow(Zy_, Zy_storage_, r, r - q);
    Zy_ = Qy_.rightCols(r - q);
  } else {
    grow(Zy_, Zy_storage_, r, r);
    Zy_.setIdentity();
  }
  if (r - q > 0) {
    grow(AZ_, AZ_storage_, na_, r - q);
    grow(H_, H_storage_, r - q, r - q);
    grow(rhs_, rhs_storage_, r - q);
    grow(Zty_, Zty_storage_, r - q);
    grow(step_, step_storage_, r - q);
    AZ_.noalias() = At_ * Zy_;
    H_.noalias() = AZ_.transpose() * AZ_;
    H_.diagonal().array() += epsilon_;
    // rhs = AZᵀ(b − A y) − ε Zᵀy: Eigen evaluates ε (Zᵀy) as the product (ε Zᵀ) y, whose kernel applies ε
    // to each finished dot product: Zᵀy, then scaled, gives its bits.
    Ay_.noalias() = At_ * y_;
    residual_ = b_ - Ay_;
    rhs_.noalias() = AZ_.transpose() * residual_;
    Zty_.noalias() = Zy_.transpose() * y_;
    Zty_ *= epsilon_;
    rhs_ -= Zty_;
    Eigen::LLT<Eigen::MatrixXd>& llt = llt_(r - q, r - q);
    llt.compute(H_);
    step_ = rhs_;
    llt.solveInPlace(step_);
    y_.noalias() += Zy_ * step_;
  }
  // δ_F = V y = B_Fᵀ η, η = Πᵀ [L₁₁⁻ᵀ y; 0]; τ′ = τ − A δ.
  grow(z_, z_storage_, r);
  z_ = y_;
  L_.topLeftCorner(r, r).transpose().triangularView<Eigen::Upper>().solveInPlace(z_);
  eta_.setZero(nv_);
  for (int i = 0; i < r; ++i) eta_[perm_[i]] = z_[i];
  for (int k = 0; k < m_; ++k)
    if (!held_[k]) delta_[k] = A_.col(k).dot(eta_.head(na_)) + E_.col(k).dot(eta_.tail(nu_));
  tau_new_ = tau;
  tau_new_.noalias() -= A_ * delta_;
  // μ from the stationarity of (LT3) in y: Ẽᵀμ = Ãᵀτ′ − εy (the basic least-squares solution).
  mu_.setZero(nu_);
  if (q > 0) {
    grow(Atau_, Atau_storage_, r);
    grow(gradient_, gradient_storage_, r);
    grow(g_, g_storage_, r);
    Atau_.noalias() = At_.transpose() * tau_new_;
    gradient_ = Atau_ - epsilon_ * y_;
    g_.noalias() = Qy_.transpose() * gradient_;
    z_mu_.setZero(nu_);
    z_mu_.head(q) = qr->matrixR().topLeftCorner(q, q).triangularView<Eigen::Upper>().solve(g_.head(q));
    mu_.noalias() = qr->colsPermutation() * z_mu_;
  }
}

bool LeastTorqueSelection::select(const Eigen::Ref<const Eigen::MatrixXd>& Jt, const std::vector<char>& nonnegative,
                                  const std::vector<int>& actuated, Eigen::Ref<Eigen::VectorXd> x,
                                  Eigen::VectorXd& tau, LeastTorqueReport& report) {
  report = {};
  nv_ = static_cast<int>(Jt.rows());
  m_ = static_cast<int>(Jt.cols());
  na_ = static_cast<int>(actuated.size());
  nu_ = nv_ - na_;
  if (m_ == 0 || na_ == 0) return true;
  reserve(nv_, na_, m_);
  // A = P Jᵀ, E = U Jᵀ (the rows at undriven coordinates).
  std::vector<char>& driven = driven_;
  driven.assign(nv_, 0);
  for (int a : actuated) driven[a] = 1;
  grow(A_, A_storage_, na_, m_);
  grow(E_, E_storage_, nu_, m_);
  for (int a = 0; a < na_; ++a) A_.row(a) = Jt.row(actuated[a]);
  for (int i = 0, u = 0; i < nv_; ++i)
    if (!driven[i]) E_.row(u++) = Jt.row(i);
  int rank = 0;
  if (nu_ > 0) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd>& qr_E = qr_E_(nu_, m_);
    qr_E.compute(E_);
    qr_E.setThreshold(kRankTolerance);
    rank = static_cast<int>(qr_E.rank());
  }
  report.freedom = m_ - rank;
  if (report.freedom == 0) return true;
  epsilon_ = kRegularization * std::max(A_.squaredNorm() / m_, 1e-300);

  // The Gram matrix of every column, [A; E][A; E]ᵀ; a pass subtracts the held ones.
  grow(B_, B_storage_, nv_, m_);
  grow(delta_, delta_storage_, m_);
  grow(x_new_, x_new_storage_, m_);
  MatrixView& B = B_;
  B << A_, E_;
  G_all_.setZero(nv_, nv_);
  G_all_.selfadjointView<Eigen::Lower>().rankUpdate(B);
  G_all_.triangularView<Eigen::StrictlyUpper>() = G_all_.transpose();
  const double x_scale = std::max(x.cwiseAbs().maxCoeff(), 1e-300);
  double column_scale = 0;
  for (int k = 0; k < m_; ++k) column_scale = std::max(column_scale, B.col(k).norm());

  held_.assign(m_, 0);
  bool settled = false;
  for (int pass = 0; pass < kMaxPasses && !settled; ++pass) {
    report.pivots = pass + 1;
    G_ = G_all_;
    for (int k = 0; k < m_; ++k)
      if (held_[k]) G_.noalias() -= B.col(k) * B.col(k).transpose();
    solve_piece(x, tau);
    // (LT4): the multipliers' scale for the decisions.
    const double dual_scale = column_scale * std::max({tau.cwiseAbs().maxCoeff(), tau_new_.cwiseAbs().maxCoeff(),
                                                       nu_ > 0 ? mu_.cwiseAbs().maxCoeff() : 0.0, 1e-300});
    settled = true;
    for (int k = 0; k < m_; ++k) {
      if (!nonnegative[k]) continue;
      if (held_[k]) {
        const double lambda_k = -A_.col(k).dot(tau_new_) + E_.col(k).dot(mu_) - epsilon_ * x[k];
        if (lambda_k < -kActiveTolerance * dual_scale) held_[k] = 0, settled = false;
      } else if (x[k] + delta_[k] < -kActiveTolerance * x_scale) {
        held_[k] = 1, settled = false;
      }
    }
  }
  if (!settled) return false;
  const double delta_norm = delta_.cwiseAbs().maxCoeff();
  if (nu_ > 0) Edelta_.noalias() = E_ * delta_;
  if (nu_ > 0 && Edelta_.cwiseAbs().maxCoeff() > kBalanceTolerance * column_scale * std::max(delta_norm, 1e-300))
    return false;
  VectorView& x_new = x_new_;
  x_new = x + delta_;
  for (int k = 0; k < m_; ++k) {
    if (!nonnegative[k]) continue;
    if (x_new[k] < -kFeasibility * x_scale) return false;
    x_new[k] = std::max(x_new[k], 0.0);
  }
  report.changed = (tau_new_ - tau).norm() > 1e-12 * std::max(tau.norm(), 1e-300);
  x = x_new;
  tau = tau_new_;
  return true;
}

}  // namespace impetus
