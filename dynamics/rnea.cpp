#include "dynamics/rnea.hpp"

#include <algorithm>

#include "dynamics/crba.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/same_bits.hpp"

namespace impetus {

namespace {

void rnea_of_links(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v,
                   const Eigen::VectorXd& vdot, int first, int end) {
  // Gravity as a fictitious upward acceleration of the base: a₀ = [0; −g] (RBDA §5.3).
  Vec6 a0;
  a0 << Vec3::Zero(), -model.gravity;
  for (int i = first; i < end; ++i) {
    const Link& link = model.links[i];
    const int k = link.joint.v_index, nv = joint_nv(link.joint.type);
    data.a[i] = (link.parent < 0 ? a0 : data.a[link.parent]) + data.S.middleCols(k, nv) * vdot.segment(k, nv) +
                joint_bias_acceleration(model, data, i, v);
    data.f[i] = data.I[i] * data.a[i] + cross_force(data.V[i], data.I[i] * data.V[i]);
  }
  for (int i = end - 1; i >= first; --i) {
    const Link& link = model.links[i];
    const int k = link.joint.v_index, nv = joint_nv(link.joint.type);
    data.tau.segment(k, nv).noalias() = data.S.middleCols(k, nv).transpose() * data.f[i];
    if (link.parent >= 0) data.f[link.parent] += data.f[i];
  }
}

}  // namespace

const Eigen::VectorXd& rnea(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& vdot) {
  rnea_of_links(model, data, v, vdot, 0, static_cast<int>(model.links.size()));
  std::fill(data.h_kept.begin(), data.h_kept.end(), 0);   // every tree's tau, a, f now of this v̇, not of v̇ = 0
  return data.tau;
}

void bias_forces_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v, int tree) {
  const Tree& t = model.trees[tree];
  rnea_of_links(model, data, v, data.zero_vdot, t.first_link, t.first_link + t.num_links);
  data.h_kept[tree] = 0;   // made of this call's inputs, not of h_inputs[tree]
}

void crba_and_bias_forces_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v, int tree) {
  const Tree& t = model.trees[tree];
  // With v̇ = 0 the recursion reads the tree's v, its links' Vᵢ and Iᵢ, its S columns and the model alone. After
  // crba_of_tree, M_inputs holds this call's I and S; h_kept says h was made of them (crba_of_tree drops it when it
  // replaces them): with v and V the last call's too, the recursion would write the kept tau, a, f again.
  crba_of_tree(model, data, tree);
  const std::size_t nv = t.nv, nV = 6 * static_cast<std::size_t>(t.num_links);
  const double* v_t = v.data() + t.v_offset;
  static_assert(sizeof(Vec6) == 6 * sizeof(double), "data.V read as one array of doubles");
  const double* V = data.V.data()->data() + 6 * t.first_link;
  double* kept = data.h_inputs.data() + t.v_offset + 6 * t.first_link;
  if (data.h_kept[tree] && same_bits(kept, v_t, nv) && same_bits(kept + nv, V, nV)) return;
  std::copy_n(v_t, nv, kept);
  std::copy_n(V, nV, kept + nv);
  rnea_of_links(model, data, v, data.zero_vdot, t.first_link, t.first_link + t.num_links);
  data.h_kept[tree] = 1;
}

const Eigen::VectorXd& bias_forces(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v) {
  return rnea(model, data, v, data.zero_vdot);
}

}  // namespace impetus
