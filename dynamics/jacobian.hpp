// Point Jacobians: the linear velocity of a point fixed on a link, v_p = J(q)·v.
#pragma once

#include "dynamics/data.hpp"

namespace impetus {

/// Calls f(k, ∂v_p/∂v_k) for every velocity coordinate k (global index) that moves `link`, where p_W is
/// a point fixed on the link (world coordinates). Columns not visited are zero. Needs kinematics.
template <class F>
void for_each_point_jacobian_column(const MultibodyModel& model, const MultibodyData& data, int link,
                                    const Vec3& p_W, F&& f) {
  for (int i = link; i >= 0; i = model.links[i].parent) {
    const Joint& joint = model.links[i].joint;
    const int nv = joint_nv(joint.type);
    for (int c = 0; c < nv; ++c) {
      const int k = joint.v_index + c;
      // Read in place: a Vec6 copy was stored and reloaded misaligned, a store-forwarding stall that was 44 % of
      // the assembly's Jacobian callback (perf annotate, 1000 resting spheres).
      const auto s = data.S.col(k);
      f(k, Vec3(s.tail<3>() + s.head<3>().cross(p_W)));
    }
  }
}

/// Dense 3×nv point Jacobian (for tests and small systems).
Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const MultibodyModel& model, const MultibodyData& data,
                                                       int link, const Vec3& p_W);

}  // namespace impetus
