// The trot as a joint trajectory (trot_trajectory.hpp).
#include "control/gait/trot_trajectory.hpp"

#include <cmath>
#include <stdexcept>

namespace impetus {
namespace {

Eigen::Matrix3d rot_z(double psi) { return Eigen::AngleAxisd(psi, Eigen::Vector3d::UnitZ()).toRotationMatrix(); }

}  // namespace

TrotPlanner::TrotPlanner(const MultibodyModel& model, std::array<TrotLeg, kLegs> legs, TrotPlan plan)
    : plan_(std::move(plan)), schedule_(plan_.gait), path_(plan_.path) {
  for (int f = 0; f < kLegs; ++f) {
    kinematics_.emplace_back(model, legs[f].abduction_link, legs[f].p_KF, legs[f].standing[2]);
    nominal_B_[f] = kinematics_[f].foot_position(legs[f].standing);
    nominal_B_[f].z() = plan_.foot_height - plan_.base_height;
  }
}

Eigen::Vector3d TrotPlanner::to_world(const Eigen::Vector3d& x, const Eigen::Vector3d& p_B) const {
  return Eigen::Vector3d(x.x(), x.y(), plan_.base_height) + rot_z(x.z()) * p_B;
}

Eigen::Vector3d TrotPlanner::stance_point(int f, int swing) const {
  if (swing < 0) return to_world(path_.at(0).x, nominal_B_[f]);
  const double t_mid = schedule_.touchdown(f, swing) + 0.5 * schedule_.stance_duration();
  return to_world(path_.at(t_mid).x, nominal_B_[f]);
}

FootMotion TrotPlanner::foot_world(int f, double t) const {
  const FootPhase phase = schedule_.phase(f, t);
  if (phase.stance) return {stance_point(f, phase.swing), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  return swing_spline(stance_point(f, phase.swing - 1), stance_point(f, phase.swing), plan_.gait.step_height,
                      phase.progress, schedule_.swing_duration());
}

FootMotion TrotPlanner::foot_base(int f, double t) const {
  return foot_in_base(foot_world(f, t), path_.at(t), plan_.base_height);
}

FootMotion foot_in_base(const FootMotion& w, const BasePose& base, double base_height) {
  const Eigen::Matrix3d Rt = rot_z(base.x.z()).transpose();
  Eigen::Matrix3d E = Eigen::Matrix3d::Zero();
  E(0, 1) = -1;
  E(1, 0) = 1;
  const double psid = base.xd.z(), psidd = base.xdd.z();
  const Eigen::Vector3d delta = w.p - Eigen::Vector3d(base.x.x(), base.x.y(), base_height);
  const Eigen::Vector3d deltad = w.pd - Eigen::Vector3d(base.xd.x(), base.xd.y(), 0);
  const Eigen::Vector3d deltadd = w.pdd - Eigen::Vector3d(base.xdd.x(), base.xdd.y(), 0);
  FootMotion b;
  b.p = Rt * delta;
  b.pd = Rt * deltad - psid * E * Rt * delta;
  b.pdd = Rt * deltadd - 2 * psid * E * Rt * deltad + (psid * psid * E * E - psidd * E) * Rt * delta;
  return b;
}

void TrotPlanner::joints(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd) const {
  q.resize(3 * kLegs);
  qd.resize(3 * kLegs);
  qdd.resize(3 * kLegs);
  for (int f = 0; f < kLegs; ++f) {
    const FootMotion m = foot_base(f, t);
    const LegJointRates r = kinematics_[f].inverse_rates(m.p, m.pd, m.pdd);
    q.segment<3>(3 * f) = r.q;
    qd.segment<3>(3 * f) = r.qd;
    qdd.segment<3>(3 * f) = r.qdd;
  }
}

DesiredTrajectory trot_trajectory(const TrotPlanner& planner, double dt, double duration) {
  if (!(dt > 0) || !(duration > 0)) throw std::invalid_argument("trot trajectory: dt and duration must be > 0");
  const int n = static_cast<int>(std::lround(duration / dt)) + 1;
  std::vector<double> t(n);
  Eigen::MatrixXd Q(n, 3 * kLegs), Qd(n, 3 * kLegs), Qdd(n, 3 * kLegs);
  Eigen::VectorXd q, qd, qdd;
  for (int i = 0; i < n; ++i) {
    t[i] = i * dt;
    planner.joints(t[i], q, qd, qdd);
    Q.row(i) = q.transpose();
    Qd.row(i) = qd.transpose();
    Qdd.row(i) = qdd.transpose();
  }
  return DesiredTrajectory::from_samples(std::move(t), std::move(Q), std::move(Qd), std::move(Qdd));
}

}  // namespace impetus
