// ID(t_i)_LCP,∞ (id_lcp_noslip.hpp, NS-ID1–NS-ID3).
#include "control/inverse_dynamics/id_lcp_noslip.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace impetus {
namespace {

// (NS-ID4): a dropped tangent row is met when its velocity is below this fraction of the problem's
// velocity scale. Kept rows hold to principal pivoting's certificate (1e-9 relative) and a dropped row
// is a combination of kept rows with coefficients of order one (FIND-INDICES keeps a row only when
// sin²θ > τ_dep), so a consistent q̇_des leaves ~1e-9; an inconsistent one leaves the inconsistency
// itself, orders above. 1e-6 separates the two.
constexpr double kSlipTolerance = 1e-6;
// (NS-LS4): the proximal steps stop when v moves by less than kTargetTolerance of the velocity scale,
// or after kTargetIterations (each one projection). Every iterate lies in F, so its P v is a consistent
// target whatever the stop; the tolerance only bounds how far from the closest one it may be. Measured
// on two diagonal stuck feet of the quadruped asked to swing apart (IndeterminateContact.NoSlipReports…):
// 4–5 steps reach 1e-9 on most calls, a few crawl at 1e-7–1e-9 per step for 200 steps (a direction of F
// almost parallel to A); 1e-7 of the velocity scale is a tenth of the (NS-ID4) slip tolerance.
constexpr double kTargetTolerance = 1e-7;
constexpr int kTargetIterations = 20;
// (NS-LS4): the weight s of the target's part of the metric. Each proximal step shrinks the distance to
// the minimiser by about 1/(1 + s sin²θ) (θ the angle between A and F's active face in M), so 1e4 takes
// a problem with sin²θ ≥ 1e-2 to the tolerance in a few steps; the Delassus matrices of W_s⁻¹ then have
// eigenvalues down to ~1/s of M's, four of principal pivoting's sixteen digits.
constexpr double kTargetWeight = 1e4;

// (NS-SP1) Speed: FIND-INDICES costs one y = M⁻¹cᵀ per tangent row tried, accepted or not (perf at 100
// contacts: 60 % of the call in BlockInertia::solve_row, a sequential triangular solve of the 18-wide
// block). With M⁻¹ formed once (nv solves) y is a sum of nnz(c) columns, which vectorises; worth it when
// the call tries more rows than M⁻¹ has columns: 3 nc > nv (two tangent rows and a normal per contact).
class DenseInverse final : public InertiaOperator {
 public:
  DenseInverse(const InertiaOperator& W, Eigen::MatrixXd& W_inverse, Eigen::VectorXd& scratch)
      : W_inverse_(W_inverse), scratch_(scratch) {
    const int n = W.size();
    W_inverse_.setIdentity(n, n);
    for (int j = 0; j < n; ++j) W.solve_in_place(W_inverse_.col(j));
    scratch_.resize(n);
  }
  int size() const override { return static_cast<int>(W_inverse_.cols()); }
  void solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const override {
    y.setZero();
    for (SparseRows::InnerIterator it(*c.matrix, c.row); it; ++it) y.noalias() += it.value() * W_inverse_.col(it.col());
  }
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const override {
    scratch_.noalias() = W_inverse_ * x;
    x = scratch_;
  }

 private:
  Eigen::MatrixXd& W_inverse_;
  Eigen::VectorXd& scratch_;
};

// W_s = M + (s − 1) PᵀG⁻¹P, applied through Woodbury: W_s⁻¹ = M⁻¹ − (1 − 1/s) M⁻¹Pᵀ G⁻¹ P M⁻¹ (NS-LS4).
class TargetWeightedMetric final : public InertiaOperator {
 public:
  TargetWeightedMetric(const InertiaOperator& M, const Eigen::MatrixXd& Minv_Pt, const Eigen::LLT<Eigen::MatrixXd>& G,
                       const std::vector<int>& actuated, double s, Eigen::VectorXd& scratch)
      : M_(M), Minv_Pt_(Minv_Pt), G_(G), actuated_(actuated), shrink_(1 - 1 / s), scratch_(scratch) {
    scratch_.resize(static_cast<Eigen::Index>(actuated.size()));
  }
  int size() const override { return M_.size(); }
  void solve_row(RowRef c, Eigen::Ref<Eigen::VectorXd> y) const override {
    M_.solve_row(c, y);
    correct(y);
  }
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const override {
    M_.solve_in_place(x);
    correct(x);
  }

