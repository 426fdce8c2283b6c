// The algebra of the three-dimensional second-order (Lorentz) cone that a primal-dual interior-point
// method needs: the Jordan product, Nesterov–Todd scaling, and the step to the boundary.
//
// References
//   [AG]  Alizadeh & Goldfarb, "Second-order cone programming", Math. Program. 95 (2003) 3–51, §4.
//   [VA]  Vandenberghe, "The CVXOPT linear and quadratic cone program solvers" (2010), §§1–4.
//
// Glossary
//   symbol  size  meaning                                                        code
//   ------  ----  -------------------------------------------------------------  ------------------
//   Q       —     the cone {u = (u₀, u₁) : u₀ ≥ ‖u₁‖}, u₁ ∈ ℝ²                   —
//   J       3×3   diag(1, −1, −1); ‖u‖_J = √(uᵀJu) for u ∈ int Q                   j_norm()
//   e       3     the identity (1, 0, 0) of the Jordan algebra                    —
//   u∘v     3     Jordan product (uᵀv, u₀v₁ + v₀u₁)                    (SOC1)     jordan_product()
//   u⁻¹∘w   3     the x with u∘x = w                                   (SOC2)     jordan_divide()
//   W       3×3   NT scaling: W z = W⁻¹ s = λ, W symmetric             (SOC3)     NtScaling
//   w̄, β   3, 1  W = β·H(w̄), H(w̄) = [w̄₀ w̄₁ᵀ; w̄₁ I + w̄₁w̄₁ᵀ/(1+w̄₀)]       NtScaling::w, beta
//
// Nesterov–Todd scaling of a pair s, z ∈ int Q ([VA] §4.4, [AG] §4):
//   s̄ = s/‖s‖_J,  z̄ = z/‖z‖_J,  γ = √((1 + z̄ᵀs̄)/2),  w̄ = (s̄ + J z̄)/(2γ),  β = √(‖s‖_J/‖z‖_J),
//   W = β H(w̄),   W⁻¹ = β⁻¹ J H(w̄) J,   W² = β²(2w̄w̄ᵀ − J),   W⁻² = β⁻²(2Jw̄w̄ᵀJ − J).        (SOC3)
// H(w̄) is symmetric positive definite because w̄ᵀJw̄ = 1 and w̄₀ > 0; the tests check W z = W⁻¹ s.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus::soc {

/// uᵀJu = u₀² − ‖u₁‖², as (u₀ − ‖u₁‖)(u₀ + ‖u₁‖): near the boundary the difference of squares
/// would cancel to nothing.
inline double j_inner(const Eigen::Vector3d& u) {
  const double h = std::hypot(u[1], u[2]);
  return (u[0] - h) * (u[0] + h);
}
/// ‖u‖_J for u in the cone (0 on its boundary).
inline double j_norm(const Eigen::Vector3d& u) { return std::sqrt(std::max(j_inner(u), 0.0)); }

/// u∘v = (uᵀv, u₀v₁ + v₀u₁).                                                                  (SOC1)
inline Eigen::Vector3d jordan_product(const Eigen::Vector3d& u, const Eigen::Vector3d& v) {
  return {u.dot(v), u[0] * v[1] + v[0] * u[1], u[0] * v[2] + v[0] * u[2]};
}

/// x with u∘x = w, for u ∈ int Q:                                                             (SOC2)
///   x₀ = (u₀w₀ − u₁ᵀw₁)/(uᵀJu),   x₁ = (w₁ − x₀u₁)/u₀.
inline Eigen::Vector3d jordan_divide(const Eigen::Vector3d& u, const Eigen::Vector3d& w) {
  const double x0 = (u[0] * w[0] - u[1] * w[1] - u[2] * w[2]) / j_inner(u);
  return {x0, (w[1] - x0 * u[1]) / u[0], (w[2] - x0 * u[2]) / u[0]};
}

