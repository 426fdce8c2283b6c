// Kinematics of a LINKS-type leg (leg_kinematics.hpp).
#include "control/gait/leg_kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace impetus {
namespace {

/// Joint frames must not rotate and offsets must lie in their plane to this relative precision: far
/// above the rounding of a URDF's printed numbers, far below any real tilt.
constexpr double kExact = 1e-12;
/// |cos γ| may exceed 1 by rounding of a target at full stretch; beyond this the target is out of reach.
constexpr double kReachSlack = 1e-12;
/// |det J| below this fraction of |l₁||l₂|(|l₁| + |l₂|) (its size with the knee bent by 90° and the foot a
/// leg's length from the abduction axis) is singular: the knee within ~1e-6 rad of straight, or the foot
/// within ~1e-6 of a leg's length of the abduction axis.
constexpr double kSingular = 1e-6;

Eigen::Matrix3d rot_x(double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()).toRotationMatrix(); }
Eigen::Matrix3d rot_y(double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitY()).toRotationMatrix(); }

int only_child(const MultibodyModel& model, int parent) {
  int child = -1;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i)
    if (model.links[i].parent == parent) {
      if (child >= 0) throw std::invalid_argument("leg link '" + model.links[parent].name + "' has more than one child");
      child = i;
    }
  if (child < 0) throw std::invalid_argument("leg link '" + model.links[parent].name + "' has no child");
  return child;
}

/// The sign s of a revolute joint's axis ±e (e a unit axis); throws otherwise.
double axis_sign(const Link& link, const Eigen::Vector3d& e) {
  const Joint& j = link.joint;
  if (j.type != JointType::Revolute && j.type != JointType::Continuous)
    throw std::invalid_argument("leg joint of '" + link.name + "' is not revolute");
  if (!j.X_PJ.linear().isIdentity(kExact))
    throw std::invalid_argument("leg joint of '" + link.name + "' has a rotated frame");
  const double s = j.axis.dot(e);
  if (std::abs(std::abs(s) - 1) > kExact)
    throw std::invalid_argument("leg joint of '" + link.name + "' does not turn about ±" + (e.x() ? "x" : "y"));
  return s > 0 ? 1.0 : -1.0;
}

}  // namespace

LegKinematics::LegKinematics(const MultibodyModel& model, int abduction_link, const Eigen::Vector3d& p_KF,
                             double reference_knee) {
  const Link& A = model.links.at(abduction_link);
  const int hip = only_child(model, abduction_link), knee = only_child(model, hip);
  const Link &H = model.links[hip], &K = model.links[knee];
  s_A_ = axis_sign(A, Eigen::Vector3d::UnitX());
  s_H_ = axis_sign(H, Eigen::Vector3d::UnitY());
  s_K_ = axis_sign(K, Eigen::Vector3d::UnitY());
  p_BA_ = A.joint.X_PJ.translation();
  d_ = H.joint.X_PJ.translation();
  l1_ = K.joint.X_PJ.translation();
  l2_ = p_KF;
  const double scale = l1_.norm() + l2_.norm();
  if (std::abs(d_.y()) > kExact * scale) throw std::invalid_argument("hip of '" + H.name + "' is off the leg's plane");
  if (std::abs(l1_.y()) + std::abs(l1_.z()) > kExact * scale || std::abs(l2_.y()) + std::abs(l2_.z()) > kExact * scale ||
      l1_.x() * l2_.x() <= 0)
    throw std::invalid_argument("segments of '" + K.name + "' do not run along one direction of x");
  knee_branch_ = s_K_ * reference_knee >= 0 ? 1.0 : -1.0;
}

Eigen::Vector3d LegKinematics::foot_position(const Eigen::Vector3d& q) const {
  const double alpha = s_A_ * q[0], beta = s_H_ * q[1], gamma = s_K_ * q[2];
  return p_BA_ + rot_x(alpha) * (d_ + rot_y(beta) * (l1_ + rot_y(gamma) * l2_));
}

Eigen::Vector3d LegKinematics::roll(const Eigen::Vector3d& q, double r) const {
  return {r * (s_H_ * q[1] + s_K_ * q[2]), -r * s_A_ * q[0], 0};
}

Eigen::Matrix3d LegKinematics::jacobian(const Eigen::Vector3d& q) const {
  const Eigen::Matrix3d R_A = rot_x(s_A_ * q[0]), R_H = R_A * rot_y(s_H_ * q[1]);
  const Eigen::Vector3d o_H = p_BA_ + R_A * d_, o_K = o_H + R_H * l1_, p = foot_position(q);
  Eigen::Matrix3d J;
  J.col(0) = Eigen::Vector3d(s_A_, 0, 0).cross(p - p_BA_);
  J.col(1) = (R_A * Eigen::Vector3d(0, s_H_, 0)).cross(p - o_H);
  J.col(2) = (R_A * Eigen::Vector3d(0, s_K_, 0)).cross(p - o_K);
  return J;
}

