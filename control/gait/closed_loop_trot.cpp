// The closed-loop trot (closed_loop_trot.hpp).
#include "control/gait/closed_loop_trot.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace impetus {
namespace {

enum Seen { kNone = 0, kStance = 1, kSwing = 2 };
constexpr int kRollPasses = 3;   // fixed-point passes of F = a + roll(q) (header)

Eigen::Matrix2d rot2(double psi) {
  Eigen::Matrix2d R;
  R << std::cos(psi), -std::sin(psi), std::sin(psi), std::cos(psi);
  return R;
}

int child_of(const MultibodyModel& model, int parent) {
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i)
    if (model.links[i].parent == parent) return i;
  return -1;
}

}  // namespace

ClosedLoopTrot::ClosedLoopTrot(const MultibodyModel& model, const std::array<TrotLeg, kLegs>& legs,
                               ClosedLoopTrotParameters parameters, const std::vector<int>& driven_links)
    : p_(std::move(parameters)), schedule_(p_.plan.gait), path_(p_.plan.path) {
  if (!(p_.max_offset >= 0) || !(p_.max_turn >= 0))
    throw std::invalid_argument("trot: max_offset and max_turn must be ≥ 0");
  if (!(p_.anchor_aim >= 0 && p_.anchor_aim <= 1)) throw std::invalid_argument("trot: anchor_aim must be in [0, 1]");
  std::vector<int> leg_links;
  for (int f = 0; f < kLegs; ++f) {
    kinematics_.emplace_back(model, legs[f].abduction_link, legs[f].p_KF, legs[f].standing[2]);
    nominal_B_[f] = kinematics_[f].foot_position(legs[f].standing);
    nominal_B_[f].z() = p_.plan.foot_height - p_.plan.base_height;
    radius_[f] = legs[f].foot_radius;
    nominal_P_[f] = nominal_B_[f] - kinematics_[f].roll(legs[f].standing, radius_[f]);
    const int hip = child_of(model, legs[f].abduction_link);
    foot_link_[f] = child_of(model, hip);
    leg_links.insert(leg_links.end(), {legs[f].abduction_link, hip, foot_link_[f]});
  }
  for (int link : driven_links) {
    const auto it = std::find(leg_links.begin(), leg_links.end(), link);
    if (it == leg_links.end())
      throw std::invalid_argument("trot: the controller drives joint of link '" + model.links.at(link).name +
                                  "', which is not a joint of the trot's legs");
    slot_.push_back(static_cast<int>(it - leg_links.begin()));
  }
  for (int s = 0; s < 3 * kLegs; ++s)
    if (std::find(slot_.begin(), slot_.end(), s) == slot_.end())
      throw std::invalid_argument("trot: the controller does not drive the joint of leg link '" +
                                  model.links[leg_links[s]].name + "'");
}

bool ClosedLoopTrot::excludes_contact(double t, int link) const {
  for (int f = 0; f < kLegs; ++f)
    if (foot_link_[f] == link) return !schedule_.phase(f, t).stance;
  return false;
}

BasePose ClosedLoopTrot::reference(double t, const Eigen::Isometry3d& X_WB) const {
  const Eigen::Matrix3d& R = X_WB.linear();
  const double psi = std::atan2(R(1, 0), R(0, 0));
  const Eigen::Vector2d p = X_WB.translation().head<2>();
  BasePose ref = path_.at(t);
  Eigen::Vector2d offset = ref.x.head<2>() - p;
  if (offset.norm() > p_.max_offset) offset *= p_.max_offset / offset.norm();
  const double turn = std::clamp(std::remainder(ref.x.z() - psi, 2 * std::numbers::pi), -p_.max_turn, p_.max_turn);
  ref.x << p + offset, psi + turn;
  return ref;
}

Eigen::Vector3d ClosedLoopTrot::touchdown_point(int f, int swing, const BasePose& plan, const BasePose& ref) const {
  // The plan's motion from now to the middle of the next stance (in the plan's base frame), applied to B_ref.
  const double t_mid = schedule_.touchdown(f, swing) + 0.5 * schedule_.stance_duration();
  const BasePose later = path_.at(t_mid);
  const Eigen::Vector2d ahead = rot2(plan.x.z()).transpose() * (later.x.head<2>() - plan.x.head<2>());
  const double psi = ref.x.z() + (later.x.z() - plan.x.z());
  const Eigen::Vector2d xy = ref.x.head<2>() + rot2(ref.x.z()) * ahead + rot2(psi) * nominal_P_[f].head<2>();
  return {xy.x(), xy.y(), p_.plan.foot_height};
}

void ClosedLoopTrot::evaluate(double t, const Measurement& measured, Eigen::VectorXd& memory, Eigen::VectorXd& q_des,
                              Eigen::VectorXd& qd_des, Eigen::VectorXd& qdd_des) const {
  const int na = size();
  q_des.resize(na);
  qd_des.resize(na);
  qdd_des.resize(na);
  if (memory.size() != kMemoryPerFoot * kLegs) memory = initial_memory();
  const BasePose plan = path_.at(t);
  const BasePose ref = reference(t, measured.X_WB);
  std::array<Eigen::Vector3d, kLegs> q_leg;
  for (int a = 0; a < na; ++a) q_leg[slot_[a] / 3][slot_[a] % 3] = measured.q[a];
  for (int f = 0; f < kLegs; ++f) {
    const FootPhase phase = schedule_.phase(f, t);
    const Seen seen = phase.stance ? kStance : kSwing;
    auto m = memory.segment<kMemoryPerFoot>(kMemoryPerFoot * f);
    const LegKinematics& leg = kinematics_[f];
    const double radius = radius_[f];
    if (m[0] != static_cast<double>(seen) || m[1] != phase.swing) {   // a new stance or swing: anchor it where the foot is
      Eigen::Vector3d p_W = measured.X_WB * (leg.foot_position(q_leg[f]) - leg.roll(q_leg[f], radius));
      if (phase.stance) p_W.z() = std::min(p_W.z(), p_.plan.foot_height);
      if (phase.stance && phase.swing >= 0) {   // after a swing: toward where it was aimed (header)
        const Eigen::Vector3d aim = touchdown_point(f, phase.swing, plan, ref);
        p_W.head<2>() += p_.anchor_aim * (aim.head<2>() - p_W.head<2>());
      }
      m << static_cast<double>(seen), phase.swing, p_W;
    }
    const Eigen::Vector3d anchor = m.tail<3>();
    FootMotion w{anchor, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    if (!phase.stance)
      w = swing_spline(anchor, touchdown_point(f, phase.swing, plan, ref), p_.plan.gait.step_height, phase.progress,
                       schedule_.swing_duration());
    const FootMotion b = foot_in_base(w, ref, p_.plan.base_height);
    LegJointRates r{q_leg[f], Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    try {
      Eigen::Vector3d q = q_leg[f];
      for (int pass = 0; pass < (radius > 0 ? kRollPasses : 0); ++pass) q = leg.inverse(b.p + leg.roll(q, radius));
      r = leg.inverse_rates(b.p + leg.roll(q, radius), b.pd, b.pdd, radius);
    } catch (const std::domain_error&) {
      r = {q_leg[f], Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    }
    for (int a = 0; a < na; ++a)
      if (slot_[a] / 3 == f) {
        q_des[a] = r.q[slot_[a] % 3];
        qd_des[a] = r.qd[slot_[a] % 3];
        qdd_des[a] = r.qdd[slot_[a] % 3];
      }
  }
}

}  // namespace impetus
