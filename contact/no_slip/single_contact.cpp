// One contact of the no-slip model in closed form (single_contact.hpp, SC1–SC3).
#include "contact/no_slip/single_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/solvers/inertia_operator.hpp"
#include "contact/solvers/unilateral_projection.hpp"

namespace impetus {

bool NoSlipSingleContact::solve(const ContactProblem& P, double stick_gap, double tau_G,
                                const ProjectionOptions& options, Eigen::VectorXd& v_plus) {
  // attempt()'s rule: an infinite gap bound (either sign) leaves every contact sticking.
  sticks = !std::isfinite(stick_gap) || P.phi[0] <= stick_gap;
  if (sticks && P.nv < 3) return false;   // three independent rows need three coordinates (FIND-INDICES' capacity)
  if (!rows.compute(P)) return false;
  const Eigen::Matrix3d& W = rows.W;
  const Eigen::Vector3d& b = rows.b;
  const double c = P.phi[0] / P.dt;
  if (!std::isfinite(c)) return false;

  double F = W(0, 0), e = b[0] + c;   // (SC3)
  Eigen::Vector2d y = Eigen::Vector2d::Zero(), lambda0 = Eigen::Vector2d::Zero();
  if (sticks) {
    // W_tt = L Lᵀ as FIND-INDICES factors it (D3): S first, then T with δ = W_TT − l², kept when δ > τ_G·W_TT.
    const double W_SS = W(1, 1), W_TT = W(2, 2);
    if (!(W_SS > 0)) return false;
    const double L11 = std::sqrt(W_SS), L21 = W(2, 1) / L11, delta = W_TT - L21 * L21;
    if (!(delta > tau_G * W_TT)) return false;
    const double L22 = std::sqrt(delta);
    const auto solve_tt = [&](const Eigen::Vector2d& r) {   // W_tt⁻¹ r by the two triangular solves
      const double u1 = r[0] / L11, u2 = (r[1] - L21 * u1) / L22;
      const double x2 = u2 / L22;
      return Eigen::Vector2d((u1 - L21 * x2) / L11, x2);
    };
    const Eigen::Vector2d W_tN = W.block<2, 1>(1, 0);
    y = solve_tt(W_tN);
    lambda0 = -solve_tt(b.tail<2>());
    F = W(0, 0) - W_tN.dot(y);
    e = b[0] + W_tN.dot(lambda0) + c;
  }
  // 0 ≤ p_N ⊥ F p_N + e ≥ 0; a positive p_N needs N independent of the no-slip rows (pivoting's τ_dep, D3).
  double p_N = 0;
  if (e < 0) {
    if (!(F > options.pivoting.dependence_tolerance * W(0, 0))) return false;
    p_N = -e / F;
  }
  p = Eigen::Vector3d(p_N, 0, 0);
  if (sticks) p.tail<2>() = lambda0 - p_N * y;   // (SC1), (SC2)
  if (!p.allFinite()) return false;
  rows.velocity(P, p, v_plus);

  // The general path's certificate on v⁺: (UP2) on the normal row at s_v (projection_velocity_scale over the
  // unilateral row and the no-slip rows held), and (NS2) on the no-slip rows at tolerance·s_v.
  const double tolerance = options.certificate_tolerance;
  velocity_scale = std::max(std::abs(b[0]), std::abs(c));
  if (sticks) velocity_scale = std::max({velocity_scale, std::abs(b[1]), std::abs(b[2])});
  if (!std::isfinite(velocity_scale)) return false;
  velocity_scale = std::max(velocity_scale, std::numeric_limits<double>::min());
  const Eigen::Matrix<double, 1, 1> z(p_N), w(row_dot({&P.N, 0}, v_plus) + c);
  residual = projection_residual(z, w, velocity_scale);
  equality_residual =
      sticks ? std::max(std::abs(row_dot({&P.S, 0}, v_plus)), std::abs(row_dot({&P.T, 0}, v_plus))) : 0.0;
  return residual <= tolerance && equality_residual <= tolerance * velocity_scale;
}

}  // namespace impetus
