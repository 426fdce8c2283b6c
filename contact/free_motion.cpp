// Free motion as a contact problem's answer (free_motion.hpp, FM1–FM2).
#include "contact/free_motion.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "contact/solvers/inertia_operator.hpp"

namespace impetus {

bool every_row_separates(const ContactProblem& problem) {
  for (int i = 0; i < problem.nc; ++i)
    if (!(row_dot({&problem.N, i}, problem.v_star) + problem.phi[i] / problem.dt >= 0)) return false;
  for (int k = 0; k < problem.nl; ++k)
    if (!(row_dot({&problem.L, k}, problem.v_star) + problem.phi_L[k] / problem.dt >= 0)) return false;
  return true;
}

double largest_free_slip(const ContactProblem& problem, const std::vector<char>& held) {
  assert(held.empty() || static_cast<int>(held.size()) == problem.nc);
  double slip = 0;
  for (int i = 0; i < problem.nc; ++i) {
    if (!held.empty() && !held[i]) continue;
    const double s = std::abs(row_dot({&problem.S, i}, problem.v_star));
    const double t = std::abs(row_dot({&problem.T, i}, problem.v_star));
    if (!std::isfinite(s) || !std::isfinite(t)) return std::numeric_limits<double>::infinity();
    slip = std::max({slip, s, t});
  }
  return slip;
}

double free_motion_velocity_scale(const ContactProblem& problem) {
  double s = 0;
  for (int i = 0; i < problem.nc; ++i)
    s = std::max({s, std::abs(row_dot({&problem.N, i}, problem.v_star)), std::abs(problem.phi[i] / problem.dt)});
  for (int k = 0; k < problem.nl; ++k)
    s = std::max({s, std::abs(row_dot({&problem.L, k}, problem.v_star)), std::abs(problem.phi_L[k] / problem.dt)});
  return std::isfinite(s) ? std::max(s, std::numeric_limits<double>::min()) : s;
}

}  // namespace impetus