/// The smallest α ≥ 0 with u + α e ∈ Q, i.e. how far u lies outside the cone along its axis:
/// α = ‖u₁‖ − u₀ (≤ 0 when u is inside).
inline double distance_outside(const Eigen::Vector3d& u) { return std::hypot(u[1], u[2]) - u[0]; }

/// The largest α ∈ [0, ∞] with u + α d ∈ Q, for u ∈ int Q: the first positive root of
///   q(α) = (u₀ + αd₀)² − ‖u₁ + αd₁‖² = a α² + b α + c,   c = uᵀJu > 0,
/// or ∞ when q stays positive (the ray cannot leave Q without crossing q = 0, and it cannot reach
/// the other nappe without passing the apex, where q = 0 too).
inline double max_step(const Eigen::Vector3d& u, const Eigen::Vector3d& d) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double a = j_inner(d);
  const double b = 2 * (u[0] * d[0] - u[1] * d[1] - u[2] * d[2]);
  const double c = j_inner(u);
  if (c <= 0) return 0;
  if (a == 0) return b < 0 ? -c / b : kInf;
  const double disc = b * b - 4 * a * c;
  if (a < 0) {
    // One root of each sign; the positive one, in the form that avoids cancellation.
    const double r = std::sqrt(std::max(disc, 0.0));
    return b >= 0 ? (-b - r) / (2 * a) : 2 * c / (-b + r);
  }
  if (disc < 0 || b >= 0) return kInf;   // no real root, or both roots negative
  const double r = std::sqrt(disc);
  return 2 * c / (-b + r);                // the smaller of the two positive roots
}

/// Nesterov–Todd scaling (SOC3) of one cone pair.
struct NtScaling {
  Eigen::Vector3d w = Eigen::Vector3d::UnitX();   // w̄, with w̄ᵀJw̄ = 1
  double beta = 1;                                // β

  /// From s, z ∈ int Q.
  void compute(const Eigen::Vector3d& s, const Eigen::Vector3d& z) {
    const double sn = j_norm(s), zn = j_norm(z);
    const Eigen::Vector3d sb = s / sn, zb = z / zn;
    const double gamma = std::sqrt(std::max((1 + sb.dot(zb)) / 2, 0.0));
    w = Eigen::Vector3d(sb[0] + zb[0], sb[1] - zb[1], sb[2] - zb[2]) / (2 * gamma);
    beta = std::sqrt(sn / zn);
  }
  /// W u = β H(w̄) u.
  Eigen::Vector3d apply(const Eigen::Vector3d& u) const {
    const double w1u1 = w[1] * u[1] + w[2] * u[2];
    const double k = u[0] + w1u1 / (1 + w[0]);
    return beta * Eigen::Vector3d(w[0] * u[0] + w1u1, u[1] + k * w[1], u[2] + k * w[2]);
  }
  /// W⁻¹ u = β⁻¹ J H(w̄) J u.
  Eigen::Vector3d apply_inverse(const Eigen::Vector3d& u) const {
    const double w1u1 = w[1] * u[1] + w[2] * u[2];
    const double k = -u[0] + w1u1 / (1 + w[0]);
    return Eigen::Vector3d(w[0] * u[0] - w1u1, u[1] + k * w[1], u[2] + k * w[2]) / beta;
  }
  /// W² = β²(2w̄w̄ᵀ − J).
  Eigen::Matrix3d squared() const {
    Eigen::Matrix3d W2 = 2 * w * w.transpose();
    W2.diagonal() += Eigen::Vector3d(-1, 1, 1);
    return beta * beta * W2;
  }
  /// W⁻² = β⁻²(2Jw̄w̄ᵀJ − J).
  Eigen::Matrix3d inverse_squared() const {
    const Eigen::Vector3d Jw(w[0], -w[1], -w[2]);
    Eigen::Matrix3d W2 = 2 * Jw * Jw.transpose();
    W2.diagonal() += Eigen::Vector3d(-1, 1, 1);
    return W2 / (beta * beta);
  }
};

}  // namespace impetus::soc
