// Projected Gauss–Seidel for phase I (phase_one_pgs.hpp, PG1–PG3).
#include "contact/max_dissipation/phase_one_pgs.hpp"

#include <algorithm>
#include <cmath>

namespace impetus {

void PhaseOnePgs::prepare(const ContactProblem& problem) {
  const int nc = problem.nc, nu = problem.nc + problem.nl;
  std::vector<int> block(problem.nv, -1);
  for (int b = 0; b < static_cast<int>(problem.systems.size()); ++b)
    for (int j = 0; j < problem.systems[b].size; ++j) block[problem.systems[b].offset + j] = b;

  start_.assign(1, 0);
  col_.clear();
  g_.clear();
  Wg_.clear();
  diag_.resize(nu);
  b_.resize(nu);
  std::vector<int> touched;
  for (int i = 0; i < nu; ++i) {
    const SparseRows& G = i < nc ? problem.N : problem.L;
    const int row = i < nc ? i : i - nc;
    b_[i] = (i < nc ? problem.phi[row] : problem.phi_L[row]) / problem.dt;
    touched.clear();
    for (SparseRows::InnerIterator it(G, row); it; ++it)
      if (block[it.col()] >= 0) touched.push_back(block[it.col()]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    double a = 0;
    for (int b : touched) {
      const SystemBlock& s = problem.systems[b];
      Eigen::VectorXd gb = Eigen::VectorXd::Zero(s.size);
      for (SparseRows::InnerIterator it(G, row); it; ++it)
        if (block[it.col()] == b) gb[it.col() - s.offset] += it.value();
      const Eigen::VectorXd wb = s.M_llt->solve(gb);
      a += gb.dot(wb);
      for (int j = 0; j < s.size; ++j) {
        col_.push_back(s.offset + j);
        g_.push_back(gb[j]);
        Wg_.push_back(wb[j]);
      }
    }
    diag_[i] = a;
    start_.push_back(static_cast<int>(col_.size()));
  }
}

PhaseOnePgsResult PhaseOnePgs::solve(const ContactProblem& problem, double rho, int max_sweeps, double tolerance,
                                     double impulse_scale, Eigen::VectorXd& p, Eigen::VectorXd& v) {
  prepare(problem);
  const int nu = problem.nc + problem.nl;
  PhaseOnePgsResult result;
  if (p.size() != nu || !p.allFinite()) p.setZero(nu);
  auto clamp = [rho](double x) { return std::clamp(x, 0.0, rho); };
  v = problem.v_star;
  for (int i = 0; i < nu; ++i) {
    p[i] = diag_[i] > 0 ? clamp(p[i]) : 0.0;   // a row that moves nothing carries nothing
    for (int k = start_[i]; k < start_[i + 1]; ++k) v[col_[k]] += Wg_[k] * p[i];
  }
  auto row_velocity = [&](int i) {   // w_i = G_i v + [φ; φ_L]_i/dt
    double w = b_[i];
    for (int k = start_[i]; k < start_[i + 1]; ++k) w += g_[k] * v[col_[k]];
    return w;
  };
  auto residual = [&] {
    double r = 0;
    for (int i = 0; i < nu; ++i)
      if (diag_[i] > 0) r = std::max(r, std::abs(p[i] - clamp(p[i] - row_velocity(i) / diag_[i])));
    return r / std::max(p.size() > 0 ? p.lpNorm<Eigen::Infinity>() : 0.0, impulse_scale);
  };
  for (result.sweeps = 0; result.sweeps < max_sweeps; ++result.sweeps) {
    for (int i = 0; i < nu; ++i) {
      if (!(diag_[i] > 0)) continue;
      const double next = clamp(p[i] - row_velocity(i) / diag_[i]);   // (PG2)
      const double delta = next - p[i];
      if (delta == 0) continue;
      p[i] = next;
      for (int k = start_[i]; k < start_[i + 1]; ++k) v[col_[k]] += Wg_[k] * delta;
    }
    // The residual costs a sweep; check it every few sweeps.
    constexpr int kCheckPeriod = 8;
    if ((result.sweeps + 1) % kCheckPeriod == 0 && residual() <= tolerance) {
      ++result.sweeps;
      result.converged = true;
      break;
    }
  }
  result.residual = residual();
  result.converged = result.residual <= tolerance;
  return result;
}

}  // namespace impetus