 private:
  void correct(Eigen::Ref<Eigen::VectorXd> y) const {
    for (std::size_t a = 0; a < actuated_.size(); ++a) scratch_[a] = y[actuated_[a]];
    G_.solveInPlace(scratch_);
    y.noalias() -= shrink_ * (Minv_Pt_ * scratch_);
  }
  const InertiaOperator& M_;
  const Eigen::MatrixXd& Minv_Pt_;
  const Eigen::LLT<Eigen::MatrixXd>& G_;
  const std::vector<int>& actuated_;
  double shrink_;
  Eigen::VectorXd& scratch_;
};


}  // namespace

bool IdLcpNoSlip::solve_projection(const ContactProblem& cp, bool with_p_rows, double tau_G,
                                   const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const int na = static_cast<int>(problem.actuated.size()), nc = cp.nc, nl = cp.nl;
  slipped_ = false;
  factor_.reset(*metric_, v_f_);
  const double tol = tau_G;
  if (with_p_rows) {
    // 1. P rows, targets q̇_des: independent by construction, so a rejection means a driven coordinate
    //    without inertia (or numerically so).
    for (int a = 0; a < na; ++a)
      if (!factor_.try_append(RowRef{&P_, a}, problem.qd_des[a], tol)) {
        solution.stats.status = SolveStatus::Failed;
        solution.stats.message = "driven coordinate " + std::to_string(a) + " is dependent on the others";
        return false;
      }
  }
  // 2. FIND-INDICES on the S, T rows of the contacts the forward no_slip model (stick_gap = inf) locks:
  //    those within the collision margin (cp.touch_margin).
  sticks_.clear();
  if (std::isfinite(cp.touch_margin)) {
    sticks_.resize(cp.nc);
    for (int i = 0; i < cp.nc; ++i) sticks_[i] = cp.phi[i] <= cp.touch_margin;
  }
  find_indices(cp.S, cp.T, sticks_, tol, factor_, indices_);
  // 3. The normal (and joint-limit) LCP, warm-started.
  U_.set(cp);
  grow(guess_, guess_storage_, nc + nl);
  guess_.setZero();
  if (options_.projection.warm_start) memory_.guess(cp, guess_.head(nc));
  grow(z_, z_storage_, U_.size());
  grow(lambda_G_, lambda_G_storage_, factor_.size());   // its size follows the driven rows: grow-only
  projection_.solve(*metric_, factor_, U_, v_f_, guess_, options_.projection, z_, solution.v_plus, lambda_G_,
                    solution.stats);
  // 4. Impulses from the multipliers.
  solution.fit_impulses(nc);
  solution.p_N = z_.head(nc);
  solution.p_S.setZero();   // nc, fitted above
  solution.p_T.setZero();
  for (int i = 0; i < nc; ++i) {
    if (indices_.s_position[i] >= 0) solution.p_S[i] = lambda_G_[indices_.s_position[i]];
    if (indices_.t_position[i] >= 0) solution.p_T[i] = lambda_G_[indices_.t_position[i]];
  }
  if (with_p_rows) solution.tau = lambda_G_.head(na);
  if (solution.stats.status == SolveStatus::Failed) return false;
  // (NS-ID4): the tangent rows FIND-INDICES dropped must hold too. With the P rows in the factor a
  // dropped row is a combination of kept rows whose targets include q̇_des, so it holds only when
  // q̇_des is consistent with the sticking contacts (seed 004 App. E assumes homogeneous targets).
  if (with_p_rows) {
    double scale = problem.qd_des.size() > 0 ? problem.qd_des.cwiseAbs().maxCoeff() : 0.0;
    scale = std::max({scale, v_f_.cwiseAbs().maxCoeff(), solution.v_plus.cwiseAbs().maxCoeff()});
    double worst = 0;
    for (int i = 0; i < nc; ++i)
      if (sticks_.empty() || sticks_[i])
        worst = std::max({worst, std::abs(row_dot({&cp.S, i}, solution.v_plus)),
                          std::abs(row_dot({&cp.T, i}, solution.v_plus))});
    if (worst > kSlipTolerance * scale) {
      slipped_ = true;
      solution.stats.status = SolveStatus::Failed;
      solution.stats.message = "a sticking contact slips at " + std::to_string(worst) +
                               " m/s under q̇_des (dependent tangent row not met)";
      return false;
    }
  }
  return true;
}

