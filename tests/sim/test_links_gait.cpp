// The trot of seed 004 on LINKS (control/gait/): the legs' inverse kinematics against the simulator's own
// forward kinematics of models/links, the joint rates against differences, and the planned trot: feet
// where the plan puts them, stance feet still on the ground, swing feet 1.5 cm high at the apex.
#include <gtest/gtest.h>

#include <cmath>

#include "control/gait/trot_trajectory.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus {
namespace {

const std::string kSceneFile = std::string(IMPETUS_SOURCE_DIR) + "/scenes/links_gait_test.xml";   // never written
const std::string kLinks = std::string(IMPETUS_SOURCE_DIR) + "/models/links/links.urdf";
const char* kLegNames[kLegs] = {"LF", "RF", "LH", "RH"};
// init.xml's standing pose (notes 004 §5.3), per leg (A, H, K).
const Eigen::Vector3d kStanding[kLegs] = {{0.1, 0.8, 1.2}, {-0.1, -0.8, -1.2}, {-0.1, -0.8, -1.2}, {0.1, 0.8, 1.2}};
constexpr double kFootRadius = 0.01;
// Foot positions from IK reproduce their targets by forward kinematics to 1e-9 m: the closed-form IK is
// exact but for round-off (~1e-16 of the leg's ~0.3 m, amplified by acos near a straight knee), while a wrong
// branch or link length misses by millimetres.
constexpr double kFootPosition = 1e-9;

struct Links {
  World world = load_scene_string(R"(<scene name="links"><physics dt="0.001"/>
    <model name="links" urdf=")" + kLinks + R"(" base="floating" check_triangle_inequality="false"/></scene>)",
                                  kSceneFile);
  const MultibodyModel& model = world.model.multibody;

  int link(const std::string& leg, const char* part) const { return model.find_link("links/" + leg + "_" + part); }
  /// The foot sphere's centre in the knee link's frame, from the model's collision geometry.
  Eigen::Vector3d foot_point(int f) const {
    const int foot = link(kLegNames[f], "FOOT");
    for (const Geometry& g : world.model.geometries)
      if (g.link == foot) return g.X_LG.translation();
    ADD_FAILURE() << "no foot geometry";
    return Eigen::Vector3d::Zero();
  }
  TrotLeg leg(int f) const { return {link(kLegNames[f], "LEG_1"), foot_point(f), kStanding[f]}; }
  LegKinematics kinematics(int f) const { return LegKinematics(model, link(kLegNames[f], "LEG_1"), foot_point(f), kStanding[f][2]); }
  /// The foot point in the base frame by the simulator's forward kinematics (base at the origin, level).
  Eigen::Vector3d simulated_foot(int f, const Eigen::Vector3d& q_leg) const {
    Eigen::VectorXd q = model.neutral_configuration();
    const char* parts[] = {"LEG_1", "LEG_2", "FOOT"};
    for (int j = 0; j < 3; ++j) q[model.links[link(kLegNames[f], parts[j])].joint.q_index] = q_leg[j];
    MultibodyData data(model);
    forward_kinematics(model, data, q, Eigen::VectorXd::Zero(model.nv));
    return data.X_WL[link(kLegNames[f], "FOOT")] * foot_point(f);
  }
};

TEST(LinksLegKinematics, ForwardKinematicsIsTheSimulators) {
  const Links links;
  for (int f = 0; f < kLegs; ++f) {
    const LegKinematics leg = links.kinematics(f);
    for (const Eigen::Vector3d& q : {kStanding[f], Eigen::Vector3d(0.3, -0.2, 0.7), Eigen::Vector3d(-0.25, 1.1, -1.9)})
      EXPECT_LT((leg.foot_position(q) - links.simulated_foot(f, q)).norm(), kFootPosition) << kLegNames[f];
  }
}

