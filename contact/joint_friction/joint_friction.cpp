// Projected Newton for QP4 (joint_friction.hpp, JF1–JF4).
#include "contact/joint_friction/joint_friction.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {

JointFrictionResult JointFrictionSolver::solve(const Eigen::LLT<Eigen::MatrixXd>& H_llt, const Eigen::VectorXd& v_star,
                                               const std::vector<int>& dofs, const Eigen::VectorXd& bound,
                                               Eigen::VectorXd& x, Eigen::VectorXd& v) {
  JointFrictionResult result;
  const int n = static_cast<int>(v_star.size()), k = static_cast<int>(dofs.size());
  v = v_star;
  x.setZero(k);
  if (k == 0) return result;

  // Q = E_FᵀH⁻¹E_F, q = E_Fᵀq̇* (JF1).
  Hinv_.setIdentity(n, n);
  H_llt.solveInPlace(Hinv_);
  Q_.resize(k, k);
  q_.resize(k);
  bound_.resize(k);
  for (int i = 0; i < k; ++i) {
    q_[i] = v_star[dofs[i]];
    bound_[i] = std::max(bound[i], 0.0);
    for (int j = 0; j < k; ++j) Q_(i, j) = Hinv_(dofs[i], dofs[j]);
  }
  const Eigen::VectorXd D = Q_.diagonal();
  double vbar = std::max(q_.lpNorm<Eigen::Infinity>(), Q_.cwiseAbs().rowwise().sum().maxCoeff() * bound_.lpNorm<Eigen::Infinity>());
  if (!(vbar > 0)) return result;   // at rest with no friction to apply: x = 0 is the solution
  if (!std::isfinite(vbar) || !D.allFinite() || D.minCoeff() <= 0) {
    result.converged = false;       // H is not SPD: leave the velocity as it is
    return result;
  }

  // (JF4) on the current x; g = Q x + q must be current.
  auto residual = [&] {
    double r = 0;
    for (int i = 0; i < k; ++i) {
      const double projected = std::clamp(x[i] - g_[i] / D[i], -bound_[i], bound_[i]);
      r = std::max(r, D[i] * std::abs(x[i] - projected));
    }
    return r / vbar;
  };

  constexpr double kArmijo = 1e-4;        // sufficient-decrease fraction [BE]
  constexpr double kBacktrack = 0.5;
  constexpr int kMaxBacktracks = 40;      // 0.5⁴⁰ ≈ 1e-12: below it the step is rounding
  g_ = q_;
  for (result.iterations = 0; result.iterations < options_.max_iterations; ++result.iterations) {
    result.residual = residual();
    if (result.residual <= options_.tolerance) break;
    // ε-active binding set: at (or within ε of) a bound, with the gradient pushing outward.
    double eps = 0;
    for (int i = 0; i < k; ++i)
      eps = std::max(eps, std::abs(x[i] - std::clamp(x[i] - g_[i] / D[i], -bound_[i], bound_[i])));
    free_.clear();
    binding_.clear();
    for (int i = 0; i < k; ++i) {
      const bool at_lower = x[i] <= -bound_[i] + eps && g_[i] > 0;
      const bool at_upper = x[i] >= bound_[i] - eps && g_[i] < 0;
      (at_lower || at_upper ? binding_ : free_).push_back(i);
    }
    d_.resize(k);
    for (int i : binding_) d_[i] = -g_[i] / D[i];
    if (!free_.empty()) {
      const int f = static_cast<int>(free_.size());
      QFF_.resize(f, f);
      rhs_.resize(f);
      for (int a = 0; a < f; ++a) {
        rhs_[a] = -g_[free_[a]];
        for (int b = 0; b < f; ++b) QFF_(a, b) = Q_(free_[a], free_[b]);
      }
      QFF_llt_.compute(QFF_);
      QFF_llt_.solveInPlace(rhs_);
      for (int a = 0; a < f; ++a) d_[free_[a]] = rhs_[a];
    }
    // Armijo along the projection arc.
    const double f0 = objective(x);
    double alpha = 1;
    bool moved = false;
    for (int b = 0; b < kMaxBacktracks; ++b, alpha *= kBacktrack) {
      trial_ = x + alpha * d_;
      project(trial_);
      step_ = trial_ - x;
      const double slope = g_.dot(step_);
      if (slope < 0 && objective(trial_) <= f0 + kArmijo * slope) {
        moved = true;
        break;
      }
    }
    if (!moved) break;   // no descent left at rounding level
    x = trial_;
    g_.noalias() = Q_ * x;
    g_ += q_;
  }
  result.residual = residual();
  result.converged = result.residual <= options_.tolerance;

  // Projected Gauss–Seidel: each coordinate minimised exactly in turn (monotone, feasible).
  for (; !result.converged && result.sweeps < options_.fallback_sweeps; ++result.sweeps) {
    for (int i = 0; i < k; ++i) {
      const double next = std::clamp(x[i] - g_[i] / D[i], -bound_[i], bound_[i]);
      const double delta = next - x[i];
      if (delta == 0) continue;
      x[i] = next;
      g_ += Q_.col(i) * delta;
    }
    result.residual = residual();
    result.converged = result.residual <= options_.tolerance;
  }

  for (int i = 0; i < k; ++i) v += Hinv_.col(dofs[i]) * x[i];   // (JF2)
  return result;
}

}  // namespace impetus