void IdLcpNoSlip::reserve_stage_two(int nc, int nv, int na) {
  if (nc > stage_two_most_nc_ || nv != stage_two_nv_) {
    stage_two_most_nc_ = nv == stage_two_nv_ ? std::max(nc, stage_two_most_nc_) : nc;
    stage_two_nv_ = nv;
    // A binding normal row and the two tangent rows of each contact at most: m ≤ 3 nc.
    const int most_columns = 3 * stage_two_most_nc_;
    columns_.reserve(most_columns);
    nonnegative_.reserve(most_columns);
    if (Jt_storage_.size() < nv * most_columns) Jt_storage_.resize(nv * most_columns);
    if (x_storage_.size() < most_columns) x_storage_.resize(most_columns);
  }
  least_torque_.reserve(nv, na, 3 * stage_two_most_nc_);   // per driven count (the effort limits' rounds)
}

void IdLcpNoSlip::stage_two(const ContactProblem& cp, const InverseDynamicsProblem& problem,
                            InverseDynamicsSolution& solution) {
  const int nc = cp.nc, nv = cp.nv;
  reserve_stage_two(nc, nv, static_cast<int>(problem.actuated.size()));
  // Binding normal rows: N v⁺ + φ/dt at the certificate's level (the slip test's scale, NS-ID4).
  double scale = problem.qd_des.size() > 0 ? problem.qd_des.cwiseAbs().maxCoeff() : 0.0;
  scale = std::max({scale, v_f_.cwiseAbs().maxCoeff(), solution.v_plus.cwiseAbs().maxCoeff()});
  columns_.clear();
  nonnegative_.clear();
  for (int i = 0; i < nc; ++i)
    if (solution.p_N[i] > 0 || row_dot({&cp.N, i}, solution.v_plus) + cp.phi[i] / cp.dt <= kSlipTolerance * scale) {
      columns_.push_back(i);
      nonnegative_.push_back(1);
    }
  for (int i = 0; i < nc; ++i) {
    if (indices_.s_position[i] >= 0) columns_.push_back(nc + i), nonnegative_.push_back(0);
    if (indices_.t_position[i] >= 0) columns_.push_back(2 * nc + i), nonnegative_.push_back(0);
  }
  const int m = static_cast<int>(columns_.size());
  grow(Jt_, Jt_storage_, nv, m);
  Jt_.setZero();
  grow(x_, x_storage_, m);
  for (int k = 0; k < m; ++k) {
    const int c = columns_[k];
    const SparseRows& rows = c < nc ? cp.N : c < 2 * nc ? cp.S : cp.T;
    const int i = c % nc;
    for (SparseRows::InnerIterator it(rows, i); it; ++it) Jt_(it.col(), k) = it.value();
    x_[k] = c < nc ? solution.p_N[i] : c < 2 * nc ? solution.p_S[i] : solution.p_T[i];
  }
  LeastTorqueReport report;
  if (!least_torque_.select(Jt_, nonnegative_, problem.actuated, x_, solution.tau, report)) {
    solution.stats.status = SolveStatus::Fallback;
    solution.stats.message = "Stage II: the least-‖τ‖ active set did not settle; principal pivoting's impulses kept";
    solution.fallbacks += 1;
    return;
  }
  solution.stats.iterations += report.pivots;
  for (int k = 0; k < m; ++k) {
    const int c = columns_[k], i = c % nc;
    (c < nc ? solution.p_N : c < 2 * nc ? solution.p_S : solution.p_T)[i] = x_[k];
  }
}

