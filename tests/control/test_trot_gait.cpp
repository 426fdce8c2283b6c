// The trot's contact schedule, swing spline and base path (control/gait/): seed 004's gait (cycle 0.3 s,
// duty factor 0.75, step height 1.5 cm, touchdown phases {0.25, 0.75, 0.75, 0.25}) and waypoints.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "control/gait/base_path.hpp"
#include "control/gait/trot_gait.hpp"

namespace impetus {
namespace {

// Times and phases are sums and products of a few doubles of order 1–30 s: 1e-12 is a thousand times their
// rounding and far below any schedule error that matters (a control tick is 1e-3 s).
constexpr double kTime = 1e-12;

TEST(GaitSchedule, StanceLastsTheDutyFactorAndTouchesDownAtItsPhase) {
  const GaitSchedule schedule(GaitParameters{});
  const double T = 0.3;
  const double phases[] = {0.25, 0.75, 0.75, 0.25};
  for (int f = 0; f < kLegs; ++f)
    for (int k = 0; k < 100; ++k) {
      EXPECT_NEAR(schedule.touchdown(f, k) - schedule.liftoff(f, k), 0.25 * T, kTime);
      EXPECT_NEAR(schedule.liftoff(f, k + 1) - schedule.touchdown(f, k), 0.75 * T, kTime);
      const double phase = schedule.touchdown(f, k) / T;
      EXPECT_NEAR(phase - std::floor(phase + kTime), phases[f], kTime) << "foot " << f << " step " << k;
    }
}

TEST(GaitSchedule, SampledStanceFractionIsExactlyThreeQuarters) {
  // Sampled at the middles of 1200 equal slices of a cycle (never on a boundary, which fall on multiples
  // of T/4), exactly 900 are stance, for every foot and every cycle; diagonal pairs swing together.
  const GaitSchedule schedule(GaitParameters{});
  constexpr int kSlices = 1200;
  for (int cycle = 0; cycle < 10; ++cycle) {
    int stance[kLegs] = {0, 0, 0, 0};
    for (int i = 0; i < kSlices; ++i) {
      const double t = 0.3 * (cycle + (i + 0.5) / kSlices);
      bool down[kLegs];
      for (int f = 0; f < kLegs; ++f) stance[f] += (down[f] = schedule.phase(f, t).stance);
      EXPECT_EQ(down[0], down[3]) << "LF and RH swing together";
      EXPECT_EQ(down[1], down[2]) << "RF and LH swing together";
      EXPECT_TRUE(down[0] || down[1]) << "two feet always down";
    }
    for (int f = 0; f < kLegs; ++f) EXPECT_EQ(stance[f], kSlices * 3 / 4) << "foot " << f << " cycle " << cycle;
  }
}

TEST(GaitSchedule, SwingProgressRunsFromLiftoffToTouchdown) {
  const GaitSchedule schedule(GaitParameters{});
  for (int f = 0; f < kLegs; ++f) {
    const double t_lo = schedule.liftoff(f, 3), t_sw = schedule.swing_duration();
    for (double s : {0.0, 0.2, 0.5, 0.9}) {
      const FootPhase p = schedule.phase(f, t_lo + s * t_sw);
      EXPECT_FALSE(p.stance);
      EXPECT_EQ(p.swing, 3);
      EXPECT_NEAR(p.progress, s, kTime / t_sw);
    }
    const FootPhase after = schedule.phase(f, t_lo + t_sw);
    EXPECT_TRUE(after.stance);
    EXPECT_EQ(after.swing, 3);
  }
}

TEST(SwingSpline, PeaksAtTheStepHeightAndStartsAndEndsAtRest) {
  const Eigen::Vector3d lo(0.1, -0.02, 0.01), td(0.14, 0.0, 0.01);
  const double h = 0.015, T = 0.075;
  // The apex: 64 h (½)³(½)³ = h, at mid-swing, and nowhere higher.
  constexpr double kRound = 1e-15;   // a few roundings of numbers of order 0.01
  EXPECT_NEAR(swing_spline(lo, td, h, 0.5, T).p.z() - lo.z(), h, kRound);
  for (int i = 0; i <= 1000; ++i) EXPECT_LE(swing_spline(lo, td, h, i / 1000.0, T).p.z() - lo.z(), h + kRound);
  for (double s : {0.0, 1.0}) {
    const FootMotion m = swing_spline(lo, td, h, s, T);
    EXPECT_TRUE(m.p.isApprox(s == 0 ? lo : td, kRound));
    EXPECT_LT(m.pd.norm(), kRound);
    EXPECT_LT(m.pdd.norm(), kRound);
  }
  // Velocity and acceleration are the derivatives in time of position and velocity (central differences:
  // error ≤ δ²/6·max|d³p/dt³| ≈ (1e-6 s)²/6 · (a few 10⁴ m/s³) ≈ 1e-8 m/s or m/s²; 1e-6 leaves room
  // for the differences' own rounding, 1e-16/1e-6).
  constexpr double kDelta = 1e-6, kDifference = 1e-6;
  for (double s : {0.1, 0.3, 0.5, 0.77}) {
    const double ds = kDelta / T;
    const FootMotion a = swing_spline(lo, td, h, s - ds, T), b = swing_spline(lo, td, h, s + ds, T);
    const FootMotion m = swing_spline(lo, td, h, s, T);
    EXPECT_LT((m.pd - (b.p - a.p) / (2 * kDelta)).norm(), kDifference) << s;
    EXPECT_LT((m.pdd - (b.pd - a.pd) / (2 * kDelta)).norm(), kDifference) << s;
  }
}

TEST(BasePath, VisitsThePapersWaypointsTurningInPlaceAndWithinTheSpeed) {
  const BasePath path(BasePathParameters{});
  const auto& motions = path.motions();
  ASSERT_GE(motions.size(), 7u);
  // (0,0) → (0.25,0) straight ahead; then turn to face (0,0.25) (135°), walk; turn to face (0,−0.25)
  // (from 135° to −90°: +135° the shorter way), walk; turn to (−0.25,0) (−135°), walk.
  EXPECT_FALSE(motions[0].turn);
  const double quarter = std::numbers::pi / 4;
  const double expected_turns[] = {3 * quarter, 3 * quarter, -3 * quarter};
  const Eigen::Vector2d ends[] = {{0.25, 0}, {0, 0.25}, {0, -0.25}, {-0.25, 0}};
  constexpr double kPlace = 1e-12;   // m or rad, rounding of sums of a few numbers of order 1
  int turn = 0, segment = 0;
  for (const auto& m : motions) {
    if (segment >= 4) break;
    const BasePose end = path.at(m.t0 + m.duration);
    EXPECT_LT(end.xd.norm(), kPlace) << "each motion ends at rest";
    if (m.turn) {
      EXPECT_NEAR(m.distance, expected_turns[turn++], kPlace);
      EXPECT_TRUE(end.x.head<2>().isApprox(m.start.head<2>(), kPlace)) << "turning in place";
    } else {
      EXPECT_LT((end.x.head<2>() - ends[segment++]).norm(), kPlace);
      EXPECT_NEAR(std::remainder(std::atan2(m.direction.y(), m.direction.x()) - end.x.z(), 2 * std::numbers::pi), 0,
                  kPlace) << "walking the way it faces";
    }
  }
  EXPECT_EQ(turn, 3);
  // Speed and yaw rate within their limits, everywhere; 20 cm/s reached on the segments.
  double top = 0;
  for (double t = 0; t < 30; t += 0.001) {
    const BasePose p = path.at(t);
    top = std::max(top, p.xd.head<2>().norm());
    EXPECT_LE(p.xd.head<2>().norm(), 0.2 + kPlace);
    EXPECT_LE(std::abs(p.xd.z()), 0.8 + kPlace);
    EXPECT_TRUE(p.xd.head<2>().norm() < kPlace || std::abs(p.xd.z()) < kPlace) << "turns only in place";
  }
  EXPECT_NEAR(top, 0.2, kPlace);
}

TEST(BasePath, PositionVelocityAndAccelerationAgree) {
  const BasePath path(BasePathParameters{});
  // Central differences over 1e-6 s of a piecewise quadratic: exact but for rounding (1e-16/1e-6 per
  // difference, times the motion's size) away from the profile's corners; sample away from them.
  constexpr double kDelta = 1e-6, kDifference = 1e-7;
  for (double t = 0.0123; t < 20; t += 0.0371) {
    const BasePose a = path.at(t - kDelta), b = path.at(t + kDelta), m = path.at(t);
    if ((b.xdd - a.xdd).norm() > 0) continue;   // a corner of the profile within ±δ
    EXPECT_LT((m.xd - (b.x - a.x) / (2 * kDelta)).norm(), kDifference) << t;
    EXPECT_LT((m.xdd - (b.xd - a.xd) / (2 * kDelta)).norm(), kDifference) << t;
  }
}

}  // namespace
}  // namespace impetus
