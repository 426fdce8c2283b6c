// Effort limits inside the inverse dynamics (effort_limits.hpp).
#include "control/inverse_dynamics/effort_limits.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace impetus {

void EffortLimits::reserve(int na, int nv, int most_contacts) {
  if (static_cast<int>(qd_des_by_size_.size()) < na + 1) qd_des_by_size_.resize(na + 1);
  for (int free = 0; free <= na; ++free) {
    qd_des_by_size_[free].resize(free);
    InverseDynamicsSolution& round = round_by_size_(free);
    round.tau.resize(free);
    round.v_plus.resize(nv);
    round.reserve_impulses(most_contacts);
  }
  reduced_.actuated.reserve(na);
  kept_.tau.resize(na);
  kept_.v_plus.resize(nv);
  kept_.saturated.resize(na);
  kept_.reserve_impulses(most_contacts);
  bound_.resize(na);
  state_.resize(na);
  impulse_.resize(nv);
  shift_.resize(nv);
  v_star_.resize(nv);
  seen_.reserve(static_cast<std::size_t>(1 + kMaxRoundsPerJoint * na) * na);
}

void EffortLimits::solve_round(InverseDynamicsSolver& solver, const InverseDynamicsProblem& problem,
                               ContactProblem& contact) {
  // (EL1): the held joints' impulses into v*, the free joints driven.
  const ContactProblem& cp = contact;
  const int na = static_cast<int>(problem.actuated.size());
  impulse_.setZero(cp.nv);
  reduced_.actuated.clear();
  int free = 0;
  for (int a = 0; a < na; ++a)
    if (state_[a] == 0) ++free;
  // q̇_des,ℱ in the buffer of its size, swapped in for the solve: the rounds change |ℱ|, and a resize
  // would reallocate at every change.
  Eigen::VectorXd& qd_des = qd_des_by_size_[free];
  qd_des.resize(free);
  free = 0;
  for (int a = 0; a < na; ++a) {
    if (state_[a] != 0) {
      impulse_[problem.actuated[a]] += state_[a] * bound_[a];
    } else {
      reduced_.actuated.push_back(problem.actuated[a]);
      qd_des[free++] = problem.qd_des[a];
    }
  }
  cp.solve_M(impulse_, shift_);
  v_star_ = cp.v_star + shift_;
  const Lent v_star(contact.v_star, v_star_);   // the solver reads v* of (EL1); the caller's comes back
  const Lent qd_des_free(reduced_.qd_des, qd_des);
  round_ = &round_by_size_(free);   // its τ (|ℱ|) sized once per |ℱ|
  solver.solve(reduced_, *round_);
}

