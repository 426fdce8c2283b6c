// The last prediction of a controller by contact identity: the warm start of the next call (seed 004
// §4.6), matched through ContactKey as the stepper matches its own warm starts.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

struct PredictionMemory {
  std::unordered_map<ContactKey, double, ContactKeyHash> p_N;   // N·s, by contact
  // id_qp_* (id_qp.hpp QP19): the last call whose set loop settled — its contacts in order (nc), phase I's
  // set A on them (nc, 0/1) and [z; y] of its (QP6) (the LCP's size); all empty when there is none.
  std::vector<ContactKey> keys;
  std::vector<char> set;
  Eigen::VectorXd lcp;

  /// guess (nc): the remembered p_N of each contact of `cp`, 0 where new.
  void guess(const ContactProblem& cp, Eigen::VectorXd& guess) const {
    guess.setZero(cp.nc);
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i)
      if (auto it = p_N.find(cp.keys[i]); it != p_N.end()) guess[i] = it->second;
  }
  /// Keeps `p` (nc), the impulses of this call, in place of the last.
  /// In place, not cleared and refilled: a contact that persists keeps its node, so a resting robot's call
  /// allocates nothing here. What the memory holds is the same either way.
  void remember(const ContactProblem& cp, const Eigen::VectorXd& p) {
    const int n = std::min(cp.nc, static_cast<int>(cp.keys.size()));
    std::erase_if(p_N, [&](const auto& entry) {
      for (int i = 0; i < n; ++i)
        if (cp.keys[i] == entry.first) return false;
      return true;
    });
    for (int i = 0; i < n; ++i) p_N[cp.keys[i]] = p[i];
  }
};

}  // namespace impetus
