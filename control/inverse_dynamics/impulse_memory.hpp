// The last prediction of a controller by contact identity: the warm start of the next call (seed 004
// §4.6), matched through ContactKey as the stepper matches its own warm starts.
#pragma once

#include <Eigen/Dense>
#include <unordered_map>

#include "contact/problem.hpp"

namespace impetus {

struct ContactKeyHasher {
  std::size_t operator()(const ContactKey& k) const {
    return (static_cast<std::size_t>(k.geom_a + 1) * 73856093u) ^ (static_cast<std::size_t>(k.geom_b + 1) * 19349663u) ^
           (static_cast<std::size_t>(k.feature) * 83492791u);
  }
};

class PredictionMemory {
 public:
  /// guess (nc): the remembered p_N of each contact of `cp`, 0 where new.
  void guess(const ContactProblem& cp, Eigen::VectorXd& p_N) const {
    p_N.setZero(cp.nc);
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i)
      if (auto it = p_N_.find(cp.keys[i]); it != p_N_.end()) p_N[i] = it->second;
  }
  void remember(const ContactProblem& cp, const Eigen::VectorXd& p_N) {
    p_N_.clear();
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i) p_N_[cp.keys[i]] = p_N[i];
  }

 private:
  std::unordered_map<ContactKey, double, ContactKeyHasher> p_N_;
};

}  // namespace impetus
