// Modified principal pivoting (principal_pivoting.hpp, PP1–PP2 and modifications a–c).
#include "contact/solvers/principal_pivoting.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace impetus {
namespace {

constexpr double kTiny = std::numeric_limits<double>::min();

/// Zobrist key of row u: SplitMix64 of u, so that the hash of 𝒜 is the XOR of its rows' keys.
std::uint64_t zobrist(int u) {
  std::uint64_t x = static_cast<std::uint64_t>(u) + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

const char* to_string(PivotingStatus status) {
  switch (status) {
    case PivotingStatus::Solved: return "solved";
    case PivotingStatus::Infeasible: return "infeasible rows";
    case PivotingStatus::Cycling: return "cycling";
    case PivotingStatus::PivotLimit: return "pivot limit";
    case PivotingStatus::NumericalFailure: return "numerical failure";
  }
  return "unknown";
}

double projection_velocity_scale(const DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f) {
  double s = 0;
  for (int u = 0; u < U.size(); ++u) s = std::max({s, std::abs(row_dot(U.row(u), v_f)), std::abs(U.b[u])});
  for (int p = 0; p < factor.size(); ++p) s = std::max(s, std::abs(factor.rhs(p)));
  return std::isfinite(s) ? std::max(s, kTiny) : s;
}

void PrincipalPivoting::mark(int u, int position) {
  position_of_[u] = position;
  row_at_[position] = u;
  hash_ ^= zobrist(u);
}

void PrincipalPivoting::drop(DelassusFactor& factor, int position) {
  const int u = row_at_[position];
  factor.remove(position);
  for (int p = position + 1; p <= factor.size(); ++p) {
    row_at_[p - 1] = row_at_[p];
    position_of_[row_at_[p - 1]] = p - 1;
  }
  position_of_[u] = -1;
  hash_ ^= zobrist(u);
}

bool PrincipalPivoting::visited(std::uint64_t hash) const {
  return std::find(seen_.begin(), seen_.end(), hash) != seen_.end();
}

PivotingReport PrincipalPivoting::solve(DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
                                        const Eigen::VectorXd* guess, const PivotingOptions& options,
                                        Eigen::VectorXd& z, Eigen::VectorXd& w, Eigen::VectorXd& v_plus) {
  z.resize(U.size());
  w.resize(U.size());
  const Eigen::Map<const Eigen::VectorXd> none(nullptr, 0);
  return solve(factor, U, v_f, guess != nullptr ? Eigen::Ref<const Eigen::VectorXd>(*guess) : Eigen::Ref<const Eigen::VectorXd>(none),
               options, Eigen::Ref<Eigen::VectorXd>(z), Eigen::Ref<Eigen::VectorXd>(w), v_plus);
}

PivotingReport PrincipalPivoting::solve(DelassusFactor& factor, const UnilateralRows& U, const Eigen::Ref<const Eigen::VectorXd>& v_f,
                                        const Eigen::Ref<const Eigen::VectorXd>& guess, const PivotingOptions& options,
                                        Eigen::Ref<Eigen::VectorXd> z, Eigen::Ref<Eigen::VectorXd> w,
                                        Eigen::VectorXd& v_plus) {
  PivotingReport report;
  const int n = U.size();
  const int nv = factor.capacity();
  assert(z.size() == n && w.size() == n);
  k_G_ = factor.size();
  position_of_.assign(n, -1);
  row_at_.assign(nv, -1);
  infeasible_.assign(n, 0);
  seen_.clear();
  hash_ = 0;
  z.setZero();

  report.velocity_scale = projection_velocity_scale(factor, U, v_f);
  const double tau_w = options.zero_tolerance * report.velocity_scale;
  const double tau_dep = options.dependence_tolerance;
  const int cap = options.max_pivots > 0 ? options.max_pivots : 20 + 4 * nv + 2 * n;

  // (a) Warm start from the previous step's positive impulses (their independent subset).
  if (guess.size() == n)
    for (int u = 0; u < n && factor.size() < nv; ++u)
      if (guess[u] > 0 && factor.try_append(U.row(u), -U.b[u], tau_dep)) {
        mark(u, factor.size() - 1);
        ++report.warm_rows;
      }

  auto finish = [&](PivotingStatus status) {
    report.status = status;
    report.active = factor.size() - k_G_;
    const auto lambda = factor.lambda();
    for (int p = k_G_; p < factor.size(); ++p) z[row_at_[p]] = lambda[p];
    return report;
  };

  while (true) {
    // Lines 10–14: z_𝒜 and v⁺ from the factor (D2), then w over every row.
    factor.solve(v_plus);
    ++report.iterations;
    if (!v_plus.allFinite()) return finish(PivotingStatus::NumericalFailure);
    const auto lambda = factor.lambda();

    int enter = -1;                       // (PP2) i
    double w_min = -tau_w;
    for (int u = 0; u < n; ++u) {
      w[u] = row_dot(U.row(u), v_plus) + U.b[u];
      if (position_of_[u] < 0 && !infeasible_[u] && w[u] < w_min) {
        w_min = w[u];
        enter = u;
      }
    }
    double z_max = 0;
    for (int p = k_G_; p < factor.size(); ++p) z_max = std::max(z_max, std::abs(lambda[p]));
    const double tau_z = options.zero_tolerance * std::max(z_max, kTiny);
    int leave = -1;                       // (PP2) j, a factor position
    double z_min = -tau_z;
    for (int p = k_G_; p < factor.size(); ++p)
      if (lambda[p] < z_min) {
        z_min = lambda[p];
        leave = p;
      }

    if (enter < 0 && leave < 0)
      return finish(report.infeasible > 0 ? PivotingStatus::Infeasible : PivotingStatus::Solved);
    // (c) A deterministic rule from a repeated active set repeats itself.
    if (visited(hash_)) return finish(PivotingStatus::Cycling);
    seen_.push_back(hash_);
    if (report.pivots >= cap) return finish(PivotingStatus::PivotLimit);

    if (leave >= 0) {                     // lines 17–23 / 34–38
      drop(factor, leave);
      ++report.pivots;
    }
    if (enter < 0) continue;
    if (factor.try_append(U.row(enter), -U.b[enter], tau_dep)) {   // lines 32–33
      mark(enter, factor.size() - 1);
      ++report.pivots;
      continue;
    }
    // (b) The entering row is a combination of the rows held.
    if (leave >= 0) continue;             // the set changed since λ was computed: solve again first
    const auto rho = factor.dependence();
    const double rho_floor = options.zero_tolerance * std::max(rho.cwiseAbs().maxCoeff(), kTiny);
    int blocking = -1;
    double ratio_min = std::numeric_limits<double>::infinity();
    for (int p = k_G_; p < factor.size(); ++p)
      if (rho[p] > rho_floor) {
        const double ratio = std::max(lambda[p], 0.0) / rho[p];
        if (ratio < ratio_min) {
          ratio_min = ratio;
          blocking = p;
        }
      }
    if (blocking < 0) {                   // no active row can give way: U_i v ≥ −b_i cannot hold
      infeasible_[enter] = 1;
      ++report.infeasible;
      seen_.clear();                      // the state now includes the mark
      continue;
    }
    drop(factor, blocking);
    if (!factor.try_append(U.row(enter), -U.b[enter], tau_dep)) {
      factor.solve(v_plus);               // leave z, w and v⁺ consistent with the set held
      for (int u = 0; u < n; ++u) w[u] = row_dot(U.row(u), v_plus) + U.b[u];
      return finish(PivotingStatus::NumericalFailure);
    }
    mark(enter, factor.size() - 1);
    report.pivots += 2;
  }
}

}  // namespace impetus