bool IdLcpNoSlip::solve_with_retry(const ContactProblem& cp, const InverseDynamicsProblem& problem,
                                   InverseDynamicsSolution& solution) {
  // τ_G as the twin's FIND-INDICES (no_slip_model.hpp): the rows it keeps are the forward step's, and
  // a row kept at sin²θ ~ 1e-12 makes the impulses ~1e8 (LINKS standing: speculative contacts' points
  // sit φ/2 above the plane, so their tangent rows are independent of the P rows only by that lever).
  // Then the twin's retry (NS5) at kNoSlipRetryDependence.
  v_f_ = cp.v_star;
  bool ok = solve_projection(cp, true, options_.equality_dependence_tolerance, problem, solution);
  if (!ok && kNoSlipRetryDependence > options_.equality_dependence_tolerance) {
    const int iterations = solution.stats.iterations;
    v_f_ = cp.v_star;
    ok = solve_projection(cp, true, kNoSlipRetryDependence, problem, solution);
    solution.stats.iterations += iterations;
  }
  return ok;
}

bool IdLcpNoSlip::least_squares_target(const ContactProblem& cp, const InverseDynamicsProblem& problem,
                                       InverseDynamicsSolution& solution) {
  const int na = static_cast<int>(problem.actuated.size()), nv = cp.nv;
  // M⁻¹Pᵀ and G = P M⁻¹ Pᵀ (NS-LS2–3).
  Minv_Pt_.resize(nv, na);
  e_.resize(nv);
  for (int a = 0; a < na; ++a) {
    e_.setZero();
    e_[problem.actuated[a]] = 1;
    cp.solve_M(e_, column_);
    Minv_Pt_.col(a) = column_;
  }
  G_.resize(na, na);
  for (int a = 0; a < na; ++a)
    for (int b = 0; b < na; ++b) G_(a, b) = Minv_Pt_(problem.actuated[a], b);
  G_llt_.compute(G_);
  if (G_llt_.info() != Eigen::Success) return false;
  double scale = problem.qd_des.size() > 0 ? problem.qd_des.cwiseAbs().maxCoeff() : 0.0;
  scale = std::max(scale, cp.v_star.cwiseAbs().maxCoeff());
  // Proximal steps (NS-LS4) from v_0 = v*: v_{k+1} = Π_F^{W_s}(Π_A v_k), until v moves by less than
  // kTargetTolerance of the velocity scale or kTargetIterations are done.
  const InertiaOperator& base = *metric_;
  const TargetWeightedMetric weighted(base, Minv_Pt_, G_llt_, problem.actuated, kTargetWeight, scratch_);
  metric_ = &weighted;
  v_iterate_ = cp.v_star;
  miss_.resize(na);
  int iterations = 0, k = 0;
  double moved = 0;
  for (; k < kTargetIterations; ++k) {
    for (int a = 0; a < na; ++a) miss_[a] = problem.qd_des[a] - v_iterate_[problem.actuated[a]];
    v_f_ = v_iterate_ + Minv_Pt_ * G_llt_.solve(miss_);
    if (!solve_projection(cp, false, options_.equality_dependence_tolerance, problem, solution)) {
      target_failure_ = "proximal step " + std::to_string(k) + ": " + solution.stats.message;
      metric_ = &base;
      return false;
    }
    iterations += solution.stats.iterations;
    moved = (solution.v_plus - v_iterate_).cwiseAbs().maxCoeff() / scale;
    v_iterate_ = solution.v_plus;
    if (moved <= kTargetTolerance) {
      ++k;
      break;
    }
  }
  metric_ = &base;
  // The ID of q̇′ = P v_K.
  target_problem_.contact = problem.contact;
  target_problem_.actuated = problem.actuated;
  target_problem_.qd_des.resize(na);
  for (int a = 0; a < na; ++a) target_problem_.qd_des[a] = v_iterate_[problem.actuated[a]];
  solution.stats = {};
  if (!solve_with_retry(cp, target_problem_, solution)) {
    target_failure_ = "the ID of the consistent target: " + solution.stats.message;
    return false;
  }
  solution.stats.iterations += iterations;
  miss_ = problem.qd_des - target_problem_.qd_des;
  const double miss = std::sqrt(miss_.dot(G_llt_.solve(miss_)));
  solution.stats.status = SolveStatus::Fallback;
  char text[160];
  std::snprintf(text, sizeof text, ": ‖q̇_des − q̇′‖ = %.3g (G⁻¹-norm %.3g) after %d proximal steps (last moved %.2g)",
                miss_.norm(), miss, k, moved);
  solution.stats.message = std::string(kLeastSquaresMessage) + text;
  solution.fallbacks = 1;
  return true;
}

