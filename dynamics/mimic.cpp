#include "dynamics/mimic.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace impetus {

MimicRoot mimic_root(const MultibodyModel& model, int link) {
  MimicRoot root{link, 1, 0};
  // A chain longer than the model's links has repeated one: a cycle.
  for (std::size_t steps = 0; model.links[root.link].joint.mimic >= 0; ++steps) {
    if (steps > model.links.size())
      throw std::invalid_argument("joint '" + model.links[link].joint.name + "': its chain of mimic leaders is a cycle");
    const Joint& j = model.links[root.link].joint;
    // q = g·q_j + o and q_j = m·q_l + c  ⇒  q = (g·m)·q_l + (g·c + o).
    root.offset += root.gain * j.mimic_offset;
    root.gain *= j.mimic_multiplier;
    root.link = j.mimic;
  }
  return root;
}

void build_mimic_map(const MultibodyModel& model, Tree& tree) {
  tree.u_column.assign(tree.nv, -1);
  tree.u_gain.assign(tree.nv, 1.0);
  tree.u_dof.clear();
  for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
    const Joint& j = model.links[i].joint;
    if (j.mimic >= 0) {
      const Joint& leader = model.links[j.mimic].joint;
      if (joint_nv(j.type) != 1 || joint_nv(leader.type) != 1)
        throw std::invalid_argument(std::string(joint_type_name(j.type)) + " joint '" + j.name + "' mimics " +
                                    joint_type_name(leader.type) + " joint '" + leader.name +
                                    "': a mimic couples two 1-DoF joints");
      continue;
    }
    for (int k = 0; k < joint_nv(j.type); ++k) {
      tree.u_column[j.v_index - tree.v_offset + k] = static_cast<int>(tree.u_dof.size());
      tree.u_dof.push_back(j.v_index - tree.v_offset + k);
    }
  }
  tree.nu = static_cast<int>(tree.u_dof.size());
  for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
    const Joint& j = model.links[i].joint;
    if (j.mimic < 0) continue;
    const MimicRoot root = mimic_root(model, i);
    tree.u_column[j.v_index - tree.v_offset] = tree.u_column[model.links[root.link].joint.v_index - tree.v_offset];
    tree.u_gain[j.v_index - tree.v_offset] = root.gain;
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  tree.u_lower.assign(tree.nu, -kInf);
  tree.u_upper.assign(tree.nu, kInf);
  for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
    const Joint& j = model.links[i].joint;
    if (!j.has_limits || joint_nv(j.type) != 1) continue;
    const MimicRoot root = mimic_root(model, i);
    if (root.gain == 0) continue;  // a constant coordinate: no bound on u
    const int k = j.v_index - tree.v_offset, c = tree.u_column[k];
    double lower = (j.lower - root.offset) / root.gain, upper = (j.upper - root.offset) / root.gain;
    if (root.gain < 0) std::swap(lower, upper);
    if (root.link == i) lower = j.lower, upper = j.upper;  // the leader's own: exactly as written
    tree.u_lower[c] = std::max(tree.u_lower[c], lower);
    tree.u_upper[c] = std::min(tree.u_upper[c], upper);
  }
}

void enforce_mimic_positions(const MultibodyModel& model, Eigen::VectorXd& q) {
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    if (model.links[i].joint.mimic < 0) continue;
    const MimicRoot root = mimic_root(model, i);
    q[model.links[i].joint.q_index] = root.gain * q[model.links[root.link].joint.q_index] + root.offset;
  }
}

void enforce_mimic_velocities(const MultibodyModel& model, Eigen::VectorXd& v) {
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    if (model.links[i].joint.mimic < 0) continue;
    const MimicRoot root = mimic_root(model, i);
    v[model.links[i].joint.v_index] = root.gain * v[model.links[root.link].joint.v_index];
  }
}

void gather_independent(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> u) {
  for (int c = 0; c < tree.nu; ++c) u[c] = v[tree.u_dof[c]];
}

void expand_independent(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> v) {
  for (int k = 0; k < tree.nv; ++k) v[k] = tree.u_gain[k] * u[tree.u_column[k]];
}

void reduce_vector(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) {
  out.setZero();
  for (int k = 0; k < tree.nv; ++k) out[tree.u_column[k]] += tree.u_gain[k] * x[k];
}

void reduce_matrix(const Tree& tree, const Eigen::MatrixXd& A, Eigen::MatrixXd& out) {
  out.setZero(tree.nu, tree.nu);
  for (int j = 0; j < tree.nv; ++j)
    for (int i = 0; i < tree.nv; ++i)
      out(tree.u_column[i], tree.u_column[j]) += tree.u_gain[i] * A(i, j) * tree.u_gain[j];
}

}  // namespace impetus
