// Small multibody models built in code, for the dynamics tests.
#pragma once

#include <initializer_list>
#include <random>
#include <string>

#include "dynamics/integration.hpp"
#include "dynamics/model.hpp"

namespace impetus::test {

/// Uniform coordinates in [−1, 1], unit quaternions from normalized uniform 4-vectors.
inline Eigen::VectorXd random_configuration(const MultibodyModel& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd q = model.neutral_configuration();
  for (const Link& link : model.links) {
    const Joint& j = link.joint;
    if (j.type == JointType::Floating) {
      q.segment<3>(j.q_index) << u(rng), u(rng), u(rng);
      set_quaternion_at(q, j.q_index + 3, Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized());
    } else {
      for (int c = 0; c < joint_nq(j.type); ++c) q[j.q_index + c] = u(rng);  // 1-DoF and planar
    }
  }
  return q;
}

inline Eigen::VectorXd random_vector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

inline Inertia box_inertia(double m, const Eigen::Vector3d& size, const Eigen::Vector3d& com = Eigen::Vector3d::Zero()) {
  Inertia I;
  I.mass = m;
  I.com = com;
  const double x = size.x() * size.x(), y = size.y() * size.y(), z = size.z() * size.z();
  I.I_C = (m / 12.0 * Eigen::Vector3d(y + z, x + z, x + y)).asDiagonal();
  return I;
}

/// A free asymmetric body (distinct principal moments, COM off the link origin).
inline MultibodyModel free_body_model() {
  MultibodyModel model;
  Link body;
  body.name = "body";
  body.joint.type = JointType::Floating;
  body.inertia = box_inertia(2.0, {0.3, 0.5, 0.9}, {0.05, -0.02, 0.1});
  model.add_tree("body", {body});
  return model;
}

/// A floating base with a revolute arm, a prismatic slider on it, a fixed tip and a continuous wheel:
/// every joint type in one tree, with axes and origins off the principal directions.
inline MultibodyModel mixed_tree_model() {
  MultibodyModel model;
  std::vector<Link> links(5);
  links[0].name = "base";
  links[0].joint.type = JointType::Floating;
  links[0].inertia = box_inertia(3.0, {0.4, 0.3, 0.2}, {0.01, 0.02, -0.03});
  links[1].name = "arm";
  links[1].parent = 0;
  links[1].joint.type = JointType::Revolute;
  links[1].joint.axis = Eigen::Vector3d(0.2, 1.0, 0.3).normalized();
  links[1].joint.X_PJ.translation() << 0.2, 0.1, 0.05;
  links[1].joint.X_PJ.linear() = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX()).toRotationMatrix();
  links[1].inertia = box_inertia(1.0, {0.5, 0.05, 0.05}, {0.25, 0, 0});
  links[2].name = "slider";
  links[2].parent = 1;
  links[2].joint.type = JointType::Prismatic;
  links[2].joint.axis = Eigen::Vector3d(1, 0.1, 0).normalized();
  links[2].joint.X_PJ.translation() << 0.4, 0, 0;
  links[2].inertia = box_inertia(0.5, {0.1, 0.1, 0.1}, {0.0, 0.01, 0.0});
  links[3].name = "tip";
  links[3].parent = 2;
  links[3].joint.type = JointType::Fixed;
  links[3].joint.X_PJ.translation() << 0.05, 0.05, 0;
  links[3].inertia = box_inertia(0.2, {0.05, 0.05, 0.05});
  links[4].name = "wheel";
  links[4].parent = 0;
  links[4].joint.type = JointType::Continuous;
  links[4].joint.axis = Eigen::Vector3d::UnitZ();
  links[4].joint.X_PJ.translation() << -0.2, 0, -0.1;
  links[4].inertia = box_inertia(0.4, {0.2, 0.2, 0.04});
  model.add_tree("robot", links);
  return model;
}

