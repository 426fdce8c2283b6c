// Mehrotra predictor–corrector for the cone program (interior_point.hpp).
#include "contact/solvers/interior_point.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace impetus {

const char* to_string(InteriorPointStatus status) {
  switch (status) {
    case InteriorPointStatus::Solved: return "solved";
    case InteriorPointStatus::Acceptable: return "solved to the acceptable tolerance";
    case InteriorPointStatus::IterationLimit: return "iteration limit";
    case InteriorPointStatus::Stalled: return "stalled";
    case InteriorPointStatus::NumericalFailure: return "numerical failure";
    case InteriorPointStatus::InvalidProgram: return "invalid program";
  }
  return "?";
}

namespace {

bool all_finite(const Eigen::VectorXd& x) { return x.allFinite(); }

/// Sizes of the program's parts agree with each other.
bool consistent(const ConeProgram& P, std::string& why) {
  if (P.v_star.size() != P.nv) why = "v* has the wrong size";
  else if (P.J.rows() != P.np || (P.np > 0 && P.J.cols() != P.nv)) why = "J is not np×nv";
  else if (P.c.size() != 0 && P.c.size() != P.np) why = "c has the wrong size";
  else if (P.R.rows() != P.nr() || (P.nr() > 0 && P.R.cols() != P.nv)) why = "R does not match r";
  else {
    for (const SystemBlock& s : P.systems)
      if (s.M == nullptr || s.M_llt == nullptr) {
        why = "a system block comes without M or its factor";
        return false;
      }
    for (const ImpulseGroup& g : P.groups)
      if (g.first_linear < 0 || g.first_linear + g.num_linear > static_cast<int>(P.linear.size()) ||
          g.cone >= static_cast<int>(P.cones.size())) {
        why = "a group names constraints that do not exist";
        return false;
      }
    return true;
  }
  return false;
}

}  // namespace

void InteriorPointSolver::move_into_cone(Eigen::VectorXd& u) const {
  // α = how far u lies outside 𝒞 along e; if it is not safely inside, u ← u + (1 + α) e ([VA] §5.3).
  const ConeLayout& L = kkt_.layout();
  double alpha = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < L.n_lp(); ++i) alpha = std::max(alpha, -u[i]);
  for (int c = 0; c < L.ncone; ++c) alpha = std::max(alpha, soc::distance_outside(u.segment<3>(L.cone(c))));
  constexpr double kInsideMargin = 1e-8;   // scaled units: a point this close to the boundary is moved
  if (alpha < -kInsideMargin) return;
  const double shift = 1 + alpha;
  for (int i = 0; i < L.n_lp(); ++i) u[i] += shift;
  for (int c = 0; c < L.ncone; ++c) u[L.cone(c)] += shift;
}

double InteriorPointSolver::max_step(const Eigen::VectorXd& s, const Eigen::VectorXd& ds, const Eigen::VectorXd& z,
                                     const Eigen::VectorXd& dz) const {
  const ConeLayout& L = kkt_.layout();
  double alpha = std::numeric_limits<double>::infinity();
  for (int i = 0; i < L.n_lp(); ++i) {
    if (ds[i] < 0) alpha = std::min(alpha, -s[i] / ds[i]);
    if (dz[i] < 0) alpha = std::min(alpha, -z[i] / dz[i]);
  }
  for (int c = 0; c < L.ncone; ++c) {
    const int k = L.cone(c);
    alpha = std::min(alpha, soc::max_step(s.segment<3>(k), ds.segment<3>(k)));
    alpha = std::min(alpha, soc::max_step(z.segment<3>(k), dz.segment<3>(k)));
  }
  return alpha;
}

bool InteriorPointSolver::strictly_inside(const Eigen::VectorXd& u) const {
  const ConeLayout& L = kkt_.layout();
  for (int i = 0; i < L.n_lp(); ++i)
    if (!(u[i] > 0)) return false;
  for (int c = 0; c < L.ncone; ++c) {
    const Eigen::Vector3d x = u.segment<3>(L.cone(c));
    if (!(x[0] > 0 && soc::j_inner(x) > 0)) return false;
  }
  return true;
}

