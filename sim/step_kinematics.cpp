#include "sim/step_kinematics.hpp"

#include <cstring>

#include "dynamics/kinematics.hpp"

namespace impetus {

namespace {

/// Bitwise, not ==: −0 and +0 compare equal but may give forward_kinematics' results other bits.
bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

bool holds_kinematics_of(const StepData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  return data.kinematics_held && same_bits(data.kinematics_q, q) && same_bits(data.kinematics_v, v);
}

void kinematics_at(const MultibodyModel& model, StepData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   WorkerPool* pool) {
  if (holds_kinematics_of(data, q, v)) return;
  auto tree_kinematics = [&](int t, int) { forward_kinematics_of_tree(model, data.multibody, q, v, t); };
  for_each_item(pool, static_cast<int>(model.trees.size()), tree_kinematics);
  data.kinematics_q = q;   // the model's sizes every time: no allocation once warm
  data.kinematics_v = v;
  data.kinematics_held = true;
}

}  // namespace impetus