void EffortLimits::solve(InverseDynamicsSolver& solver, const InverseDynamicsProblem& problem, ContactProblem& contact,
                         InverseDynamicsSolution& solution) {
  assert(problem.contact == &contact);
  solver.solve(problem, solution);
  const int na = static_cast<int>(problem.actuated.size());
  solution.saturated.setZero(na);
  solution.effort_rounds = 1;
  if (problem.effort.size() != na || solution.stats.status == SolveStatus::Failed) return;
  const double dt = problem.contact->dt;
  bound_.resize(na);
  bool over = false;
  for (int a = 0; a < na; ++a) {
    bound_[a] = problem.effort[a] > 0 ? problem.effort[a] * dt : std::numeric_limits<double>::infinity();
    over = over || std::abs(solution.tau[a]) > bound_[a];
  }
  if (!over) return;   // within the limits: the plain solve, bit for bit

  reduced_.contact = &contact;
  if (static_cast<int>(qd_des_by_size_.size()) < na + 1) qd_des_by_size_.resize(na + 1);
  reduced_.sensed = problem.sensed;
  reduced_.effort.resize(0);
  state_.setZero(na);
  bool have_kept = false;
  int iterations = solution.stats.iterations, fallbacks = solution.fallbacks;
  const int max_rounds = 1 + kMaxRoundsPerJoint * na;
  int rounds = 1;
  std::string failure;
  // The held sets solved so far, na entries each. With contact the rule can cycle (measured on links_trot:
  // id_qp_coulomb on flat_noslip, 261 of 30000 calls, none settling within 1200 solves): a call also stops
  // when a held set repeats, which it cannot where p does not move with τ (a P-matrix problem). There,
  // links_trot's id_sensed took up to 46 solves (30 s on flat_noslip), 10 more than the cap allows its
  // 12 joints: those calls return their last round within the limits.
  seen_.reserve(static_cast<std::size_t>(max_rounds) * na);   // one set per solve at most: no growth mid-call
  seen_.assign(state_.data(), state_.data() + na);
  for (;;) {
    // Murty's least-index rule on (EL3): the first joint that breaks it changes state.
    int change = -1;
    for (int a = 0; a < na && change < 0; ++a) {
      if (state_[a] == 0) {
        if (std::abs(solution.tau[a]) > bound_[a]) change = a;
      } else {
        const double miss = state_[a] * (solution.v_plus[problem.actuated[a]] - problem.qd_des[a]);
        if (miss > 0) {
          // τ̄_a G_aa: the velocity change of joint a under its limit impulse alone.
          impulse_.setZero(problem.contact->nv);
          impulse_[problem.actuated[a]] = bound_[a];
          problem.contact->solve_M(impulse_, shift_);
          if (miss > kReturnMiss * shift_[problem.actuated[a]]) change = a;
        }
      }
    }
    if (change < 0) break;   // (EL3) holds: every joint free and within its limit or held and wanting more
    if (rounds == max_rounds) {
      failure = "effort limits: no consistent set of held joints in " + std::to_string(max_rounds) + " solves";
      break;
    }
    state_[change] = state_[change] != 0 ? 0 : (solution.tau[change] > 0 ? 1 : -1);
    bool repeated = false;
    for (std::size_t k = 0; k < seen_.size() && !repeated; k += na)
      repeated = std::equal(seen_.begin() + k, seen_.begin() + k + na, state_.data());
    if (repeated) {   // a cycle, which the rule cannot make where p does not move with τ
      failure = "effort limits: the held set cycles after " + std::to_string(rounds) + " solves";
      break;
    }
    seen_.insert(seen_.end(), state_.data(), state_.data() + na);
    solve_round(solver, problem, contact);
    ++rounds;
    iterations += round_->stats.iterations;
    fallbacks += round_->fallbacks;
    if (round_->stats.status == SolveStatus::Failed) {
      failure = "effort limits: re-solve with " + std::to_string((state_.array() != 0).count()) +
                " joints held failed (" + round_->stats.message + ")";
      break;
    }
    // The full solution of this round: the free joints' τ, the held ones at their limit.
    solution.stats = round_->stats;
    solution.p_N = round_->p_N;
    solution.p_S = round_->p_S;
    solution.p_T = round_->p_T;
    solution.v_plus = round_->v_plus;
    for (int a = 0, f = 0; a < na; ++a) solution.tau[a] = state_[a] != 0 ? state_[a] * bound_[a] : round_->tau[f++];
    solution.saturated = state_;
    bool within = true;
    for (int a = 0; a < na; ++a) within = within && std::abs(solution.tau[a]) <= bound_[a];
    if (within) {
      kept_ = solution;   // into kept_'s storage (InverseDynamicsSolution's copy)
      have_kept = true;
    }
  }
  if (!failure.empty()) {
    if (have_kept) {   // within the limits and predicted for itself; only a return was not settled
      solution = kept_;
    } else {           // as the stage's clamp: the prediction is that of the unclamped τ
      for (int a = 0; a < na; ++a) {
        if (std::abs(solution.tau[a]) <= bound_[a]) continue;
        solution.saturated[a] = solution.tau[a] > 0 ? 1 : -1;
        solution.tau[a] = solution.saturated[a] * bound_[a];
      }
      solution.stats.status = SolveStatus::Fallback;
      ++fallbacks;
    }
    solution.stats.message = failure + (solution.stats.message.empty() ? "" : "; " + solution.stats.message);
  }
  solution.stats.iterations = iterations;
  solution.fallbacks = fallbacks;
  solution.effort_rounds = rounds;
}

}  // namespace impetus