bool InteriorPointSolver::centred(const Eigen::VectorXd& s, const Eigen::VectorXd& z) const {
  // (IP7): every pair's smaller complementarity eigenvalue is at least γ μ. For a linear row that is
  // s_i z_i; for a cone, the smaller eigenvalue of λ∘λ, (λ₀ − ‖λ₁‖)², with λ = W z of the pair.
  const ConeLayout& L = kkt_.layout();
  const int degree = L.degree();
  if (degree == 0) return true;
  const double mu = s.dot(z) / degree;
  constexpr double kNeighbourhood = 1e-3;   // γ: wide, so that it only stops the steps that wreck centrality
  for (int i = 0; i < L.n_lp(); ++i)
    if (s[i] * z[i] < kNeighbourhood * mu) return false;
  for (int c = 0; c < L.ncone; ++c) {
    const int k = L.cone(c);
    soc::NtScaling W;
    W.compute(s.segment<3>(k), z.segment<3>(k));
    const Eigen::Vector3d l = W.apply(z.segment<3>(k));
    const double smallest = l[0] - std::hypot(l[1], l[2]);
    if (smallest * smallest < kNeighbourhood * mu) return false;
  }
  return true;
}

void InteriorPointSolver::scaling() {
  // W from (s, z); λ = W z (IP step 1).
  const ConeLayout& L = kkt_.layout();
  W_.lp_w2.resize(L.n_lp());
  W_.soc.resize(L.ncone);
  lambda_.resize(L.m());
  for (int i = 0; i < L.n_lp(); ++i) {
    W_.lp_w2[i] = s_[i] / z_[i];
    lambda_[i] = std::sqrt(s_[i] * z_[i]);
  }
  for (int c = 0; c < L.ncone; ++c) {
    const int k = L.cone(c);
    W_.soc[c].compute(s_.segment<3>(k), z_.segment<3>(k));
    lambda_.segment<3>(k) = W_.soc[c].apply(z_.segment<3>(k));
  }
}

bool InteriorPointSolver::factor(InteriorPointResult& result) {
  // The clock only for the trace: a factorization is the hot path of the solver.
  const bool timed = options_.trace && !result.trace.iterations.empty();
  std::chrono::steady_clock::time_point start;
  if (timed) start = std::chrono::steady_clock::now();
  const bool factored = kkt_.factor(W_);
  if (options_.kkt_observer != nullptr) options_.kkt_observer->factored(kkt_);
  if (!factored) return false;
  result.regularized_pivots = std::max(result.regularized_pivots, kkt_.regularized_pivots());
  if (timed) {
    InteriorPointIterate& it = result.trace.iterations.back();
    it.factor_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    it.regularized_pivots = kkt_.regularized_pivots();
  }
  return true;
}

void InteriorPointSolver::residuals(const ConeProgram& P) {
  // r_x = P x + Aᵀy + Gᵀz + q,  r_y = A x − b,  r_z = G x + s − h   (IP1), scaled units.
  kkt_.multiply_Gt(z_, rv_, rp_);
  kkt_.multiply_M(v_, tmp_v_);
  rv_ += tmp_v_;
  ry_ = tmp_v_ - b_;
  kkt_.multiply_M(y_, tmp_v_);
  rv_ += tmp_v_;
  rp_.noalias() -= P.J * y_;
  rp_ += c_;
  ry_.noalias() -= P.J.transpose() * p_;
  kkt_.multiply_G(v_, p_, rz_);
  rz_ += s_ - h_;
}