void IdLcpNoSlip::solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) {
  const ContactProblem& cp = *problem.contact;
  const int na = static_cast<int>(problem.actuated.size());
  solution.stats = {};
  solution.fallbacks = 0;

  // P: one 1 per driven coordinate, written into the compressed arrays (Eigen's insert() reallocates the row
  // counts at every call); the same rows as inserting them. Rows na and beyond are kept, empty: the effort
  // limits' re-solves alternate between na and fewer driven coordinates, and Eigen's resize reallocates the
  // row pointers at every change of shape. Only rows 0…na−1 are read (RowRef).
  if (P_.rows() < na || P_.cols() != cp.nv || !P_.isCompressed())
    P_.resize(std::max<Eigen::Index>(na, P_.cols() == cp.nv ? P_.rows() : 0), cp.nv);
  P_.data().resize(na);
  for (int a = 0; a < na; ++a) {
    P_.outerIndexPtr()[a] = a;
    P_.innerIndexPtr()[a] = problem.actuated[a];
    P_.valuePtr()[a] = 1.0;
  }
  for (Eigen::Index r = na; r <= P_.rows(); ++r) P_.outerIndexPtr()[r] = na;
  M_inverse_.reset(cp);
  metric_ = &M_inverse_;
  struct Restore {   // metric_ must not outlive `dense`
    const InertiaOperator*& metric;
    const InertiaOperator* block;
    ~Restore() { metric = block; }
  } restore{metric_, &M_inverse_};
  std::optional<DenseInverse> dense;
  if (3 * cp.nc > cp.nv) {
    dense.emplace(M_inverse_, M_dense_inverse_, dense_scratch_);
    metric_ = &*dense;
  }

  // (NS-ID6) The call itself keeps tangent rows only at sin²θ > kNoSlipRetryDependence (the twin's retry
  // level) and checks the rest (NS-ID4). With the P rows fixed a contact's rows can be independent of the
  // kept ones only through the φ/2 lever of a contact point off the plane (a foot lifting inside the
  // collision margin); kept at the twin's 1e-10 they demanded p_T ~ 800 N·s and τ ~ 7e4 (measured on
  // three feet). A consistent target meets the dropped rows (same v⁺, App. E); one that misses them is
  // inconsistent and gets the least-squares target over every locked row (NS-LS2), whose ID (below, the
  // twin's τ_G) predicts the twin's step.
  v_f_ = cp.v_star;
  if (solve_projection(cp, true, std::max(kNoSlipRetryDependence, options_.equality_dependence_tolerance), problem,
                       solution)) {
    if (solution.stats.status == SolveStatus::Fallback) solution.fallbacks = 1;
    if (options_.stage_two) stage_two(cp, problem, solution);
    memory_.remember(cp, solution.p_N);
    return;
  }

  // §4.5: q̇_des is inconsistent with the contacts (the projection is infeasible, or a dropped tangent
  // row slips): the ID of the closest consistent target (NS-LS1–3).
  const std::string why = solution.stats.message;
  if (least_squares_target(cp, problem, solution)) {
    solution.stats.message += " (" + why + ")";
    if (options_.stage_two) stage_two(cp, problem, solution);
    memory_.remember(cp, solution.p_N);
    return;
  }

  // Last resort: τ = τ_c, and the prediction of the forward no-slip step under it.
  ActuatedElimination elimination;
  if (!elimination.build(problem)) {
    solution.stats.status = SolveStatus::Failed;
    solution.stats.message = "the driven coordinates' inertia P M⁻¹ Pᵀ is singular";
    return;
  }
  v_f_ = elimination.v_c();
  solution.stats = {};
  const bool ok = solve_projection(cp, false, options_.equality_dependence_tolerance, problem, solution);
  solution.tau = elimination.tau_c();
  solution.fallbacks = 1;
  solution.stats.status = ok ? SolveStatus::Fallback : SolveStatus::Failed;
  solution.stats.message = "inconsistent q̇_des (seed 004 §4.5): " + why +
                           "; the closest consistent target failed (" + target_failure_ + "); τ = contact-free ID";
  if (ok) memory_.remember(cp, solution.p_N);
}

}  // namespace impetus
