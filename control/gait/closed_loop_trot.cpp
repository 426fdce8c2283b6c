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
// Touchdowns with contacts measured (header): a foot that touches in the second half of its swing, when the
// spline brings it down, is down early; one still in the air at its planned touchdown keeps going down at
// kDescent, by at most kMaxDescent (the height map's deepest dip below its mid-height is 1.5 cm; beyond
// that the leg holds). kDescent: landing at 5 cm/s brings a 0.2 kg leg ~0.01 N·s of impact, a fifth of
// one step's weight impulse, and closes the ~1 mm a late foot lacks on flat ground within ~20 ms.
constexpr double kLandingProgress = 0.5;
constexpr double kDescent = 0.05;      // m/s
constexpr double kMaxDescent = 0.03;   // m

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
    if (foot_link_[f] == link) {
      const FootPhase phase = schedule_.phase(f, t);
      return !phase.stance && phase.progress < kLandingProgress;
    }
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
    auto m = memory.segment<kMemoryPerFoot>(kMemoryPerFoot * f);
    const LegKinematics& leg = kinematics_[f];
    const double radius = radius_[f];
    const Eigen::Vector3d here = measured.X_WB * (leg.foot_position(q_leg[f]) - leg.roll(q_leg[f], radius));
    const auto anchored = [&](Seen seen) { return m[0] == static_cast<double>(seen) && m[1] == phase.swing; };
    const auto anchor = [&](Seen seen, Eigen::Vector3d p_W) {
      if (seen == kStance && phase.swing >= 0) {   // after a swing: toward where it was aimed (header)
        const Eigen::Vector3d aim = touchdown_point(f, phase.swing, plan, ref);
        p_W.head<2>() += p_.anchor_aim * (aim.head<2>() - p_W.head<2>());
      }
      m << static_cast<double>(seen), phase.swing, p_W;
    };
    if (!measured.touching) {   // a new stance or swing: anchor it where the foot is
      const Seen seen = phase.stance ? kStance : kSwing;
      if (!anchored(seen)) {
        Eigen::Vector3d p_W = here;
        if (phase.stance) p_W.z() = std::min(p_W.z(), p_.plan.foot_height);
        anchor(seen, p_W);
      }
    } else if (!anchored(kStance)) {
      const bool touching = std::find(measured.touching->begin(), measured.touching->end(), foot_link_[f]) !=
                            measured.touching->end();
      if (touching && (phase.stance || phase.progress >= kLandingProgress))
        anchor(kStance, here);   // down: held where it landed
      else if (!phase.stance && !anchored(kSwing))
        anchor(kSwing, here);    // lift-off
    }
    FootMotion w{m.tail<3>(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    if (!phase.stance && !anchored(kStance)) {
      w = swing_spline(m.tail<3>(), touchdown_point(f, phase.swing, plan, ref), p_.plan.gait.step_height,
                       phase.progress, schedule_.swing_duration());
    } else if (!anchored(kStance)) {   // late: on down from the swing's end until the foot touches
      const double depth = std::min(kDescent * (t - schedule_.touchdown(f, phase.swing)), kMaxDescent);
      w.p = touchdown_point(f, phase.swing, plan, ref);
      w.p.z() -= depth;
      w.pd.z() = depth < kMaxDescent ? -kDescent : 0.0;
    }
    const FootMotion b = foot_in_base(w, ref, p_.plan.base_height);
    LegJointRates r{q_leg[f], Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    // A target out of reach (or a singular leg) is expected along the gait: the leg holds its measured pose.
    Eigen::Vector3d q = q_leg[f];
    LegReach reach = LegReach::Reached;
    for (int pass = 0; pass < (radius > 0 ? kRollPasses : 0) && reach == LegReach::Reached; ++pass)
      reach = leg.try_inverse(b.p + leg.roll(q, radius), q);
    if (reach == LegReach::Reached) reach = leg.try_inverse_rates(b.p + leg.roll(q, radius), b.pd, b.pdd, radius, r);
    if (reach != LegReach::Reached) r = {q_leg[f], Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    for (int a = 0; a < na; ++a)
      if (slot_[a] / 3 == f) {
        q_des[a] = r.q[slot_[a] % 3];
        qd_des[a] = r.qd[slot_[a] % 3];
        qdd_des[a] = r.qdd[slot_[a] % 3];
      }
  }
}

}  // namespace impetus