/// A floating base carrying a planar joint (normal and origin off the principal directions), whose
/// link carries a revolute arm: the planar joint both moving and moved, its slides and its turn.
inline MultibodyModel planar_tree_model() {
  MultibodyModel model;
  std::vector<Link> links(3);
  links[0].name = "base";
  links[0].joint.type = JointType::Floating;
  links[0].inertia = box_inertia(2.0, {0.3, 0.3, 0.1}, {0.02, -0.01, 0.0});
  links[1].name = "puck";
  links[1].parent = 0;
  links[1].joint.type = JointType::Planar;
  links[1].joint.axis = Eigen::Vector3d(0.3, -0.2, 1.0).normalized();
  links[1].joint.X_PJ.translation() << 0.1, -0.05, 0.2;
  links[1].joint.X_PJ.linear() = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix();
  links[1].inertia = box_inertia(0.7, {0.2, 0.1, 0.05}, {0.03, 0.01, -0.02});
  links[2].name = "arm";
  links[2].parent = 1;
  links[2].joint.type = JointType::Revolute;
  links[2].joint.axis = Eigen::Vector3d(1.0, 0.2, 0.1).normalized();
  links[2].joint.X_PJ.translation() << 0.15, 0.0, 0.05;
  links[2].inertia = box_inertia(0.4, {0.3, 0.04, 0.04}, {0.15, 0, 0});
  model.add_tree("planar", links);
  return model;
}

/// A floating base with a revolute arm that carries a floating pod (the relative 6-DoF joint of
/// model.hpp, its frame and the pod's centre of mass off the axes), and a revolute flap on the pod:
/// the floating joint under a link both moving and moved.
inline MultibodyModel floating_child_model() {
  MultibodyModel model;
  std::vector<Link> links(4);
  links[0].name = "base";
  links[0].joint.type = JointType::Floating;
  links[0].inertia = box_inertia(3.0, {0.4, 0.3, 0.2}, {0.01, 0.02, -0.03});
  links[1].name = "arm";
  links[1].parent = 0;
  links[1].joint.type = JointType::Revolute;
  links[1].joint.axis = Eigen::Vector3d(0.2, 1.0, 0.3).normalized();
  links[1].joint.X_PJ.translation() << 0.2, 0.1, 0.05;
  links[1].inertia = box_inertia(1.0, {0.5, 0.05, 0.05}, {0.25, 0, 0});
  links[2].name = "pod";
  links[2].parent = 1;
  links[2].joint.type = JointType::Floating;
  links[2].joint.X_PJ.translation() << 0.45, 0.05, -0.02;
  links[2].joint.X_PJ.linear() = Eigen::AngleAxisd(0.5, Eigen::Vector3d(0, 1, 1).normalized()).toRotationMatrix();
  links[2].inertia = box_inertia(0.6, {0.2, 0.1, 0.15}, {0.02, -0.03, 0.04});
  links[3].name = "flap";
  links[3].parent = 2;
  links[3].joint.type = JointType::Revolute;
  links[3].joint.axis = Eigen::Vector3d(0.3, 1.0, 0.2).normalized();
  links[3].joint.X_PJ.translation() << 0.1, 0.0, 0.08;
  links[3].inertia = box_inertia(0.3, {0.2, 0.02, 0.1}, {0.1, 0, 0});
  model.add_tree("floating_child", links);
  return model;
}

/// A pendulum: a rod of mass m and length l on a revolute joint about y at height h.
/// The four trees above by index (0 free body, 1 mixed tree, 2 planar tree, 3 floating child): the parameter of
/// the tests that run on each of them.
inline MultibodyModel tree_model(int k) {
  switch (k) {
    case 0: return free_body_model();
    case 1: return mixed_tree_model();
    case 2: return planar_tree_model();
    default: return floating_child_model();
  }
}

/// Several trees in one model: the four above by index, in the order given (a tree's links keep their
/// tree-relative parents), for tests of what is kept tree by tree.
inline MultibodyModel trees_model(std::initializer_list<int> kinds) {
  MultibodyModel model;
  for (int k : kinds) {
    const MultibodyModel one = tree_model(k);
    model.add_tree(one.trees[0].name + std::to_string(model.trees.size()), one.links);
  }
  return model;
}

inline MultibodyModel pendulum_model(double m, double l, double h) {
  MultibodyModel model;
  Link rod;
  rod.name = "rod";
  rod.joint.type = JointType::Revolute;
  rod.joint.axis = Eigen::Vector3d::UnitY();
  rod.joint.X_PJ.translation() << 0, 0, h;
  rod.inertia = box_inertia(m, {0.01, 0.01, l}, {0, 0, -l / 2});
  model.add_tree("pendulum", {rod});
  return model;
}

}  // namespace impetus::test