void InteriorPointSolver::complete_candidate(const ConeProgram& P, const Eigen::VectorXd& p_candidate,
                                             double impulse_scale) {
  const ConeLayout& L = kkt_.layout();
  const int m = L.m();
  // p, and v by the equation of motion (CP2).
  p_ = p_candidate / impulse_scale;
  tmp_v_.noalias() = P.J.transpose() * p_;
  kkt_.solve_M(tmp_v_);
  v_ = P.v_star / velocity_scale_ + tmp_v_;
  // s = Π_𝒞(h − G x).
  kkt_.multiply_G(v_, p_, s_);
  s_ = h_ - s_;
  for (int i = 0; i < L.n_lp(); ++i) s_[i] = std::max(s_[i], 0.0);
  for (int c = 0; c < L.ncone; ++c) {
    auto u = s_.segment<3>(L.cone(c));
    const double t = std::hypot(u[1], u[2]);
    if (t <= u[0]) continue;
    if (t <= -u[0]) {
      u.setZero();
      continue;
    }
    const double scale = 0.5 * (u[0] + t);
    u << scale, scale * u[1] / t, scale * u[2] / t;
  }
  // z: the reduced cost w = c + 𝐉v on the bound of a one-coordinate group when it exceeds the slack, else 0.
  z_.setZero(m);
  tmp_p_.noalias() = P.J * v_;
  tmp_p_ += c_;
  for (const ImpulseGroup& g : P.groups) {
    if (g.size != 1 || g.num_linear != 1 || g.cone >= 0) continue;
    const int k = g.first_linear;
    const double a = P.linear[k].a[0];
    if (!(a > 0)) continue;
    const double w = tmp_p_[g.offset] / a;
    if (w > s_[L.lin(k)]) z_[L.lin(k)] = w;
  }
  // y from the v-rows of r_x = M̃v + M̃y + G_vᵀz = 0.
  kkt_.multiply_Gt(z_, rv_, rp_);
  kkt_.solve_M(rv_);
  y_ = -v_ - rv_;
}

