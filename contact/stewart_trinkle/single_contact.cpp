// One contact of Stewart–Trinkle by enumeration (single_contact.hpp, SS1–SS5).
#include "contact/stewart_trinkle/single_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/solvers/lcp_certificate.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {
namespace {

/// A candidate whose certificate ρ is at most this is exact: its active set is the answer's, and what is
/// left of ρ is the rounding of a 3×3 or 2×2 solve (≈ cond(W)·1e-16; W spans at most ~six decades for the
/// bodies of one island). Ten thousand times below the model's default tolerance 1e-6, so that a candidate
/// next to the answer (a stick just outside the pyramid, an edge next to the facet) is never preferred to it.
constexpr double kExact = 1e-10;
/// A 2×2 of (SS4) whose determinant is below this fraction of its terms is singular to rounding: the
/// facet is left out (its two edges carry the same slip, and (SS3) covers it).
constexpr double kSingular = 1e-12;

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

double StewartTrinkleSingleContact::certify(int n, double mu, double a, Eigen::Vector3d& p_of_z) {
  p_of_z = Eigen::Vector3d(z[0], 0, 0);
  if (n > 1) {
    const auto p_F = z.segment(1, k);
    p_of_z[1] = cos_edge.dot(p_F);   // (ST8)
    p_of_z[2] = sin_edge.dot(p_F);
  }
  const Eigen::Vector3d Wp = rows.W * p_of_z;
  Az[0] = Wp[0];
  if (n > 1) {
    for (int j = 0; j < k; ++j) Az[1 + j] = cos_edge[j] * Wp[1] + sin_edge[j] * Wp[2] + a * z[k + 1];
    Az[k + 1] = a * (mu * z[0] - z.segment(1, k).sum());
  }
  w.head(n) = Az.head(n) + q.head(n);
  return certificate_rho(q.head(n), z.head(n), w.head(n), Az.head(n).lpNorm<Eigen::Infinity>());
}

bool StewartTrinkleSingleContact::solve(const ContactProblem& P, int friction_edges, double tolerance,
                                        Eigen::VectorXd& v_plus) {
  if (!rows.compute(P)) return false;
  const Eigen::Matrix3d& W = rows.W;
  const Eigen::Vector3d& b = rows.b;
  const double c = P.phi[0] / P.dt, q_N = b[0] + c, a = W(0, 0);
  if (!std::isfinite(c)) return false;
  const double mu = P.mu[0] > 0 ? P.mu[0] : 0.0;   // μ ≤ 0: no friction rows (group_stewart_trinkle_rows)
  const Eigen::Vector2d b_t = b.tail<2>();

  if (k != friction_edges) {   // the buffers at their size for this k, once
    k = friction_edges;
    pyramid_edges(k, cos_edge, sin_edge);
    for (Eigen::VectorXd* x : {&q, &z, &w, &Az, &z_best}) x->resize(k + 2);
  }
  q[0] = q_N;

  // (SS5): the normal row alone.
  if (mu == 0) {
    z[0] = std::max(0.0, -q_N / a);
    residual = certify(1, mu, a, p);
    if (!(residual <= tolerance)) return false;
    rows.velocity(P, p, v_plus);
    return true;
  }

  const int n = k + 2, l = k + 1;   // z = (p_N; p_F; λ̂), λ̂ at l
  for (int j = 0; j < k; ++j) q[1 + j] = cos_edge[j] * b_t[0] + sin_edge[j] * b_t[1];
  q[l] = 0;

  Eigen::Vector3d p_z;
  double rho_best = kInf, energy_best = kInf;
  bool exact_best = false;
  // Keeps z when it is exact and dissipates more than the best exact one, or, with no exact one yet, when its
  // ρ is smaller. Returns whether z is exact.
  const auto consider = [&]() {
    const double rho = certify(n, mu, a, p_z);
    const bool exact = rho <= kExact;
    const double energy = b.dot(p_z) + 0.5 * p_z.dot(W * p_z);   // ½v⁺ᵀMv⁺ − ½v*ᵀMv*
    const bool better = exact ? !exact_best || energy < energy_best : !exact_best && rho < rho_best;
    if (better) {
      z_best = z;
      p = p_z;
      rho_best = rho;
      energy_best = energy;
      exact_best = exact;
    }
    return exact;
  };
  // λ̂ of a slip u_t on edge j: λ = −d_j·u_t (ST4 with w_Fj = 0).
  const auto slip_speed = [&](int j, const Eigen::Vector3d& p_j) {
    const Eigen::Vector3d u = W * p_j + b;
    return -(cos_edge[j] * u[1] + sin_edge[j] * u[2]) / a;
  };

  // (SS1), only where it can hold: with q_N < 0 its w_N = q_N is negative.
  bool done = false;
  if (q_N >= 0) {
    z.setZero();
    z[l] = std::max(0.0, -q.segment(1, k).minCoeff()) / a;
    done = consider();
  }

  // (SS2)
  if (!done) {
    const Eigen::LDLT<Eigen::Matrix3d> ldlt(W);
    const Eigen::Vector3d p_stick = ldlt.solve(-Eigen::Vector3d(q_N, b_t[0], b_t[1]));
    if (ldlt.info() == Eigen::Success && p_stick.allFinite()) {
      z.setZero();
      z[0] = p_stick[0];
      if (p_stick[1] != 0 || p_stick[2] != 0) {
        double alpha = 0, beta = 0;
        const int j = split_onto_edges(p_stick[1], p_stick[2], cos_edge, sin_edge, alpha, beta);
        z[1 + j] = std::max(alpha, 0.0);
        z[1 + (j + 1) % k] = std::max(beta, 0.0);
      }
      done = consider();
    }
  }

  // (SS3) and (SS4)
  for (int j = 0; j < k && !done; ++j) {
    const int j1 = (j + 1) % k;
    const Eigen::Vector3d e_j(1, mu * cos_edge[j], mu * sin_edge[j]);
    const Eigen::Vector3d We = W * e_j;
    const double p_N = -q_N / We[0];
    if (p_N >= 0 && std::isfinite(p_N)) {
      z.setZero();
      z[0] = p_N;
      z[1 + j] = mu * p_N;
      z[l] = slip_speed(j, p_N * e_j);
      consider();
    }
    const Eigen::Vector3d f_j(0, cos_edge[j1] - cos_edge[j], sin_edge[j1] - sin_edge[j]);
    const Eigen::Vector3d Wf = W * f_j;
    const double a11 = We[0], a12 = Wf[0], a21 = f_j.dot(We), a22 = f_j.dot(Wf);
    const double det = a11 * a22 - a12 * a21;
    if (!(std::abs(det) > kSingular * (std::abs(a11 * a22) + std::abs(a12 * a21)))) continue;
    const double r1 = -q_N, r2 = -f_j.dot(b);
    const double p_N_f = (r1 * a22 - a12 * r2) / det, beta = (a11 * r2 - a21 * r1) / det;
    if (!(p_N_f >= 0) || !std::isfinite(p_N_f + beta)) continue;
    z.setZero();
    z[0] = p_N_f;
    z[1 + j] = mu * p_N_f - beta;
    z[1 + j1] = beta;
    z[l] = slip_speed(j, p_N_f * e_j + beta * f_j);
    consider();
  }

  residual = rho_best;
  if (!(residual <= tolerance)) return false;
  z = z_best;   // the answer's z, for whoever reads it after
  rows.velocity(P, p, v_plus);
  return true;
}

}  // namespace impetus
