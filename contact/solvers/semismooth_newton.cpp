#include "contact/solvers/semismooth_newton.hpp"

#include <cmath>

namespace impetus {

const char* to_string(SemismoothNewtonStatus status) {
  switch (status) {
    case SemismoothNewtonStatus::Converged: return "converged";
    case SemismoothNewtonStatus::MaxIterations: return "iteration limit reached";
    case SemismoothNewtonStatus::LineSearchFailed: return "line search failed (no descent step)";
    case SemismoothNewtonStatus::NonFinite: return "non-finite function value at the starting point";
    case SemismoothNewtonStatus::Stalled: return "stalled (merit function no longer decreasing)";
  }
  return "?";
}

double fischer_burmeister(double a, double b, double* da, double* db, double mu) {
  const double rho = mu > 0 ? std::sqrt(a * a + b * b + 2 * mu * mu) : std::hypot(a, b);
  if (da != nullptr && db != nullptr) {
    if (rho > 0) {
      *da = 1 - a / rho;
      *db = 1 - b / rho;
    } else {
      *da = *db = 1 - M_SQRT1_2;   // (S4): an element of ∂φ(0, 0)
    }
  }
  // a + b − ρ loses every digit when a, b > 0 are far apart; there a + b − ρ = 2(ab − μ²)/(a + b + ρ),
  // the same value computed without cancellation.
  if (a > 0 && b > 0) return 2 * (a * b - mu * mu) / (a + b + rho);
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
    const double w = F.weight(i);
    phi[i] = fischer_burmeister(w * z[i], F_[i], &da, &db, mu_);
    if (H != nullptr) {
      H->row(i) = db * J_.row(i);       // β_i ∇F_iᵀ + w_i α_i e_iᵀ  (S4)
      (*H)(i, i) += w * da;
    }
  }
  return true;
}

