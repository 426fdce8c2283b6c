// What a Coulomb contact model's answer must satisfy on any problem, whatever the trajectory it
// leads to (the Stewart–Trinkle / Anitescu–Potra conditions, seed 001 Eq. 4–7 and seed 004 §1.5):
//   p_N ≥ 0,  N v⁺ + φ/dt ≥ 0,  p_N ⊥ (N v⁺ + φ/dt)       non-penetration and complementarity
//   ‖(p_S, p_T)‖ ≤ μ p_N                                    friction in the cone (a k-edge pyramid
//                                                           is inside it: its edges have unit length)
//   p_S S v⁺ + p_T T v⁺ ≤ 0                                 friction never does positive work
// Each violation is relative: velocities to v̄ = max(‖v*‖∞, ‖φ/dt‖∞, ‖N v*‖∞), impulses to
// p̄ = max p_N, so that one tolerance serves a grasp and a stack alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/problem.hpp"
#include "contact/result.hpp"

namespace impetus::test {

struct CoulombViolations {
  double negative_impulse = 0;   // −min p_N / p̄
  double penetration = 0;        // −min(N v⁺ + φ/dt) / v̄
  double complementarity = 0;    // max |p_N (N v⁺ + φ/dt)| / (p̄ v̄)
  double outside_cone = 0;       // max(‖(p_S, p_T)‖ − μ p_N) / (μ̄ p̄), μ̄ = max(max μ, 1)
  double friction_power = 0;     // max(p_S S v⁺ + p_T T v⁺) / (μ̄ p̄ v̄)
  double largest() const {
    return std::max({negative_impulse, penetration, complementarity, outside_cone, friction_power});
  }
};

inline CoulombViolations coulomb_violations(const ContactProblem& P, const ContactResult& r) {
  CoulombViolations out;
  if (P.nc == 0) return out;
  const Eigen::VectorXd w = P.N * r.v_plus + P.phi / P.dt;   // normal velocity with the gap term
  const Eigen::VectorXd s = P.S * r.v_plus, t = P.T * r.v_plus;
  double v_bar = std::max({P.v_star.lpNorm<Eigen::Infinity>(), (P.phi / P.dt).lpNorm<Eigen::Infinity>(),
                           (P.N * P.v_star).lpNorm<Eigen::Infinity>()});
  v_bar = std::max(v_bar, std::numeric_limits<double>::min());
  const double p_bar = std::max(r.p_N.maxCoeff(), std::numeric_limits<double>::min());
  const double mu_bar = std::max(P.mu.maxCoeff(), 1.0);
  for (int i = 0; i < P.nc; ++i) {
    out.negative_impulse = std::max(out.negative_impulse, -r.p_N[i] / p_bar);
    out.penetration = std::max(out.penetration, -w[i] / v_bar);
    out.complementarity = std::max(out.complementarity, std::abs(r.p_N[i] * w[i]) / (p_bar * v_bar));
    out.outside_cone =
        std::max(out.outside_cone, (std::hypot(r.p_S[i], r.p_T[i]) - P.mu[i] * r.p_N[i]) / (mu_bar * p_bar));
    out.friction_power =
        std::max(out.friction_power, (r.p_S[i] * s[i] + r.p_T[i] * t[i]) / (mu_bar * p_bar * v_bar));
  }
  return out;
}

}  // namespace impetus::test
