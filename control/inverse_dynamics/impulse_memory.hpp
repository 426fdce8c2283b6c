// The last prediction of a controller by contact identity: the warm start of the next call (seed 004
// §4.6), matched through ContactKey as the stepper matches its own warm starts.
#pragma once

#include <Eigen/Dense>
#include <unordered_map>

#include "contact/problem.hpp"

namespace impetus {

struct PredictionMemory {
  std::unordered_map<ContactKey, double, ContactKeyHash> p_N;   // N·s, by contact

  /// guess (nc): the remembered p_N of each contact of `cp`, 0 where new.
  void guess(const ContactProblem& cp, Eigen::VectorXd& guess) const {
    guess.setZero(cp.nc);
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i)
      if (auto it = p_N.find(cp.keys[i]); it != p_N.end()) guess[i] = it->second;
  }
  /// Keeps `p` (nc), the impulses of this call, in place of the last.
  void remember(const ContactProblem& cp, const Eigen::VectorXd& p) {
    p_N.clear();
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i) p_N[cp.keys[i]] = p[i];
  }
};

}  // namespace impetus
