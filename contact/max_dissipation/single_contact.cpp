// One contact in closed form (single_contact.hpp, SC1–SC4).
#include "contact/max_dissipation/single_contact.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

/// The optimality conditions must hold to this fraction of the problem's velocity scale (impulses: of
/// κ): a hundred times below the interior point's tolerance (1e-8, MaxDissipationOptions), so a point
/// the closed form accepts is at least as good as the one the general path would return.
constexpr double kCertificate = 1e-10;
/// det H below this fraction of (tr H)² leaves the friction direction undetermined (H is not safely
/// invertible in double precision, condition ≳ 1e12): the general path takes the island.
constexpr double kDegenerate = 1e-12;
/// Newton steps on the secular equation of (SC3); it converges monotonically from ν = 0 in a handful
/// (φ(ν) = 1/‖x(ν)‖ is concave and increasing), the cap only guards against a non-finite input.
constexpr int kMaxSecularSteps = 100;

/// ν ≥ 0 with ‖(H + νI)⁻¹g‖ = r, given ‖H⁻¹g‖ > r: Newton on 1/‖x(ν)‖ − 1/r in H's eigenbasis,
/// bracketed by [0, ‖g‖/r] (there ‖x‖ ≤ ‖g‖/ν ≤ r).
double secular_root(const Eigen::Matrix2d& H, const Eigen::Vector2d& g, double r) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig;
  eig.computeDirect(H);
  const Eigen::Vector2d h = eig.eigenvalues();
  const Eigen::Vector2d gq = eig.eigenvectors().transpose() * g;
  double lo = 0, hi = g.norm() / r, nu = 0;
  for (int k = 0; k < kMaxSecularSteps; ++k) {
    const Eigen::Vector2d d = (h.array() + nu).inverse().matrix();
    const double q = (gq.array() * d.array()).square().sum();          // ‖x(ν)‖²
    const double f = 1 / std::sqrt(q) - 1 / r;
    if (f < 0) lo = nu; else hi = nu;
    const double dq = (gq.array().square() * d.array().cube()).sum();  // −½ dq/dν
    const double next = nu - f * q * std::sqrt(q) / dq;
    const double step = std::isfinite(next) && next > lo && next < hi ? next : 0.5 * (lo + hi);
    if (std::abs(step - nu) <= 1e-16 * std::max(nu, 1e-300) || hi - lo <= 1e-16 * hi) return step;
    nu = step;
  }
  return nu;
}

}  // namespace

bool solve_single_contact(const ContactProblem& P, SingleContact& o) {
  if (!o.rows_.compute(P)) return false;
  const Eigen::Matrix3d& W = o.rows_.W;
  const double b_N = o.rows_.b[0], b_S = o.rows_.b[1], b_T = o.rows_.b[2];
  const double A_NN = W(0, 0), A_SN = W(1, 0), A_SS = W(1, 1), A_TN = W(2, 0), A_TS = W(2, 1), A_TT = W(2, 2);
  const double c = P.phi[0] / P.dt;
  if (!std::isfinite(c)) return false;

  // (SC1)
  const double kappa = std::max(0.0, -(b_N + c) / A_NN);
  o.p_N_one = kappa;
  o.v_one = P.v_star + kappa * o.rows_.Minv_N;
  o.residual = 0;

  // (SC2)
  const double mu = std::max(P.mu[0], 0.0);
  if (kappa == 0 || mu == 0) {
    o.p = Eigen::Vector3d(kappa, 0, 0);
    o.v_two = o.v_one;
    return true;
  }

  // (SC3)
  Eigen::Matrix2d H;
  H << A_SS, A_TS, A_TS, A_TT;
  const Eigen::Vector2d a(A_SN, A_TN);
  const Eigen::Vector2d g = Eigen::Vector2d(b_S, b_T) + kappa * a;
  const double r = mu * kappa;
  if (!(H.determinant() > kDegenerate * H.trace() * H.trace())) return false;
  const double velocity_scale = std::max({std::abs(b_N), std::abs(b_S), std::abs(b_T), std::abs(c)});
  const double tol_v = kCertificate * velocity_scale, tol_p = kCertificate * kappa;
  const double na = a.norm();

  Eigen::Vector2d x;
  double lambda_g = 0, nu = 0;
  bool found = false;
  const Eigen::Vector2d x_free = -H.inverse() * g;
  if (x_free.norm() <= r + tol_p) {
    x = x_free;
    found = a.dot(x) >= -tol_v;
  } else {
    nu = secular_root(H, g, r);
    x = -(H + nu * Eigen::Matrix2d::Identity()).inverse() * g;
    found = a.dot(x) >= -tol_v;
  }
  if (!found && na > 0) {
    // The line aᵀx = 0, inside the disk, then where it meets the circle.
    const Eigen::Vector2d u = Eigen::Vector2d(-a.y(), a.x()) / na;
    nu = 0;
    x = -(u.dot(g) / u.dot(H * u)) * u;
    lambda_g = a.dot(H * x + g) / (na * na);
    found = x.norm() <= r + tol_p && lambda_g * na >= -tol_v;
    for (const double side : {1.0, -1.0}) {
      if (found) break;
      x = side * r * u;
      const Eigen::Vector2d w = H * x + g;
      nu = -u.dot(w) / (side * r);
      lambda_g = a.dot(w) / (na * na);
      found = nu * r >= -tol_v && lambda_g * na >= -tol_v;
    }
  }
  if (!found) return false;
  lambda_g = std::max(lambda_g, 0.0);
  nu = std::max(nu, 0.0);

  // (SC4), and what is left of the optimality conditions at the point.
  const double lambda_kappa = lambda_g * A_NN + nu * r * mu + c - a.dot(x);
  if (na > 0 && lambda_kappa < -tol_v) return false;
  const double stationarity = (H * x + g - lambda_g * a + nu * x).lpNorm<Eigen::Infinity>();
  if (stationarity > tol_v) return false;
  o.residual = std::max({stationarity / velocity_scale, std::max(0.0, x.norm() - r) / kappa,
                         std::max(0.0, -a.dot(x)) / velocity_scale});
  o.p = Eigen::Vector3d(kappa, x.x(), x.y());
  o.v_two = o.v_one + x.x() * o.rows_.Minv_S + x.y() * o.rows_.Minv_T;
  return true;
}

}  // namespace impetus