void InteriorPointSolver::solve(const ConeProgram& P, const Eigen::VectorXd* p_start, InteriorPointResult& result,
                                const Eigen::VectorXd* p_candidate) {
  // A fresh result's fields, in the buffers of the last one: no allocation while the sizes repeat.
  result.status = InteriorPointStatus::Solved;
  result.iterations = 0;
  result.primal_residual = result.dual_residual = result.gap = 0;
  result.regularized_pivots = 0;
  result.certified = false;
  result.message.clear();
  result.trace = InteriorPointTrace{};
  result.v = P.v_star;
  result.p.setZero(P.np);
  result.z_R.setZero(P.nr());
  auto fail = [&](InteriorPointStatus status, const std::string& why) {
    result.status = status;
    result.message = why;
    result.y.resize(0);   // set below from the best iterate, if there is one
    result.z.resize(0);
    result.s.resize(0);
  };
  std::string why;
  if (!consistent(P, why)) return fail(InteriorPointStatus::InvalidProgram, why);
  if (!P.v_star.allFinite() || !P.r.allFinite() || (P.c.size() > 0 && !P.c.allFinite()))
    return fail(InteriorPointStatus::NumericalFailure, "non-finite program data");

  // Scales (IP2).
  double trace = 0;
  for (const SystemBlock& s : P.systems) trace += s.M->trace();
  mass_scale_ = P.nv > 0 && trace > 0 ? trace / P.nv : 1.0;
  velocity_scale_ = 0;
  velocity_scale_ = std::max(velocity_scale_, P.v_star.lpNorm<Eigen::Infinity>());
  if (P.np > 0) {
    tmp_p_.noalias() = P.J * P.v_star;
    velocity_scale_ = std::max(velocity_scale_, tmp_p_.lpNorm<Eigen::Infinity>());
  }
  if (P.nr() > 0) velocity_scale_ = std::max(velocity_scale_, P.r.lpNorm<Eigen::Infinity>());
  if (P.c.size() > 0) velocity_scale_ = std::max(velocity_scale_, P.c.lpNorm<Eigen::Infinity>());
  if (!(velocity_scale_ > 0)) velocity_scale_ = 1;
  const double impulse_scale = mass_scale_ * velocity_scale_;

  if (!kkt_.setup(P, mass_scale_, why)) return fail(InteriorPointStatus::InvalidProgram, why);
  const ConeLayout& L = kkt_.layout();
  const int m = L.m();

  // Scaled data.
  tmp_v_ = P.v_star / velocity_scale_;
  kkt_.multiply_M(tmp_v_, b_);
  if (P.c.size() > 0) c_ = P.c / velocity_scale_;
  else c_.setZero(P.np);
  h_.resize(m);
  if (L.nr > 0) h_.head(L.nr) = P.r / velocity_scale_;
  for (int k = 0; k < L.nlin; ++k) h_[L.lin(k)] = P.linear[k].b / impulse_scale;
  for (int j = 0; j < L.nbud; ++j) h_[L.budget(j)] = P.budgets[j].bound / impulse_scale;
  for (int c = 0; c < L.ncone; ++c) h_.segment<3>(L.cone(c)) = P.cones[c].f / impulse_scale;
  if (!h_.allFinite()) return fail(InteriorPointStatus::NumericalFailure, "non-finite program data");
  const double b_norm = b_.lpNorm<Eigen::Infinity>(), c_norm = c_.lpNorm<Eigen::Infinity>();
  const double h_norm = m > 0 ? h_.lpNorm<Eigen::Infinity>() : 0.0;

  // (IP6)'s measures of the point (v_, p_, y_, s_, z_): the gap sᵀz, primal and dual residuals, relative gap.
  auto measure = [&](double& gap, double& pres, double& dres, double& relgap) {
    residuals(P);
    gap = m > 0 ? s_.dot(z_) : 0.0;
    kkt_.multiply_M(v_, tmp_v_);
    const double pobj = 0.5 * v_.dot(tmp_v_) + c_.dot(p_);
    pres = std::max(ry_.lpNorm<Eigen::Infinity>() / (1 + b_norm),
                    m > 0 ? rz_.lpNorm<Eigen::Infinity>() / (1 + h_norm) : 0.0);
    dres = std::max(rv_.lpNorm<Eigen::Infinity>(), P.np > 0 ? rp_.lpNorm<Eigen::Infinity>() : 0.0) / (1 + c_norm);
    relgap = gap / std::max(1.0, std::abs(pobj));
  };

  // The point returned (write_result): the current one, with its measures.
  auto keep_as_best = [&](double pres, double dres, double relgap) {
    best_v_ = v_;
    best_p_ = p_;
    best_y_ = y_;
    best_z_ = z_;
    best_s_ = s_;
    result.primal_residual = pres;
    result.dual_residual = dres;
    result.gap = relgap;
  };

  // (IP10): the candidate, if it is an optimum of this program by (IP6).
  if (p_candidate != nullptr && p_candidate->size() == P.np && p_candidate->allFinite()) {
    complete_candidate(P, *p_candidate, impulse_scale);
    double gap, pres, dres, relgap;
    measure(gap, pres, dres, relgap);
    if (std::max(pres, dres) <= options_.tolerance && relgap <= options_.gap_tolerance && all_finite(v_) &&
        all_finite(p_) && all_finite(y_) && all_finite(s_) && all_finite(z_)) {
      keep_as_best(pres, dres, relgap);
      result.certified = true;
      return write_result(P, impulse_scale, result);
    }
  }

  kkt_.assemble();
  if (options_.trace) {
    result.trace.kkt_size = kkt_.size();
    result.trace.kkt_nonzeros = kkt_.nonzeros();
    result.trace.factor_nonzeros = kkt_.factor_nonzeros();
    result.trace.factor_flops = kkt_.factor_flops();
  }

  // Initial point [VA] §5.3: (IP3) with W = I and right-hand side (−q, b, h); s = −z.
  W_.lp_w2.setOnes(L.n_lp());
  W_.soc.assign(L.ncone, soc::NtScaling{});
  if (!factor(result)) return fail(InteriorPointStatus::NumericalFailure, "the initial KKT system cannot be factored");
  neg_rv_.setZero(P.nv);
  neg_rp_ = -c_;
  kkt_.solve(neg_rv_, neg_rp_, b_, h_, v_, p_, y_, z_, options_.refinement_steps);
  if (p_start != nullptr && p_start->size() == P.np && p_start->allFinite()) {
    // Warm start: p from the guess, v from the equation of motion (CP2).
    p_ = *p_start / impulse_scale;
    tmp_v_.noalias() = P.J.transpose() * p_;
    kkt_.solve_M(tmp_v_);
    v_ = P.v_star / velocity_scale_ + tmp_v_;
  }
  kkt_.multiply_G(v_, p_, s_);
  s_ = h_ - s_;
  move_into_cone(s_);
  move_into_cone(z_);

  double best_merit = std::numeric_limits<double>::infinity();
  best_history_.clear();
  int small_steps = 0;
  const int degree = L.degree();
  for (int iteration = 0;; ++iteration) {
    double gap, pres, dres, relgap;
    measure(gap, pres, dres, relgap);
    if (!std::isfinite(pres + dres + relgap) || !all_finite(v_) || !all_finite(p_)) {
      fail(InteriorPointStatus::NumericalFailure, "non-finite iterate");
      break;
    }
    const double merit = std::max({pres, dres, relgap});
    InteriorPointIterate* traced = nullptr;
    if (options_.trace) {
      traced = &result.trace.iterations.emplace_back();
      traced->iteration = iteration;
      traced->primal_residual = pres;
      traced->dual_residual = dres;
      traced->gap = relgap;
    }
    if (merit < best_merit) {
      best_merit = merit;
      keep_as_best(pres, dres, relgap);
    }
    result.iterations = iteration;
    if (std::max(pres, dres) <= options_.tolerance && relgap <= options_.gap_tolerance) {
      result.status = InteriorPointStatus::Solved;
      break;
    }
    // (IP9) The tail: residuals at the tolerance, the gap within kStallGap of gap_tolerance, and the
    // best merit not halved in `stall_window` iterations. Newton's tail divides the merit by ~10 per
    // iteration, so this only fires where rounding (a KKT system singular at a degenerate solution)
    // holds the gap just above gap_tolerance; more iterations would not move it. kStallGap = 100
    // keeps the gap (1e-9 by default) ten times below `tolerance`, so the velocities are as good as
    // a Solved point's (interior_point.hpp, gap_tolerance).
    best_history_.push_back(best_merit);
    const int window = options_.stall_window;
    constexpr double kStallGap = 100;
    if (window > 0 && iteration >= window && std::max(pres, dres) <= options_.tolerance &&
        relgap <= kStallGap * options_.gap_tolerance && best_merit > 0.5 * best_history_[iteration - window]) {
      fail(InteriorPointStatus::Stalled, "the gap stalled at " + std::to_string(result.gap) + " after " +
                                             std::to_string(iteration) + " iterations");
      break;
    }
    if (iteration >= options_.max_iterations) {
      fail(InteriorPointStatus::IterationLimit, "no convergence in " + std::to_string(iteration) + " iterations");
      break;
    }

    // 1. Scaling and factorization.
    scaling();
    if (!factor(result)) {
      fail(InteriorPointStatus::NumericalFailure, "the KKT system cannot be factored");
      break;
    }
    const double mu = degree > 0 ? gap / degree : 0.0;
    neg_rv_ = -rv_;
    neg_rp_ = -rp_;
    neg_ry_ = -ry_;

    // 2. Predictor: d_s = −λ∘λ, so W(λ⁻¹∘d_s) = −s.
    rhs_z_ = s_ - rz_;
    kkt_.solve(neg_rv_, neg_rp_, neg_ry_, rhs_z_, dva_, dpa_, dya_, dza_, options_.refinement_steps);
    kkt_.multiply_W2(dza_, tmp_z_);
    dsa_ = -s_ - tmp_z_;

    // 3. Centring.
    const double alpha_a = std::min(1.0, max_step(s_, dsa_, z_, dza_));
    double sigma = 0;
    if (degree > 0 && gap > 0) {
      const double ratio = (s_ + alpha_a * dsa_).dot(z_ + alpha_a * dza_) / gap;
      sigma = std::clamp(ratio, 0.0, 1.0);
      sigma = sigma * sigma * sigma;
    }
    // Safeguard (IP8): after a short affine step the second-order term is not a correction but a
    // guess far outside its domain; drop it and centre instead.
    double corrector = 1.0;
    constexpr double kShortAffineStep = 0.1;
    constexpr double kSafeguardCentring = 0.5;
    if (alpha_a < kShortAffineStep) {
      corrector = 0.0;
      sigma = std::max(sigma, kSafeguardCentring);
    }

    // 4. Corrector: d_s = −λ∘λ − (W⁻¹Δs_a)∘(WΔz_a) + σμe.
    ds_rhs_.resize(m);
    for (int i = 0; i < L.n_lp(); ++i) {
      const double w = std::sqrt(W_.lp_w2[i]);
      ds_rhs_[i] = -lambda_[i] * lambda_[i] - corrector * (dsa_[i] / w) * (dza_[i] * w) + sigma * mu;
    }
    for (int c = 0; c < L.ncone; ++c) {
      const int k = L.cone(c);
      const soc::NtScaling& Wc = W_.soc[c];
      const Eigen::Vector3d l = lambda_.segment<3>(k);
      Eigen::Vector3d d = -soc::jordan_product(l, l) - corrector *
                          soc::jordan_product(Wc.apply_inverse(dsa_.segment<3>(k)), Wc.apply(dza_.segment<3>(k)));
      d[0] += sigma * mu;
      ds_rhs_.segment<3>(k) = d;
    }
    // tmp_z = W(λ⁻¹∘d_s).
    tmp_z_.resize(m);
    for (int i = 0; i < L.n_lp(); ++i) tmp_z_[i] = std::sqrt(W_.lp_w2[i]) * ds_rhs_[i] / lambda_[i];
    for (int c = 0; c < L.ncone; ++c) {
      const int k = L.cone(c);
      tmp_z_.segment<3>(k) = W_.soc[c].apply(soc::jordan_divide(lambda_.segment<3>(k), ds_rhs_.segment<3>(k)));
    }
    rhs_z_ = -rz_ - tmp_z_;
    const double refinement_error =
        kkt_.solve(neg_rv_, neg_rp_, neg_ry_, rhs_z_, dv_, dp_, dy_, dz_, options_.refinement_steps);
    kkt_.multiply_W2(dz_, tmp_z2_);
    ds_ = tmp_z_ - tmp_z2_;

    // 5. Step.
    const double alpha = std::min(1.0, options_.step_fraction * max_step(s_, ds_, z_, dz_));
    if (!std::isfinite(alpha)) {
      fail(InteriorPointStatus::NumericalFailure, "non-finite step");
      break;
    }
    if (traced != nullptr) {
      traced->mu = mu;
      traced->sigma = sigma;
      traced->alpha_affine = alpha_a;
      traced->refinement_error = refinement_error;
    }
    constexpr double kSmallStep = 1e-10;
    small_steps = alpha < kSmallStep ? small_steps + 1 : 0;
    if (small_steps >= 3) {
      fail(InteriorPointStatus::Stalled, "the step to the boundary vanished");
      break;
    }
    // Keep s and z strictly inside their cones (rounding near the boundary can defeat the step
    // formula) and in the wide neighbourhood of the central path (IP7): shorten the step until both
    // hold. Without the second, Mehrotra's corrector can cycle, each step undoing the last. The
    // neighbourhood is kept, not entered: from an iterate outside it (a warm start's s and z), short
    // steps stay outside too, and insisting on it would shrink every step 0.8⁴⁰-fold and stall the
    // method, so there the longest step inside the cones is taken.
    const bool keep_centred = centred(s_, z_);
    double step = alpha;
    constexpr int kMaxShortenings = 40;
    bool inside = false;
    for (int k = 0; k <= kMaxShortenings; ++k, step *= 0.8) {
      trial_s_ = s_ + step * ds_;
      trial_z_ = z_ + step * dz_;
      if (!strictly_inside(trial_s_) || !strictly_inside(trial_z_)) continue;
      inside = true;
      if (!keep_centred || centred(trial_s_, trial_z_)) break;
    }
    if (!inside) {
      fail(InteriorPointStatus::Stalled, "no step keeps the iterate inside the cones");
      break;
    }
    if (traced != nullptr) traced->alpha = step;
    v_ += step * dv_;
    p_ += step * dp_;
    y_ += step * dy_;
    s_.swap(trial_s_);
    z_.swap(trial_z_);
  }

  if (!result.solved() && result.status != InteriorPointStatus::InvalidProgram &&
      std::max({result.primal_residual, result.dual_residual, result.gap}) <= options_.acceptable_tolerance &&
      best_v_.size() == P.nv)
    result.status = InteriorPointStatus::Acceptable;   // the message keeps why it stopped

  write_result(P, impulse_scale, result);
}

void InteriorPointSolver::write_result(const ConeProgram& P, double impulse_scale, InteriorPointResult& result) const {
  // The iterate with the smallest residual, in physical units.
  const ConeLayout& L = kkt_.layout();
  const int m = L.m();
  if (best_v_.size() == P.nv) {
    result.v = best_v_ * velocity_scale_;
    result.p = best_p_ * impulse_scale;
    result.y = best_y_ * velocity_scale_;
    result.z.resize(m);
    result.s.resize(m);
    for (int i = 0; i < m; ++i) {
      const bool velocity_row = i < L.nr;
      result.z[i] = best_z_[i] * (velocity_row ? impulse_scale : velocity_scale_);
      result.s[i] = best_s_[i] * (velocity_row ? velocity_scale_ : impulse_scale);
    }
    result.z_R = result.z.head(L.nr);
  }
}

}  // namespace impetus