TEST(LinksLegKinematics, InverseKinematicsReachesItsTargetsUnderTheSimulatorsForwardKinematics) {
  // Targets on a 5×5×5 grid of ±2 cm around each standing foot (the trot's stance feet move ±2.25 cm
  // along the body at most, 20 cm/s over half a 0.225 s stance): the
  // angles IK returns put the foot there by the simulator's kinematics, on the standing pose's knee branch.
  const Links links;
  for (int f = 0; f < kLegs; ++f) {
    const LegKinematics leg = links.kinematics(f);
    const Eigen::Vector3d standing = leg.foot_position(kStanding[f]);
    EXPECT_LT((leg.inverse(standing) - kStanding[f]).norm(), 1e-12) << "the standing pose comes back";
    for (int i = -2; i <= 2; ++i)
      for (int j = -2; j <= 2; ++j)
        for (int k = -2; k <= 2; ++k) {
          const Eigen::Vector3d target = standing + 0.01 * Eigen::Vector3d(i, j, k);
          const Eigen::Vector3d q = leg.inverse(target);
          EXPECT_LT((links.simulated_foot(f, q) - target).norm(), kFootPosition) << kLegNames[f] << " " << i << j << k;
          EXPECT_GT(q[2] * kStanding[f][2], 0) << "knee branch";
        }
  }
}

TEST(LinksLegKinematics, OutOfReachIsRefused) {
  const Links links;
  const Eigen::Vector3d far(0.1, 0.07, -0.3);
  EXPECT_THROW(links.kinematics(0).inverse(far), std::domain_error);
  // The gait's form says so without throwing and leaves q as it was (the trot holds the measured pose).
  Eigen::Vector3d q = kStanding[0];
  EXPECT_EQ(links.kinematics(0).try_inverse(far, q), LegReach::OutOfReach);
  EXPECT_EQ(q, kStanding[0]);
  LegJointRates r;
  EXPECT_EQ(links.kinematics(0).try_inverse_rates(far, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 0, r),
            LegReach::OutOfReach);
}

TEST(LinksLegKinematics, JointRatesAreTheDerivativesOfTheAngles) {
  // A foot on a smooth path around its standing place: q̇, q̈ from inverse_rates against Richardson
  // extrapolations of central differences of the IK's q and q̇, R = (4D(δ/2) − D(δ))/3 with δ = 1e-4 s:
  // truncation O(δ⁴·|f⁽⁵⁾|) ≈ 1e-16·10⁸ = 1e-8 for these ~2 Hz motions, rounding ≈ 1e-16·|f|/δ ≈ 1e-10:
  // 1e-6 rad/s(²) leaves room for both on the LINKS legs' ill-conditioned poses.
  const Links links;
  constexpr double kDelta = 1e-4, kRate = 1e-6;
  for (int f = 0; f < kLegs; ++f) {
    const LegKinematics leg = links.kinematics(f);
    const Eigen::Vector3d p0 = leg.foot_position(kStanding[f]);
    const double w = 2 * M_PI * 2, a = 0.02;
    const auto rates = [&](double t) {
      const Eigen::Vector3d p = p0 + a * Eigen::Vector3d(std::sin(w * t), std::cos(w * t) - 1, std::sin(2 * w * t));
      const Eigen::Vector3d pd = a * w * Eigen::Vector3d(std::cos(w * t), -std::sin(w * t), 2 * std::cos(2 * w * t));
      const Eigen::Vector3d pdd = -a * w * w * Eigen::Vector3d(std::sin(w * t), std::cos(w * t), 4 * std::sin(2 * w * t));
      return leg.inverse_rates(p, pd, pdd);
    };
    const auto derivative = [&](double t, auto member) {
      const auto D = [&](double d) { return Eigen::Vector3d((rates(t + d).*member - rates(t - d).*member) / (2 * d)); };
      return Eigen::Vector3d((4 * D(kDelta / 2) - D(kDelta)) / 3);
    };
    for (double t : {0.03, 0.11, 0.2, 0.37}) {
      const LegJointRates r = rates(t);
      EXPECT_LT((r.qd - derivative(t, &LegJointRates::q)).norm(), kRate) << kLegNames[f] << " t " << t;
      EXPECT_LT((r.qdd - derivative(t, &LegJointRates::qd)).norm(), kRate) << kLegNames[f] << " t " << t;
    }
  }
}

TrotPlanner links_trot(const Links& links) {
  TrotPlan plan;
  plan.base_height = 0.16;
  plan.foot_height = kFootRadius;
  return TrotPlanner(links.model, {links.leg(0), links.leg(1), links.leg(2), links.leg(3)}, plan);
}

