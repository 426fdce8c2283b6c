// One contact of the viscous model in closed form (single_contact.hpp, VS1–VS2).
#include "contact/viscous/single_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/solvers/inertia_operator.hpp"
#include "contact/solvers/unilateral_projection.hpp"

namespace impetus {

bool ViscousSingleContact::solve(const ContactProblem& P, double mu, const ProjectionOptions& options,
                                 Eigen::VectorXd& v_plus) {
  const double d = P.dt * mu, c = P.phi[0] / P.dt;
  if (!std::isfinite(d) || !std::isfinite(c)) return false;
  if (!rows.compute(P)) return false;
  const Eigen::Matrix3d& A = rows.W;
  const Eigen::Vector3d& b = rows.b;

  // H = I + d A_tt; det H = 1 + d tr A_tt + d² det A_tt ≥ 1 (A_tt PSD), so H⁻¹ = adj H / det H is well posed.
  const double H_SS = 1 + d * A(1, 1), H_TT = 1 + d * A(2, 2), H_ST = d * A(2, 1);
  const double det = 1 + d * (A(1, 1) + A(2, 2)) + d * d * (A(1, 1) * A(2, 2) - A(2, 1) * A(2, 1));
  const auto solve_H = [&](double r_S, double r_T) {
    return Eigen::Vector2d((H_TT * r_S - H_ST * r_T) / det, (H_SS * r_T - H_ST * r_S) / det);
  };
  const Eigen::Vector2d A_tN = A.block<2, 1>(1, 0);
  const Eigen::Vector2d p_t0 = -d * solve_H(b[1], b[2]);   // (VS1) at p_N = 0
  const Eigen::Vector2d y = d * solve_H(A_tN[0], A_tN[1]);
  const double N_v_f = b[0] + A_tN.dot(p_t0);
  const double F = A(0, 0) - A_tN.dot(y), e = N_v_f + c;

  // (VS2): 0 ≤ p_N ⊥ F p_N + e ≥ 0.
  p_N = 0;
  if (e < 0) {
    if (!(F > options.pivoting.dependence_tolerance * A(0, 0))) return false;
    p_N = -e / F;
  }
  const Eigen::Vector2d p_t = p_t0 - p_N * y;
  const Eigen::Vector3d p(p_N, p_t[0], p_t[1]);
  if (!p.allFinite()) return false;
  rows.velocity(P, p, v_plus);

  // The general path's certificate on v⁺: (UP2) on the normal row at s_v = max(|N v_f|, |φ/dt|).
  velocity_scale = std::max(std::abs(N_v_f), std::abs(c));
  if (!std::isfinite(velocity_scale)) return false;
  velocity_scale = std::max(velocity_scale, std::numeric_limits<double>::min());
  const Eigen::Matrix<double, 1, 1> z(p_N), w(row_dot({&P.N, 0}, v_plus) + c);
  residual = projection_residual(z, w, velocity_scale);
  return residual <= options.certificate_tolerance;
}

}  // namespace impetus