void SemismoothNewton::residual(McpFunction& F, const Eigen::VectorXd& z, Eigen::VectorXd& phi, Eigen::MatrixXd* H) {
  mu_ = 0;
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

bool SemismoothNewton::line_search(McpFunction& F, const Eigen::VectorXd& z, double psi, double slope,
                                   double t_min, int& evaluations, Trial& trial) {
  for (double t = 1; t >= t_min; t *= options_.backtrack) {
    trial.z = z + t * d_;
    ++evaluations;
    if (!assemble(F, trial.z, trial.phi, nullptr)) continue;   // e.g. a rotation too large to evaluate
    const double psi_trial = 0.5 * trial.phi.squaredNorm();
    if (psi_trial <= psi + options_.armijo * t * slope) {
      trial.t = t;
      trial.psi = psi_trial;
      return true;
    }
  }
  return false;
}

void SemismoothNewton::accept(McpFunction& F, Eigen::VectorXd& z, double& psi, Trial& trial, int& evaluations) {
  z.swap(trial.z);
  psi = trial.psi;
  ++evaluations;
  assemble(F, z, phi_, &H_);   // Φ again (same values) and H at the new point
}

SemismoothNewtonResult SemismoothNewton::solve(McpFunction& F, Eigen::VectorXd& z, double smoothing) {
  SemismoothNewtonResult result;
  const int n = F.size();
  if (z.size() != n) z.conservativeResize(n);   // Eigen reallocates even to the same size
  if (n == 0) return result;

  mu_ = std::max(smoothing, 0.0);
  ++result.evaluations;
  if (!assemble(F, z, phi_, &H_)) {
    result.status = SemismoothNewtonStatus::NonFinite;
    result.residual = INFINITY;
    mu_ = 0;
    return result;
  }
  double psi = 0.5 * phi_.squaredNorm();
  cod_.setThreshold(options_.rank_threshold);
  double lm_factor = 1;        // ν of (S6)
  int phase_start = 0;         // first iteration at the current μ (the stall test looks within a phase)

  for (;;) {
    const double residual = phi_.lpNorm<Eigen::Infinity>();
    if (mu_ > 0 && residual <= std::max(options_.tolerance, mu_)) {
      // (S8): close enough to the smoothed solution; reduce μ, ending with the true problem.
      mu_ = mu_ * options_.smoothing_reduction < options_.tolerance ? 0.0 : mu_ * options_.smoothing_reduction;
      ++result.evaluations;
      if (!assemble(F, z, phi_, &H_)) break;
      psi = 0.5 * phi_.squaredNorm();
      phase_start = result.iterations;
      continue;
    }
    if (mu_ == 0 && residual <= options_.tolerance) {
      result.status = SemismoothNewtonStatus::Converged;
      break;
    }
    if (result.iterations >= options_.max_iterations) {
      result.status = SemismoothNewtonStatus::MaxIterations;
      break;
    }
    // Stalled: Ψ fell by less than the factor stall_ratio over the last stall_window iterations.
    psi_history_[result.iterations % kStallHistory] = psi;
    if (options_.stall_window > 0 && result.iterations - phase_start >= options_.stall_window &&
        psi > options_.stall_ratio * psi_history_[(result.iterations - options_.stall_window) % kStallHistory]) {
      result.status = SemismoothNewtonStatus::Stalled;
      break;
    }
    ++result.iterations;
    grad_.noalias() = H_.transpose() * phi_;   // ∇Ψ = HᵀΦ

    // Newton direction (S5), accepted outright when its step is not short.
    bool newton_found = false;
    lu_.compute(H_);
    const auto pivots = lu_.matrixLU().diagonal().cwiseAbs();
    const bool regular = pivots.minCoeff() > options_.rank_threshold * pivots.maxCoeff();
    if (!regular) cod_.compute(H_);
    if (regular || cod_.rank() > 0) {
      d_ = -phi_;
      if (regular) {
        rhs_ = d_;
        d_ = lu_.solve(rhs_);
      } else {
        d_ = cod_solve(cod_, d_, cod_scratch_);   // −H⁺Φ (S5′)
      }
      const double slope = grad_.dot(d_);
      if (d_.allFinite() && slope <= -options_.descent_rho * std::pow(d_.norm(), options_.descent_power))
        newton_found = line_search(F, z, psi, slope, options_.min_step, result.evaluations, newton_);
    }
    if (newton_found && newton_.t >= options_.short_step) {
      accept(F, z, psi, newton_, result.evaluations);
      continue;
    }

    // Levenberg–Marquardt (S6): λ = ν‖Φ‖, ν shrinking on success and growing on failure.
    const double scale = std::max(1.0, (H_.colwise().squaredNorm()).maxCoeff());
    bool lm_found = false;
    for (int attempt = 0; attempt < options_.lm_attempts && !lm_found; ++attempt) {
      const double lambda = std::max(lm_factor * std::sqrt(2 * psi), options_.lm_min * scale);
      levenberg_marquardt_direction(lambda);
      ++result.lm_iterations;
      result.lm_parameter = lambda;
      const double slope = grad_.dot(d_);
      lm_found = d_.allFinite() && slope < 0 &&
                 line_search(F, z, psi, slope, options_.short_step, result.evaluations, lm_);
      lm_factor = lm_found ? std::max(lm_factor / 4, options_.lm_factor_min) : lm_factor * 10;
    }
    if (lm_found && (!newton_found || lm_.psi < newton_.psi)) {
      accept(F, z, psi, lm_, result.evaluations);
    } else if (newton_found) {
      accept(F, z, psi, newton_, result.evaluations);
    } else {
      result.status = SemismoothNewtonStatus::LineSearchFailed;
      break;
    }
  }
  // Report the residual of the true problem (μ = 0) at the returned point.
  if (mu_ > 0) {
    mu_ = 0;
    ++result.evaluations;
    assemble(F, z, phi_, nullptr);
  }
  result.residual = phi_.allFinite() ? phi_.lpNorm<Eigen::Infinity>() : INFINITY;
  if (phi_.allFinite()) phi_.cwiseAbs().maxCoeff(&result.worst_row);
  return result;
}

}  // namespace impetus
