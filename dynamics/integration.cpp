#include "dynamics/integration.hpp"

#include <algorithm>

#include "dynamics/mimic.hpp"

namespace impetus {

Eigen::Quaterniond quaternion_at(const Eigen::VectorXd& q, int i) {
  return Eigen::Quaterniond(q[i], q[i + 1], q[i + 2], q[i + 3]);  // Eigen's constructor takes (w, x, y, z)
}

void set_quaternion_at(Eigen::VectorXd& q, int i, const Eigen::Quaterniond& quat) {
  q[i] = quat.w();
  q[i + 1] = quat.x();
  q[i + 2] = quat.y();
  q[i + 3] = quat.z();
}

void integrate(const MultibodyModel& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
               Eigen::VectorXd& q_out) {
  if (&q_out != &q) q_out = q;
  for (const Link& link : model.links) {
    const Joint& joint = link.joint;
    const int iq = joint.q_index, iv = joint.v_index;
    switch (joint.type) {
      case JointType::Fixed: break;
      case JointType::Revolute:
      case JointType::Continuous:
      case JointType::Prismatic: q_out[iq] += dt * v[iv]; break;
      case JointType::Planar: q_out.segment<3>(iq) += dt * v.segment<3>(iv); break;
      case JointType::Floating: {
        const Vec3 rotation = dt * v.segment<3>(iv + 3);
        const double angle = rotation.norm();
        const Eigen::Quaterniond dq =
            angle > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, rotation / angle)) : Eigen::Quaterniond::Identity();
        if (link.parent >= 0) {  // under a link: ω_JL in L's axes turns R_JL from the right (model.hpp)
          q_out.segment<3>(iq) += dt * v.segment<3>(iv);
          set_quaternion_at(q_out, iq + 3, (quaternion_at(q_out, iq + 3).normalized() * dq).normalized());
          break;
        }
        const Eigen::Quaterniond R = quaternion_at(q_out, iq + 3).normalized(), R_plus = (dq * R).normalized();
        const Vec3& p_LC = link.inertia.com;
        const Vec3 c_plus = q_out.segment<3>(iq) + R * p_LC + dt * v.segment<3>(iv);
        q_out.segment<3>(iq) = c_plus - R_plus * p_LC;
        set_quaternion_at(q_out, iq + 3, R_plus);
        break;
      }
    }
  }
}

void project_onto_joint_limits(const MultibodyModel& model, Eigen::VectorXd& q) {
  bool moved_a_leader = false;
  for (const Link& link : model.links) {
    const Joint& j = link.joint;
    if (joint_nv(j.type) != 1) continue;
    const Tree& tree = model.trees[link.tree];
    double lower = j.lower, upper = j.upper;
    if (tree.has_mimic()) {  // a leader carries its followers' limits (dynamics/mimic.hpp); followers follow below
      if (j.mimic >= 0) continue;
      const int c = tree.u_column[j.v_index - tree.v_offset];
      lower = tree.u_lower[c];
      upper = tree.u_upper[c];
    } else if (!j.has_limits) {
      continue;
    }
    if (!(lower <= upper)) continue;  // limits that admit no position (refused by the loader) or none
    const double clamped = std::clamp(q[j.q_index], lower, upper);
    if (clamped == q[j.q_index]) continue;
    q[j.q_index] = clamped;
    moved_a_leader = moved_a_leader || tree.has_mimic();
  }
  if (!moved_a_leader) return;
  for (int l = 0; l < static_cast<int>(model.links.size()); ++l) {
    const Joint& j = model.links[l].joint;
    if (j.mimic < 0) continue;
    const MimicRoot root = mimic_root(model, l);
    q[j.q_index] = root.gain * q[model.links[root.link].joint.q_index] + root.offset;
  }
}

}  // namespace impetus
