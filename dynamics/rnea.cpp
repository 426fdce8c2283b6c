#include "dynamics/rnea.hpp"

#include "dynamics/kinematics.hpp"

namespace impetus {

const Eigen::VectorXd& rnea(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& vdot) {
  // Gravity as a fictitious upward acceleration of the base: a₀ = [0; −g] (RBDA §5.3).
  Vec6 a0;
  a0 << Vec3::Zero(), -model.gravity;
  const int n = static_cast<int>(model.links.size());
  for (int i = 0; i < n; ++i) {
    const Link& link = model.links[i];
    const int k = link.joint.v_index, nv = joint_nv(link.joint.type);
    data.a[i] = (link.parent < 0 ? a0 : data.a[link.parent]) + data.S.middleCols(k, nv) * vdot.segment(k, nv) +
                joint_bias_acceleration(model, data, i, v);
    data.f[i] = data.I[i] * data.a[i] + cross_force(data.V[i], data.I[i] * data.V[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    const Link& link = model.links[i];
    const int k = link.joint.v_index, nv = joint_nv(link.joint.type);
    data.tau.segment(k, nv).noalias() = data.S.middleCols(k, nv).transpose() * data.f[i];
    if (link.parent >= 0) data.f[link.parent] += data.f[i];
  }
  return data.tau;
}

const Eigen::VectorXd& bias_forces(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& v) {
  return rnea(model, data, v, data.zero_vdot);
}

}  // namespace impetus
