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

  /// guess (nc, sized by the caller): the remembered p_N of each contact of `cp`, 0 where new.
  void guess(const ContactProblem& cp, Eigen::Ref<Eigen::VectorXd> guess) const {
    guess.setZero();
    for (int i = 0; i < cp.nc && i < static_cast<int>(cp.keys.size()); ++i)
      if (auto it = p_N.find(cp.keys[i]); it != p_N.end()) guess[i] = it->second;
  }
  /// Keeps `p` (nc), the impulses of this call, in place of the last.
  /// In place, not cleared and refilled: a contact that persists keeps its node, so a resting robot's call
  /// allocates nothing here; the node of a contact gone is kept aside and given to the next new one, so a
  /// trot's contact sets allocate nothing either once as many contacts were held at once (issue 16). What the
  /// memory holds is the same either way.
  void remember(const ContactProblem& cp, const Eigen::Ref<const Eigen::VectorXd>& p) {
    const int n = std::min(cp.nc, static_cast<int>(cp.keys.size()));
    // Room in spare for every node (those of p_N and those already spare), so that the moves below never
    // reallocate; made when a node is (below), so this one acts only after a copy or restore of the memory.
    reserve_spare();
    for (auto it = p_N.begin(); it != p_N.end();) {
      bool kept = false;
      for (int i = 0; i < n && !kept; ++i) kept = cp.keys[i] == it->first;
      if (kept) {
        ++it;
      } else {
        const auto gone = it++;
        spare_.nodes.push_back(p_N.extract(gone));
      }
    }
    for (int i = 0; i < n; ++i) {
      if (auto it = p_N.find(cp.keys[i]); it != p_N.end()) {
        it->second = p[i];
      } else if (!spare_.nodes.empty()) {
        Map::node_type node = std::move(spare_.nodes.back());
        spare_.nodes.pop_back();
        node.key() = cp.keys[i];
        node.mapped() = p[i];
        p_N.insert(std::move(node));
      } else {
        p_N.emplace(cp.keys[i], p[i]);
        reserve_spare();
      }
    }
  }

 private:
  using Map = std::unordered_map<ContactKey, double, ContactKeyHash>;
  /// Nodes of contacts no longer held, for the next new ones: storage, not value (a copy starts without, an
  /// assignment keeps its own).
  struct Spare {
    Spare() = default;
    Spare(const Spare&) {}
    Spare& operator=(const Spare&) { return *this; }
    std::vector<Map::node_type> nodes;
  };
  Spare spare_;
  void reserve_spare() {
    if (spare_.nodes.capacity() < spare_.nodes.size() + p_N.size()) spare_.nodes.reserve(spare_.nodes.size() + p_N.size());
  }
};

}  // namespace impetus
