#include "control/actuation.hpp"

#include <cmath>

#include "dynamics/jacobian.hpp"

namespace impetus {

Eigen::Vector3d Signal3::at(double t) const {
  Eigen::Vector3d s = constant;
  if (frequency != 0 || amplitude.any())
    for (int i = 0; i < 3; ++i) s[i] += amplitude[i] * std::sin(2 * M_PI * frequency * t + phase[i]);
  return s;
}

void add_actuation(const MultibodyModel& model, const MultibodyData& data, const std::vector<ExternalLoad>& loads,
                   const std::vector<JointActuator>& actuators, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   double t, Eigen::VectorXd& tau) {
  for (const ExternalLoad& load : loads) {
    if (t < load.start || t >= load.end) continue;
    const Vec3 f = load.force.at(t), n = load.torque.at(t);
    // τ = J_Cᵀ f + J_ωᵀ n: the point Jacobian at the centre of mass, and ω's rows of S.
    for_each_point_jacobian_column(model, data, load.link, data.p_WC[load.link],
                                   [&](int k, const Vec3& col) { tau[k] += col.dot(f) + data.S.col(k).head<3>().dot(n); });
  }
  for (const JointActuator& a : actuators) {
    const Joint& j = model.links[a.link].joint;
    double u = a.effort + a.kp * (a.target - q[j.q_index]) + a.kd * (a.target_velocity - v[j.v_index]);
    if (j.effort > 0) u = std::clamp(u, -j.effort, j.effort);
    tau[j.v_index] += u;
  }
}

}  // namespace impetus
