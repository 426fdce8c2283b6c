#include "dynamics/rnea.hpp"

#include "dynamics/kinematics.hpp"

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
  return data.tau;
}

void bias_forces_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v, int tree) {
  const Tree& t = model.trees[tree];
  rnea_of_links(model, data, v, data.zero_vdot, t.first_link, t.first_link + t.num_links);
}

const Eigen::VectorXd& bias_forces(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v) {
  return rnea(model, data, v, data.zero_vdot);
}

}  // namespace impetus
