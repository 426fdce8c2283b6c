#include "contact/solvers/semismooth_newton.hpp"

#include <cmath>
#include <iostream>
#include <cstdio>
#include <cstdlib>

namespace impetus {

const char* to_string(SemismoothNewtonStatus status) {
  switch (status) {
    case SemismoothNewtonStatus::Converged: return "converged";
    case SemismoothNewtonStatus::MaxIterations: return "iteration limit reached";
    case SemismoothNewtonStatus::LineSearchFailed: return "line search failed (no descent step)";
    case SemismoothNewtonStatus::NonFinite: return "non-finite function value at the starting point";
  }
  return "?";
}

double fischer_burmeister(double a, double b, double* da, double* db) {
  const double rho = std::hypot(a, b);
  if (da != nullptr && db != nullptr) {
    if (rho > 0) {
      *da = 1 - a / rho;
      *db = 1 - b / rho;
    } else {
      *da = *db = 1 - M_SQRT1_2;   // (S4): an element of ∂φ(0, 0)
    }
  }
  // a + b − ρ loses every digit when a, b > 0 are far apart; a·b ≥ 0 there, and
  // a + b − ρ = 2ab / (a + b + ρ) is exact (the two forms are equal algebraically).
  if (a > 0 && b > 0) return 2 * a * b / (a + b + rho);
  return a + b - rho;
}

bool SemismoothNewton::assemble(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H) {
  const int n = static_cast<int>(z.size());
  F_.resize(n);
  F.evaluate(z, F_, H != nullptr ? &J_ : nullptr);
  phi.resize(n);
  if (!F_.allFinite()) return false;
  if (H != nullptr) {
    if (!J_.allFinite()) return false;
    H->resize(n, n);
  }
  for (int i = 0; i < n; ++i) {
    if (!F.bounded(i)) {
      phi[i] = F_[i];
      if (H != nullptr) H->row(i) = J_.row(i);
      continue;
    }
    double da = 0, db = 0;
    phi[i] = fischer_burmeister(z[i], F_[i], &da, &db);
    if (H != nullptr) {
      H->row(i) = db * J_.row(i);       // β_i ∇F_iᵀ + α_i e_iᵀ  (S4)
      (*H)(i, i) += da;
    }
  }
  return true;
}

void SemismoothNewton::residual(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H) {
  assemble(F, z, phi, H);
}

void SemismoothNewton::levenberg_marquardt_direction(double lambda) {
  const int n = static_cast<int>(H_.rows());
  HtH_.noalias() = H_.transpose() * H_;
  HtH_.diagonal().array() += lambda;
  llt_.compute(HtH_);
  d_.resize(n);
  d_ = -grad_;
  llt_.solveInPlace(d_);
}

bool SemismoothNewton::line_search(McpFunction& F, Eigen::VectorXd& z, double& psi, double slope, int& evaluations) {
  for (double t = 1; t >= options_.min_step; t *= options_.backtrack) {
    if (getenv("SSN_DEBUG")) fprintf(stderr, "    t %.3e\n", t);
    z_trial_ = z + t * d_;
    ++evaluations;
    if (!assemble(F, z_trial_, phi_trial_, nullptr)) continue;   // e.g. a rotation too large to evaluate
    const double psi_trial = 0.5 * phi_trial_.squaredNorm();
    if (psi_trial <= psi + options_.armijo * t * slope) {
      z.swap(z_trial_);
      phi_.swap(phi_trial_);
      psi = psi_trial;
      return true;
    }
  }
  return false;
}

SemismoothNewtonResult SemismoothNewton::solve(McpFunction& F, Eigen::VectorXd& z) {
  SemismoothNewtonResult result;
  const int n = F.size();
  z.conservativeResize(n);
  if (n == 0) return result;

  ++result.evaluations;
  if (!assemble(F, z, phi_, &H_)) {
    result.status = SemismoothNewtonStatus::NonFinite;
    result.residual = INFINITY;
    return result;
  }
  double psi = 0.5 * phi_.squaredNorm();
  lu_.setThreshold(options_.rank_threshold);

  for (;;) {
    result.residual = phi_.lpNorm<Eigen::Infinity>();
    if (result.residual <= options_.tolerance) {
      result.status = SemismoothNewtonStatus::Converged;
      break;
    }
    if (result.iterations >= options_.max_iterations) {
      result.status = SemismoothNewtonStatus::MaxIterations;
      break;
    }
    ++result.iterations;
    if (getenv("SSN_DEBUG")) { int w; phi_.cwiseAbs().maxCoeff(&w); fprintf(stderr, "  it %d res %.3e worst %d psi %.3e\n", result.iterations, phi_.lpNorm<Eigen::Infinity>(), w, psi); }
    grad_.noalias() = H_.transpose() * phi_;   // ∇Ψ = HᵀΦ

    // Newton direction (S5).
    bool newton = false;
    lu_.compute(H_);
    if (lu_.isInvertible()) {
      d_ = -phi_;
      d_ = lu_.solve(d_);
      const double slope = grad_.dot(d_);
      newton = d_.allFinite() && slope <= -options_.descent_rho * std::pow(d_.norm(), options_.descent_power);
      if (getenv("SSN_DEBUG")) { fprintf(stderr, "    newton |d| %.3e slope %.3e ok %d\n", d_.norm(), slope, (int)newton); if (result.iterations == 6) { Eigen::IOFormat f(4); std::cerr << "z " << z.transpose().format(f) << "\nphi " << phi_.transpose().format(f) << "\nd " << d_.transpose().format(f) << "\nF " << F_.transpose().format(f) << "\n"; } }
      if (newton && line_search(F, z, psi, slope, result.evaluations)) {
        ++result.evaluations;
        assemble(F, z, phi_, &H_);
        continue;
      }
    }

    // Levenberg–Marquardt direction (S6).
    const double scale = std::max(1.0, (H_.colwise().squaredNorm()).maxCoeff());
    const double lambda = std::max(std::sqrt(2 * psi), options_.lm_min * scale);
    levenberg_marquardt_direction(lambda);
    ++result.lm_iterations;
    result.lm_parameter = lambda;
    const double slope = grad_.dot(d_);
    if (!d_.allFinite() || !(slope < 0) || !line_search(F, z, psi, slope, result.evaluations)) {
      result.status = SemismoothNewtonStatus::LineSearchFailed;
      break;
    }
    ++result.evaluations;
    assemble(F, z, phi_, &H_);
  }
  result.residual = phi_.lpNorm<Eigen::Infinity>();
  phi_.cwiseAbs().maxCoeff(&result.worst_row);
  return result;
}

}  // namespace impetus