Eigen::Vector3d LegKinematics::inverse(const Eigen::Vector3d& p_BF) const {
  Eigen::Vector3d q;
  if (try_inverse(p_BF, q) != LegReach::Reached) throw std::domain_error("foot target out of the leg's reach");
  return q;
}

LegJointRates LegKinematics::inverse_rates(const Eigen::Vector3d& p, const Eigen::Vector3d& pd,
                                           const Eigen::Vector3d& pdd, double rolling_radius) const {
  LegJointRates out;
  switch (try_inverse_rates(p, pd, pdd, rolling_radius, out)) {
    case LegReach::Reached: return out;
    case LegReach::OutOfReach: throw std::domain_error("foot target out of the leg's reach");
    case LegReach::Singular: break;
  }
  throw std::domain_error("leg at a singular configuration");
}

LegReach LegKinematics::try_inverse(const Eigen::Vector3d& p_BF, Eigen::Vector3d& q) const {
  const Eigen::Vector3d r = p_BF - p_BA_;
  const double rho = std::hypot(r.y(), r.z());
  const double alpha = std::atan2(r.y(), -r.z());
  const Eigen::Vector3d u = Eigen::Vector3d(r.x(), 0, -rho) - d_;   // w − d, in the abducted frame
  const double sigma = l1_.x() > 0 ? 1.0 : -1.0;
  const double x = sigma * u.x(), y = -sigma * u.z(), a = std::abs(l1_.x()), b = std::abs(l2_.x());
  double c = (x * x + y * y - a * a - b * b) / (2 * a * b);
  if (std::abs(c) > 1 + kReachSlack) return LegReach::OutOfReach;
  c = std::clamp(c, -1.0, 1.0);
  // x = a cos β + b cos(β + γ), y = a sin β + b sin(β + γ): R_y(θ)(σa, 0, 0) = σa (cos θ, 0, −sin θ).
  const double gamma = knee_branch_ * std::acos(c);
  const double beta = std::atan2(y, x) - std::atan2(b * std::sin(gamma), a + b * std::cos(gamma));
  q = {alpha / s_A_, beta / s_H_, gamma / s_K_};
  return LegReach::Reached;
}

LegReach LegKinematics::try_inverse_rates(const Eigen::Vector3d& p, const Eigen::Vector3d& pd,
                                          const Eigen::Vector3d& pdd, double rolling_radius, LegJointRates& out) const {
  if (const LegReach reach = try_inverse(p, out.q); reach != LegReach::Reached) return reach;
  const Eigen::Matrix3d R_A = rot_x(s_A_ * out.q[0]), R_H = R_A * rot_y(s_H_ * out.q[1]);
  const Eigen::Vector3d o_A = p_BA_, o_H = o_A + R_A * d_, o_K = o_H + R_H * l1_;
  const Eigen::Vector3d z_A(s_A_, 0, 0), z_H = R_A * Eigen::Vector3d(0, s_H_, 0), z_K = R_A * Eigen::Vector3d(0, s_K_, 0);
  const Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
  const Eigen::Matrix3d J = jacobian(out.q);
  Eigen::Matrix3d J_C = J;   // the contact point's Jacobian (header)
  J_C.col(0) += rolling_radius * up.cross(z_A);
  J_C.col(1) += rolling_radius * up.cross(z_H);
  J_C.col(2) += rolling_radius * up.cross(z_K);
  const double a = l1_.norm(), b = l2_.norm();
  if (std::abs(J.determinant()) < kSingular * a * b * (a + b) || std::abs(J_C.determinant()) < kSingular * a * b * (a + b))
    return LegReach::Singular;
  const Eigen::PartialPivLU<Eigen::Matrix3d> lu(J_C);
  out.qd = lu.solve(pd);
  // J̇q̇: the foot's acceleration at q̈ = 0 (header).
  const Eigen::Vector3d w_A = z_A * out.qd[0], w_H = w_A + z_H * out.qd[1];
  const Eigen::Vector3d zd_H = w_A.cross(z_H), zd_K = w_H.cross(z_K);
  const Eigen::Vector3d od_H = w_A.cross(o_H - o_A), od_K = od_H + w_H.cross(o_K - o_H);
  const Eigen::Vector3d pdot = J * out.qd;
  const Eigen::Vector3d Jdot_qd = out.qd[0] * z_A.cross(pdot) +
                                  out.qd[1] * (zd_H.cross(p - o_H) + z_H.cross(pdot - od_H)) +
                                  out.qd[2] * (zd_K.cross(p - o_K) + z_K.cross(pdot - od_K));
  const Eigen::Vector3d Jwdot_qd = out.qd[1] * zd_H + out.qd[2] * zd_K;   // ż_A = 0
  out.qdd = lu.solve(pdd - Jdot_qd - rolling_radius * up.cross(Jwdot_qd));
  return LegReach::Reached;
}

}  // namespace impetus
