// The right inverse by Newton on the forward twin (forward_twin.hpp, FT1–FT2).
#include "control/inverse_dynamics/forward_twin.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

// The twin solved as the right-inverse tests solve the simulator (test_inverse_dynamics_scenes.cpp): at the
// interior point's tightest tolerances, where a foot's p_N agrees with a 1e-12 solve to ~1e-12 relative.
constexpr double kTwinTolerance = 1e-12, kTwinGap = 1e-14;
// Stop and certificate: |P v⁺ − q̇_des|∞ ≤ this × the velocity scale max(‖q̇_des‖∞, ‖P v*‖∞). Newton on
// forward differences of the twin stalls at its own noise: measured on the arm holding its box (scale 0.12 …
// 0.32 rad/s), most calls end at 5e-9 … 1.5e-7 rad/s, a few stall at 4e-7 … 8.5e-7 (≤ 3e-6 relative). 1e-5
// relative admits those and stays ~30 times inside the right inverse's 1e-4 rad/s at these scales.
constexpr double kTwinVelocity = 1e-5;
// Newton steps. With the Jacobian of the twin itself most calls meet the stop in one or two (measured, arm).
constexpr int kTwinIterations = 8;
// Halvings of a Newton step before giving up (F is piecewise smooth: a full step may cross onto another piece).
constexpr int kTwinHalvings = 6;
// A differenced Newton step must cut the error to this fraction, else the search stops (FT2).
constexpr double kStall = 0.5;
// Rank of S in (FT2), relative: directions of τ that move no joint velocity (a squeeze the budget does not
// feel) have singular values at the differences' noise, ~1e-9 relative; the others within the links'
// inertia ratio (~1e-6 on these robots) of the largest.
constexpr double kRank = 1e-8;
// Forward-difference step, relative to ‖τ‖∞: F is affine on τ's piece, so the step only has to stay on it
// and above the twin's noise (v⁺ to ~1e-12 relative, so differences good to ~1e-5 relative).
constexpr double kDifference = 1e-7;

}  // namespace

ForwardTwin::ForwardTwin(int friction_edges)
    : model_([friction_edges] {
        MaxDissipationOptions o;
        o.friction = FrictionCone::Pyramid;
        o.friction_edges = friction_edges;
        o.tolerance = kTwinTolerance;
        o.gap_tolerance = kTwinGap;
        return o;
      }()),
      workspace_(model_.make_workspace()) {}

double ForwardTwin::forward(const InverseDynamicsProblem& problem, const ActuatedElimination& elimination,
                            const Eigen::VectorXd& tau, Eigen::VectorXd& error) {
  shifted_.v_star = problem.contact->v_star + elimination.Minv_Pt() * tau;
  model_.solve(shifted_, result_, *workspace_);
  ++report_.iterations;
  const int na = elimination.na();
  error.resize(na);
  for (int a = 0; a < na; ++a) error[a] = result_.v_plus[problem.actuated[a]] - problem.qd_des[a];
  return error.cwiseAbs().maxCoeff();
}

bool ForwardTwin::correct(const InverseDynamicsProblem& problem, const ActuatedElimination& elimination,
                          Eigen::VectorXd& tau, Eigen::VectorXd& p, Eigen::VectorXd& v_plus) {
  report_ = {};
  const ContactProblem& cp = *problem.contact;
  const int na = elimination.na(), nc = cp.nc;
  if (na == 0) return false;
  shifted_ = cp;
  double scale = problem.qd_des.cwiseAbs().maxCoeff();
  for (int a = 0; a < na; ++a) scale = std::max(scale, std::abs(cp.v_star[problem.actuated[a]]));
  const double bound = kTwinVelocity * std::max(scale, 1e-300);
  Eigen::VectorXd t = tau, error, step, trial_error;
  Eigen::MatrixXd S(na, na);
  double e = forward(problem, elimination, t, error);
  report_.start_error = e;
  bool difference = true;   // S from differences at t; false: Broyden's update of the last ones
  for (int k = 0; k < kTwinIterations && !(e <= bound); ++k) {
    if (result_.stats.status == SolveStatus::Failed) break;
    const bool differenced = difference;
    const double e_differenced = e;
    if (difference) {
      // (FT2): S, F's Jacobian on τ's piece, by forward differences.
      const double h = kDifference * std::max(t.cwiseAbs().maxCoeff(), 1e-300);
      for (int a = 0; a < na; ++a) {
        step = t;
        step[a] += h;
        forward(problem, elimination, step, trial_error);
        S.col(a) = (trial_error - error) / h;
      }
      difference = false;
    }
    pseudo_inverse_.setThreshold(kRank);
    pseudo_inverse_.compute(S);
    step = -pseudo_inverse_.solve(error);
    // Backtracking: F is only piecewise smooth, so a full step may cross onto another piece; halve it until
    // the error falls.
    bool descended = false;
    for (int halving = 0; halving < kTwinHalvings && !descended; ++halving, step *= 0.5) {
      const double trial = forward(problem, elimination, t + step, trial_error);
      if (trial < e && result_.stats.status != SolveStatus::Failed) {
        t += step;
        e = trial;
        // Broyden's update: S moved by the secant of the step taken, so the next step costs no differences.
        S += ((trial_error - error) - S * step) * step.transpose() / step.squaredNorm();
        error = trial_error;
        descended = true;
      }
    }
    // A step along the differenced S⁺ that does not halve the error: Newton has stalled at the twin's noise or
    // on a kink S cannot see, and more solves do not reach the stop (measured on links_trot: such calls ran
    // to ~50 solves and ended above it).
    if (differenced && !(e <= kStall * e_differenced)) break;
    if (!descended) {
      if (differenced) break;   // no descent even along the differenced S⁺
      difference = true;        // the secant S misled: difference again at t
      forward(problem, elimination, t, error);
    }
  }
  report_.velocity_error = e;
  // The last forward solve was at t (the start, or the trial just taken).
  if (e <= bound) {
    tau = t;
    p.resize(3 * nc);
    p << result_.p_N, result_.p_S, result_.p_T;
    v_plus = result_.v_plus;
    return true;
  }
  // Newton stalled above the stop at the twin's noise (measured, portable build, arm holding its box step 24:
  // 3.6e-6 rad/s against a stop of 3.4e-6, from 1.7e-3 at Stage I's τ). The forward model itself then says that
  // its τ is the nearer right inverse; solved again at t (the last solve may have been a trial step) it is
  // returned when still below the start, for the caller to keep as a fallback.
  if (e < report_.start_error) {
    const double e_t = forward(problem, elimination, t, error);
    if (e_t < report_.start_error && result_.stats.status != SolveStatus::Failed) {
      report_.velocity_error = e_t;
      report_.improved = true;
      tau = t;
      p.resize(3 * nc);
      p << result_.p_N, result_.p_S, result_.p_T;
      v_plus = result_.v_plus;
    }
  }
  return false;
}

}  // namespace impetus