TEST(LinksTrot, JointTargetsPutTheFeetWhereThePlanSays) {
  // Over the first 10 s (the first waypoint segment, a turn in place, the second segment), every 7 ms: the
  // planned joint angles put each foot, by the simulator's kinematics, at its planned base-frame point.
  const Links links;
  const TrotPlanner planner = links_trot(links);
  Eigen::VectorXd q, qd, qdd;
  for (double t = 0; t < 10; t += 0.007) {
    planner.joints(t, q, qd, qdd);
    for (int f = 0; f < kLegs; ++f)
      ASSERT_LT((links.simulated_foot(f, q.segment<3>(3 * f)) - planner.foot_base(f, t).p).norm(), kFootPosition)
          << kLegNames[f] << " t " << t;
  }
}

TEST(LinksTrot, StanceFeetStayPutAndSwingFeetPeakAtTheStepHeight) {
  const Links links;
  const TrotPlanner planner = links_trot(links);
  const GaitSchedule& schedule = planner.schedule();
  constexpr double kPlace = 1e-12;   // m: the same stance point, computed again
  for (int f = 0; f < kLegs; ++f)
    for (int k = 0; k < 30; ++k) {
      // Stance after swing k: the foot stands at its touchdown point with zero velocity, on the ground.
      const double t_td = schedule.touchdown(f, k), t_next = schedule.liftoff(f, k + 1);
      const FootMotion down = planner.foot_world(f, t_td), later = planner.foot_world(f, 0.5 * (t_td + t_next));
      EXPECT_LT((down.p - later.p).norm(), kPlace);
      EXPECT_EQ(later.pd.norm(), 0);
      EXPECT_NEAR(down.p.z(), kFootRadius, kPlace);
      // Swing k: the apex is at mid-swing, 1.5 cm above the stance height.
      double apex = -INFINITY;
      const double t_lo = schedule.liftoff(f, k);
      for (int i = 0; i <= 100; ++i) apex = std::max(apex, planner.foot_world(f, t_lo + i / 100.0 * schedule.swing_duration()).p.z());
      EXPECT_NEAR(apex - kFootRadius, 0.015, kPlace) << kLegNames[f] << " swing " << k;
    }
}

TEST(LinksTrot, StanceFeetFollowTheBaseVelocityInTheBaseFrame) {
  // A foot fixed in the world moves in the base frame with −Rᵀ(v_B + ω × (p_W − p_B)).
  const Links links;
  const TrotPlanner planner = links_trot(links);
  constexpr double kVelocity = 1e-12;   // m/s: the same products in another order
  int checked = 0;
  for (double t = 0.0031; t < 12; t += 0.0107)
    for (int f = 0; f < kLegs; ++f) {
      if (!planner.schedule().phase(f, t).stance) continue;
      const BasePose base = planner.path().at(t);
      const FootMotion w = planner.foot_world(f, t), b = planner.foot_base(f, t);
      const Eigen::Vector3d r = w.p - Eigen::Vector3d(base.x.x(), base.x.y(), 0.16);
      const Eigen::Vector3d v_W = -(Eigen::Vector3d(base.xd.x(), base.xd.y(), 0) + Eigen::Vector3d(0, 0, base.xd.z()).cross(r));
      const Eigen::Matrix3d R = Eigen::AngleAxisd(base.x.z(), Eigen::Vector3d::UnitZ()).toRotationMatrix();
      EXPECT_LT((b.pd - R.transpose() * v_W).norm(), kVelocity) << kLegNames[f] << " t " << t;
      ++checked;
    }
  EXPECT_GT(checked, 1000);
}

TEST(LinksTrot, TrajectoryIsThePlanAtEveryControlTick) {
  const Links links;
  const TrotPlanner planner = links_trot(links);
  constexpr double kDt = 0.001, kDuration = 2.0;
  const DesiredTrajectory trajectory = trot_trajectory(planner, kDt, kDuration);
  ASSERT_EQ(trajectory.size(), 12);
  Eigen::VectorXd q, qd, qdd, eq, eqd, eqdd;
  for (int i = 1; i < 2000; i += 13) {
    trajectory.evaluate(i * kDt, q, qd, qdd);
    planner.joints(i * kDt, eq, eqd, eqdd);
    // At a sample the interpolation weights are exactly 1 and 0 (t and the row's time are the same i·dt).
    EXPECT_EQ((q - eq).norm(), 0);
    EXPECT_EQ((qd - eqd).norm(), 0);
    EXPECT_EQ((qdd - eqdd).norm(), 0);
  }
}

}  // namespace
}  // namespace impetus
