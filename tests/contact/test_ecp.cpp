// The ECP model (contact/ecp/ecp_model.hpp) on hand-built problems: analytic answers of the notes
// (shared/notes/seed-003-notes.md §4.2) in discrete time, and the model's invariants.
#include <gtest/gtest.h>

#include "contact/ecp/ecp_model.hpp"
#include "contact/factory.hpp"
#include "problem_builder.hpp"
#include "test_ecp_fixtures.hpp"

namespace impetus::test::ecp {
namespace {

// The paper's constants (seed 003 §V).
constexpr double kMu = 0.22, kDt = 0.01, kG = kPaperGravity, kEr = 0.1;

/// Velocities (m/s, rad/s) and impulses relative to m·g·dt: the Newton tolerance 1e-10 on scaled rows is an
/// error of 1e-10·g·dt ≈ 1e-11 m/s; 1e-9 leaves a factor 100 for the accumulation over a few steps.
constexpr double kVelocityTolerance = 1e-9;
constexpr double kRelativeImpulseTolerance = 1e-9;
/// ECP positions (m): fixed by moment balance to the same relative accuracy, times the body size (≤ 1 m).
constexpr double kPointTolerance = 1e-9;
/// Gap of the hull (m): (E6) holds to 1e-10·U·dt ≈ 1e-13 m; −1e-9 leaves the round-off of forming q⁺ and the
/// vertices from it (as kPenetrationTol of tests/sim/test_ecp_scenes.cpp).
constexpr double kPenetrationBound = 1e-9;
/// Vertices this close to the plane (m) belong to the true contact patch: above the gap accuracy
/// (tolerance·g·dt² ≈ 1e-13 m) and far below any vertex that is really lifted.
constexpr double kPatchHeight = 1e-9;
/// Fraction of steps whose plain warm start may fail and be restarted (EcpModel's smoothed runs): only
/// steps in which the set of active hull faces changes (a face landing, a roll over an edge) need it, one
/// or two per run here; a tenth would mean the warm start had stopped working.
constexpr double kRareRestarts = 0.1;
/// Face multipliers (dimensionless, O(1) when active) above this count as active.
constexpr double kActiveMultiplier = 1e-6;

EcpModel paper_model() { return EcpModel(EcpOptions{}); }

/// Prints the solver statistics of a run (visible with --gtest_also_run_disabled_tests or in a failure).
std::string statistics(const GroundWorld& world) {
  return "restarts " + std::to_string(world.restarts()) + ", iterations max " + std::to_string(world.max_iterations()) +
         " mean " + std::to_string(world.mean_iterations());
}

/// ECP of body b of the last result, relative to its centre of mass at t + dt.
Eigen::Vector3d ecp_offset(GroundWorld& world, int b) {
  return solutions(world.result())[b].a1_W - world.bodies()[b].com();
}

TEST(EcpModel, RegisteredWithTheFactory) {
  EXPECT_TRUE(is_contact_model("ecp"));
  EXPECT_EQ(make_contact_model("ecp", {})->name(), "ecp");
}

TEST(EcpModel, OptionsAreParsedAndCheckedByName) {
  const EcpOptions o = EcpOptions::parse({{"e_r", "0.05"}, {"e_t", "2"}, {"max_iterations", "7"}});
  EXPECT_EQ(o.surface.e_r, 0.05);
  EXPECT_EQ(o.surface.e_t, 2.0);
  EXPECT_EQ(o.surface.e_o, 1.0);
  EXPECT_EQ(o.max_iterations, 7);
  EXPECT_THROW(EcpOptions::parse({{"e_q", "1"}}), OptionError);
  EXPECT_THROW(EcpOptions::parse({{"e_r", "-0.1"}}), OptionError);
  EXPECT_THROW(EcpOptions::parse({{"tolerance", "abc"}}), OptionError);
  EXPECT_THROW(EcpOptions::parse({{"max_iterations", "2.5"}}), OptionError);
}

// A box at rest on its face: the normal impulse carries the weight, nothing moves, the ECP is below the
// centre of mass on the bottom face, and the warm start of the next step is already the solution.
TEST(EcpModel, RestingBoxCarriesItsWeightBelowItsCentre) {
  GroundWorld world(kDt, kG);
  world.add(resting_box(2.0, {0.1, 0.15, 0.05}, kMu));
  EcpModel model = paper_model();
  for (int k = 0; k < 3; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const BodyPlaneSolution& s = solutions(r)[0];
    EXPECT_NEAR(s.p_n, 2.0 * kG * kDt, kRelativeImpulseTolerance * 2.0 * kG * kDt);
    EXPECT_LT(r.v_plus.norm(), kVelocityTolerance);
    EXPECT_LT(ecp_offset(world, 0).head<2>().norm(), kPointTolerance);
    EXPECT_NEAR(s.a1_W.z(), 0.0, kPointTolerance);
    EXPECT_NEAR(s.gap, 0.0, kPointTolerance);
    EXPECT_EQ(s.active_face, 4);   // −z
    EXPECT_LT(s.sigma, kVelocityTolerance);
    if (k > 0) {
      EXPECT_LE(r.stats.iterations, 1);   // warm: the previous step's solution solves this one
    }
  }
}

// Notes §4.2 tests 1, 2: implicit Euler takes μ g dt off the speed each step and stops exactly; the ECP sits
// μ·c ahead of the centre of mass (c its height) while sliding, σ = |v⁺|, ‖(p_t, p_o)‖ = μ p_n.
TEST(EcpModel, SlidingBoxLosesMuGDtPerStepWithTheEcpMuCAhead) {
  const double m = 2.0, c = 0.05, v0 = 0.3;
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(m, {0.05, 0.05, c}, kMu));
  box.v = Eigen::Vector3d(v0, 0, 0);
  EcpModel model = paper_model();
  const double dv = kMu * kG * kDt;   // 0.02156 m/s
  const int sliding_steps = static_cast<int>(std::floor(v0 / dv));   // 13
  ASSERT_EQ(sliding_steps, 13);
  double x0 = box.com().x(), expected_x = x0;
  for (int k = 1; k <= sliding_steps + 2; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const BodyPlaneSolution& s = solutions(r)[0];
    const double expected_v = std::max(v0 - k * dv, 0.0);
    expected_x += kDt * expected_v;
    EXPECT_NEAR(box.v.x(), expected_v, kVelocityTolerance) << "step " << k;
    EXPECT_NEAR(box.com().x(), expected_x, kPointTolerance) << "step " << k;
    EXPECT_LT(box.omega.norm(), kVelocityTolerance);
    EXPECT_NEAR(s.p_n, m * kG * kDt, kRelativeImpulseTolerance * m * kG * kDt);
    if (k <= sliding_steps) {
      EXPECT_NEAR(ecp_offset(world, 0).x(), kMu * c, kPointTolerance) << "step " << k;
      EXPECT_NEAR(s.p_t, -kMu * s.p_n, kRelativeImpulseTolerance * s.p_n);
      EXPECT_NEAR(s.sigma, expected_v, kVelocityTolerance);
    } else {
      EXPECT_LE(std::abs(s.p_t), kMu * s.p_n);
      EXPECT_NEAR(s.sigma, 0.0, kVelocityTolerance);
    }
    EXPECT_NEAR(ecp_offset(world, 0).y(), 0.0, kPointTolerance);
  }
  // Distance of the notes: Σ dt·v_k = 0.0193804 m.
  EXPECT_NEAR(box.com().x() - x0, 0.0193804, 1e-7);
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
}

// Notes §4.2 test 3: a push F < μ m g at the centre of mass: no motion, p_t = −F dt, σ = 0, the limit
// surface strictly inside, and the ECP shifted by c·F/(m g) towards the push.
TEST(EcpModel, PushBelowTheFrictionLimitHoldsStillAndShiftsTheEcp) {
  const double m = 2.0, c = 0.05, F = 3.0;
  ASSERT_LT(F, kMu * m * kG);   // 4.312 N
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(m, {0.08, 0.06, c}, kMu));
  box.force = Eigen::Vector3d(F, 0, 0);
  EcpModel model = paper_model();
  const Eigen::Vector3d start = box.com();
  for (int k = 0; k < 5; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const BodyPlaneSolution& s = solutions(r)[0];
    EXPECT_LT(r.v_plus.norm(), kVelocityTolerance);
    EXPECT_NEAR(s.p_t, -F * kDt, kRelativeImpulseTolerance * m * kG * kDt);
    EXPECT_NEAR(s.sigma, 0.0, kVelocityTolerance);
    EXPECT_GT(kMu * s.p_n - std::hypot(s.p_t, s.p_o), 0.1 * kMu * s.p_n);   // strictly inside
    EXPECT_NEAR(ecp_offset(world, 0).x(), c * F / (m * kG), kPointTolerance);
  }
  EXPECT_LT((box.com() - start).norm(), 10 * kVelocityTolerance * kDt);
}

// Just above the limit the box accelerates at (F − μ m g)/m.
TEST(EcpModel, PushAboveTheFrictionLimitAcceleratesByTheExcess) {
  const double m = 2.0, F = 5.0;
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(m, {0.08, 0.06, 0.05}, kMu));
  box.force = Eigen::Vector3d(F, 0, 0);
  EcpModel model = paper_model();
  for (int k = 1; k <= 5; ++k) {
    ASSERT_EQ(world.step(model).stats.status, SolveStatus::Solved);
    EXPECT_NEAR(box.v.x(), k * kDt * (F - kMu * m * kG) / m, kVelocityTolerance);
  }
}

// Notes §4.2 test 4: pure spin of a cube: ω drops by μ m g e_r dt / I_zz per step and stops exactly; the
// ECP stays below the centre; |p_r| = μ p_n e_r, σ = e_r|ω⁺|.
TEST(EcpModel, PureSpinLosesMuMGErDtOverIzzPerStep) {
  const double m = 2.0, s = 0.2, w0 = 2.0;
  GroundWorld world(kDt, kG);
  Body& cube = world.add(resting_box(m, {s / 2, s / 2, s / 2}, kMu));
  cube.omega = Eigen::Vector3d(0, 0, w0);
  const double I_zz = m * s * s / 6;
  const double dw = kMu * m * kG * kEr * kDt / I_zz;   // 0.3234 rad/s
  EcpModel model = paper_model();
  for (int k = 1; k <= 8; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const BodyPlaneSolution& sol = solutions(r)[0];
    const double expected = std::max(w0 - k * dw, 0.0);
    EXPECT_NEAR(cube.omega.z(), expected, kVelocityTolerance) << "step " << k;
    EXPECT_LT(cube.v.norm(), kVelocityTolerance);
    EXPECT_LT(ecp_offset(world, 0).head<2>().norm(), kPointTolerance);
    if (expected > 0) {
      EXPECT_NEAR(sol.p_r, -kMu * sol.p_n * kEr, kRelativeImpulseTolerance * sol.p_n * kEr);
      EXPECT_NEAR(sol.sigma, kEr * expected, kVelocityTolerance);
    }
  }
  EXPECT_NEAR(cube.omega.z(), 0.0, kVelocityTolerance);
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
}

// Notes §4.2 test 5: sliding and spinning at once, the impulses are the maximum-dissipation answer of the
// ellipsoidal limit surface at the ECP: (p_t, p_o, p_r) = −μ p_n (e_t² w_t, e_o² w_o, e_r² w_r)/σ,
// σ = ‖(e_t w_t, e_o w_o, e_r w_r)‖, with w the end-of-step velocities at a1.
TEST(EcpModel, CoupledSlidingAndSpinFollowTheEllipsoidalLimitSurface) {
  EcpOptions options;
  options.surface = {1.3, 0.8, 0.07};
  EcpModel model(options);
  const impetus::ecp::LimitSurface e = options.surface;
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(3.0, {0.2, 0.1, 0.04}, 0.4));
  box.v = Eigen::Vector3d(0.3, 0.2, 0);
  box.omega = Eigen::Vector3d(0, 0, 1.5);
  int sliding = 0;
  for (int k = 0; k < 10; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const BodyPlaneSolution& s = solutions(r)[0];
    const Eigen::Vector3d rel = s.a1_W - box.com();
    const Eigen::Vector3d u = box.v + box.omega.cross(rel);
    const Eigen::Vector3d w(u.x(), u.y(), box.omega.z());
    const Eigen::Vector3d w_hat(e.e_t * w[0], e.e_o * w[1], e.e_r * w[2]);
    if (w_hat.norm() < 1e-6) continue;
    ++sliding;
    const double sigma = w_hat.norm();
    EXPECT_NEAR(s.sigma, sigma, kVelocityTolerance);
    const double scale = s.p_n;
    EXPECT_NEAR(s.p_t, -0.4 * s.p_n * e.e_t * e.e_t * w[0] / sigma, kRelativeImpulseTolerance * scale);
    EXPECT_NEAR(s.p_o, -0.4 * s.p_n * e.e_o * e.e_o * w[1] / sigma, kRelativeImpulseTolerance * scale);
    EXPECT_NEAR(s.p_r, -0.4 * s.p_n * e.e_r * e.e_r * w[2] / sigma, kRelativeImpulseTolerance * scale);
  }
  EXPECT_GE(sliding, 3);
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
}

// Notes §4.2 test 6: a box dropped flat lands in one step with zero gap (velocity level, no restitution):
// in the landing step v⁺_z = −gap/dt; from the next step on it rests. The gap is never negative.
TEST(EcpModel, DroppedBoxLandsInOneStepWithoutPenetration) {
  const double m = 1.5;
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(m, {0.1, 0.1, 0.1}, kMu));
  box.p_WL.z() += 0.0123;
  EcpModel model = paper_model();
  int landed = -1;   // the step in which it lands
  double landing_speed = 0;
  for (int k = 0; k < 12; ++k) {
    const double gap_before = box.lowest();
    const Eigen::Vector3d v_free = box.v + kDt * Eigen::Vector3d(0, 0, -kG);
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
    const double p_n = solutions(r)[0].p_n;
    EXPECT_GE(box.lowest(), -kPenetrationBound);
    EXPECT_NEAR(solutions(r)[0].gap, box.lowest(), kPointTolerance);
    if (landed < 0 && gap_before + kDt * v_free.z() < 0) {   // this step would cross the plane
      landed = k;
      landing_speed = -gap_before / kDt;
      EXPECT_NEAR(box.v.z(), landing_speed, kVelocityTolerance);
      EXPECT_NEAR(box.lowest(), 0.0, kPointTolerance);
      EXPECT_NEAR(p_n, m * (landing_speed - v_free.z()), kRelativeImpulseTolerance * m * kG * kDt);
    } else if (landed >= 0) {   // the next step stops it; from then on it rests
      EXPECT_LT(box.v.norm(), kVelocityTolerance);
      const double expected = m * kG * kDt - (k == landed + 1 ? m * landing_speed : 0.0);
      EXPECT_NEAR(p_n, expected, kRelativeImpulseTolerance * m * kG * kDt);
    } else {
      EXPECT_NEAR(solutions(r)[0].p_n, 0.0, kRelativeImpulseTolerance * m * kG * kDt);   // ballistic
      EXPECT_NEAR(box.v.z(), v_free.z(), kVelocityTolerance);
    }
  }
  EXPECT_GE(landed, 0);
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
}

// Notes §4.2 test 9: separated, tilted body: no impulse, ballistic motion, the ECP is the hull's lowest
// vertex and a2 its projection on the plane.
TEST(EcpModel, SeparatedBodyMovesFreelyWithTheEcpAtItsLowestVertex) {
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(1.0, {0.1, 0.2, 0.3}, kMu));
  box.R = Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 0.5).normalized()));
  box.p_WL = Eigen::Vector3d(0.3, -0.2, 1.0);
  box.v = Eigen::Vector3d(0.1, 0.2, 0.3);
  box.omega = Eigen::Vector3d(0.5, -1, 2);
  EcpModel model = paper_model();
  const ContactProblem& P = world.build();
  const Eigen::VectorXd v_star = P.v_star;
  const ContactResult& r = world.step(model);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  const BodyPlaneSolution& s = solutions(r)[0];
  EXPECT_LT((r.v_plus - v_star).norm(), kVelocityTolerance);
  EXPECT_LT(std::abs(s.p_n) + std::abs(s.p_t) + std::abs(s.p_o) + std::abs(s.p_r), 1e-12);
  EXPECT_NEAR(s.gap, box.lowest(), kPointTolerance);
  EXPECT_NEAR(s.a1_W.z(), box.lowest(), kPointTolerance);
  EXPECT_NEAR(s.a2_W.z(), 0.0, kPointTolerance);
  EXPECT_LT((s.a2_W.head<2>() - s.a1_W.head<2>()).norm(), kPointTolerance);
}

// Notes §4.2 tests 7, 8: a box tipped onto an edge falls back onto its face. Every step the ECP lies in the
// convex hull of the vertices on the plane (the true patch: an edge, then the face), the hull never
// penetrates, and the active set changes from the edge (two faces with l > 0) to the bottom face alone,
// without a solver failure.
TEST(EcpModel, TippedBoxFallsBackWithTheEcpOnTheContactEdge) {
  GroundWorld world(kDt, kG);
  const Eigen::Vector3d h(0.15, 0.1, 0.05);
  Body& box = world.add(resting_box(2.0, h, kMu));
  box.R = Eigen::Quaterniond(Eigen::AngleAxisd(0.35, Eigen::Vector3d::UnitX()));
  box.p_WL = Eigen::Vector3d::Zero();
  box.p_WL.z() = -box.lowest();   // resting on its lowest edge
  EcpModel model = paper_model();
  std::vector<int> active_counts;
  for (int k = 0; k < 60; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << "step " << k << ": " << r.stats.message;
    const BodyPlaneSolution& s = solutions(r)[0];
    EXPECT_GE(box.lowest(), -kPenetrationBound) << "step " << k;
    if (s.p_n > 0) {
      std::vector<Eigen::Vector2d> patch;
      for (int j = 0; j < 8; ++j) {
        const Eigen::Vector3d x = box.p_WL + box.R * box.hull.vertices.col(j);
        if (x.z() < kPatchHeight) patch.push_back(x.head<2>());
      }
      EXPECT_LT(distance_to_hull_2d(s.a1_W.head<2>(), patch), kPointTolerance) << "step " << k;
    }
    active_counts.push_back(static_cast<int>((s.l.array() > kActiveMultiplier).count()));
  }
  EXPECT_EQ(active_counts.front(), 2);   // the edge: bottom and side face
  EXPECT_EQ(active_counts.back(), 1);    // the bottom face
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
  EXPECT_LT(box.v.norm() + box.omega.norm(), kVelocityTolerance);
  EXPECT_NEAR(std::abs(box.R.w()), 1.0, 1e-12);
}

// A hull with more faces than kAllFacesUpTo: the solver works on the faces near the support set. A 40-gon
// prism rolling on its side goes over several faces (the face with the largest multiplier changes), keeps
// a valid ECP and never penetrates.
TEST(EcpModel, ManyFacedHullRollsOverItsFacesWithoutPenetration) {
  const int k_sides = 40;
  const double rho = 0.1, inradius = rho * std::cos(M_PI / k_sides), w0 = 8.0;
  GroundWorld world(kDt, kG);
  Body B;
  B.mass = 1.0;
  B.hull = prism_hull(k_sides, rho, 0.2);
  B.I_L = Eigen::Vector3d(0.0158, 0.0158, 0.005).asDiagonal();   // ≈ a solid cylinder r = 0.1, l = 0.4
  B.mu = 0.8;
  B.R = Eigen::Quaterniond::FromTwoVectors(B.hull.normals.col(0), -Eigen::Vector3d::UnitZ());   // on face 0
  Body& prism = world.add(B);
  prism.p_WL.z() = -prism.lowest();
  prism.omega = (prism.R * Eigen::Vector3d::UnitZ()) * w0;        // about its (horizontal) axis
  prism.v = prism.omega.cross(inradius * Eigen::Vector3d::UnitZ());   // rolling: no slip at the contact
  EcpModel model = paper_model();
  std::vector<int> faces;
  for (int k = 0; k < 50; ++k) {
    const ContactResult& r = world.step(model);
    ASSERT_EQ(r.stats.status, SolveStatus::Solved) << "step " << k << ": " << r.stats.message;
    EXPECT_GE(prism.lowest(), -kPenetrationBound);
    EXPECT_NEAR(solutions(r)[0].gap, prism.lowest(), kPointTolerance);
    if (faces.empty() || faces.back() != solutions(r)[0].active_face) faces.push_back(solutions(r)[0].active_face);
  }
  EXPECT_GE(faces.size(), 4u) << "it should roll over several faces";
  EXPECT_LE(world.restarts(), kRareRestarts * world.steps()) << statistics(world);
}

// Pairs the hull does not cover stay point contacts in the same solve: a point mass resting on a box that
// rests on the ground. Exact answers: the point contact carries m₂ g dt, the ECP (m₁ + m₂) g dt, at the
// projection of the joint centre of mass; nothing moves.
TEST(EcpModel, PointContactsOnAnEcpBodyAreSolvedWithIt) {
  const double m1 = 2.0, m2 = 0.5, hz = 0.05, x2 = 0.03;
  GroundWorld world(kDt, kG);
  world.add(resting_box(m1, {0.1, 0.1, hz}, kMu));
  const ContactProblem& base = world.build();
  ContactProblem P = base;   // add the point mass (3 DoF) and its contact on the box's top
  P.nv = 9;
  const Eigen::MatrixXd M2 = m2 * Eigen::MatrixXd::Identity(3, 3);
  const Eigen::LLT<Eigen::MatrixXd> llt2(M2);
  P.systems.push_back(SystemBlock{6, 3, &M2, &llt2});
  P.v.conservativeResize(9);
  P.v.tail(3).setZero();
  P.v_star.conservativeResize(9);
  P.v_star.tail(3) = Eigen::Vector3d(0, 0, -kG * kDt);
  hull_plane(P).q_offsets = {0, 7, 10};
  hull_plane(P).q.conservativeResize(10);
  hull_plane(P).q.tail(3) = Eigen::Vector3d(x2, 0, 2 * hz);
  const Eigen::Vector3d r_box(x2, 0, hz);   // the contact point from the box's centre
  Eigen::RowVectorXd n(9), s(9), t(9);
  n << -box_row(r_box, Eigen::Vector3d::UnitZ()), 0, 0, 1;   // A = point mass, B = box
  s << -box_row(r_box, Eigen::Vector3d::UnitX()), 1, 0, 0;
  t << -box_row(r_box, Eigen::Vector3d::UnitY()), 0, 1, 0;
  P.nc = 1;
  P.N = n.sparseView();
  P.S = s.sparseView();
  P.T = t.sparseView();
  P.phi = Eigen::VectorXd::Zero(1);
  P.mu = Eigen::VectorXd::Constant(1, 0.5);
  P.mu_viscous = Eigen::VectorXd::Zero(1);
  P.keys.assign(1, ContactKey{});
  hull_plane(P).replaced_by = {-1};
  P.p_N_guess = P.p_S_guess = P.p_T_guess = Eigen::VectorXd::Zero(1);
  P.L.resize(0, 9);
  EcpModel model = paper_model();
  ContactResult r;
  model.solve(P, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LT(r.v_plus.norm(), kVelocityTolerance);
  const double weight = (m1 + m2) * kG * kDt;
  EXPECT_NEAR(r.p_N[0], m2 * kG * kDt, kRelativeImpulseTolerance * weight);
  EXPECT_NEAR(solutions(r)[0].p_n, weight, kRelativeImpulseTolerance * weight);
  EXPECT_NEAR(solutions(r)[0].a1_W.x(), x2 * m2 / (m1 + m2), kPointTolerance);
  EXPECT_EQ(r.q_plus.size(), 10);
  EXPECT_EQ(r.q_plus.tail(3), hull_plane(P).q.tail(3));   // the point mass's coordinates are the stepper's to integrate
}

// The rows a pair stands for get no impulse; the ECP carries the load. (The box's four FCL corners.)
TEST(EcpModel, ReplacedPointRowsCarryNothing) {
  const double m = 2.0;
  const Eigen::Vector3d h(0.1, 0.1, 0.05);
  GroundWorld world(kDt, kG);
  world.add(resting_box(m, h, kMu));
  ContactProblem P = world.build();
  std::vector<Eigen::Triplet<double>> tn, ts, tt;
  const auto corners = bottom_corners(h);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 6; ++k) {
      tn.emplace_back(i, k, box_row(corners[i], Eigen::Vector3d::UnitZ())[k]);
      ts.emplace_back(i, k, box_row(corners[i], Eigen::Vector3d::UnitX())[k]);
      tt.emplace_back(i, k, box_row(corners[i], Eigen::Vector3d::UnitY())[k]);
    }
  P.nc = 4;
  P.N.resize(4, 6);
  P.S.resize(4, 6);
  P.T.resize(4, 6);
  P.N.setFromTriplets(tn.begin(), tn.end());
  P.S.setFromTriplets(ts.begin(), ts.end());
  P.T.setFromTriplets(tt.begin(), tt.end());
  P.phi = Eigen::VectorXd::Zero(4);
  P.mu = Eigen::VectorXd::Constant(4, kMu);
  P.mu_viscous = Eigen::VectorXd::Zero(4);
  P.keys.assign(4, ContactKey{});
  P.p_N_guess = P.p_S_guess = P.p_T_guess = Eigen::VectorXd::Zero(4);
  hull_plane(P).replaced_by = {0, 0, 0, 0};
  EcpModel model = paper_model();
  ContactResult r;
  model.solve(P, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_EQ(r.p_N, Eigen::VectorXd::Zero(4));
  EXPECT_NEAR(solutions(r)[0].p_n, m * kG * kDt, kRelativeImpulseTolerance * m * kG * kDt);
  // Without the pair, the same four rows as point contacts carry the weight between them.
  hull_plane(P).pairs.clear();
  hull_plane(P).replaced_by.clear();
  model.solve(P, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_NEAR(r.p_N.sum(), m * kG * kDt, kRelativeImpulseTolerance * m * kG * kDt);
  EXPECT_LT(r.v_plus.norm(), kVelocityTolerance);
  EXPECT_EQ(r.q_plus.size(), hull_plane(P).q.size());
}

// Point contacts alone (no pair): the circular maximum-dissipation cone; a point mass sliding on the ground
// loses μ g dt per step in the direction of its velocity.
TEST(EcpModel, PointMassSlidesWithCoulombFrictionAlongItsVelocity) {
  const double m = 1.0, mu = 0.3;
  ProblemBuilder builder(kDt);
  builder.add_system(m * Eigen::MatrixXd::Identity(3, 3));
  Eigen::RowVectorXd n(3), s(3), t(3);
  n << 0, 0, 1;
  s << 1, 0, 0;
  t << 0, 1, 0;
  builder.contact(n, s, t, 0.0, mu);
  const Eigen::Vector3d v(0.6, 0.8, 0);
  const Eigen::Vector3d v_star = v + Eigen::Vector3d(0, 0, -kG * kDt);
  const ContactProblem& P = builder.build(v, v_star);
  EcpModel model = paper_model();
  ContactResult r;
  model.solve(P, r);
  ASSERT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  const Eigen::Vector3d expected = v - mu * kG * kDt * v.normalized();
  EXPECT_LT((r.v_plus - expected).norm(), kVelocityTolerance);
  EXPECT_NEAR(r.p_N[0], m * kG * kDt, kRelativeImpulseTolerance * m * kG * kDt);
  EXPECT_EQ(r.q_plus.size(), 0);   // nothing geometrically implicit here
}

// A malformed problem is reported, not thrown: status Failed, a message, v⁺ = v*.
TEST(EcpModel, MalformedProblemFailsWithAMessage) {
  GroundWorld world(kDt, kG);
  world.add(resting_box(1.0, {0.1, 0.1, 0.1}, kMu));
  ContactProblem P = world.build();
  hull_plane(P).pairs[0].system = 3;
  EcpModel model = paper_model();
  ContactResult r;
  ASSERT_NO_THROW(model.solve(P, r));
  EXPECT_EQ(r.stats.status, SolveStatus::Failed);
  EXPECT_NE(r.stats.message.find("no such system"), std::string::npos) << r.stats.message;
  EXPECT_EQ(r.v_plus, P.v_star);
  P = world.build();
  hull_plane(P).pairs[0].hull = nullptr;
  model.solve(P, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Failed);
  EXPECT_NE(r.stats.message.find("no hull"), std::string::npos) << r.stats.message;
}

// A solve that cannot converge in the iterations allowed says so, naming the equation that is off.
TEST(EcpModel, NonConvergenceFallsBackToPointContactsAndSaysWhy) {
  EcpOptions options;
  options.max_iterations = 1;
  options.tolerance = 1e-14;
  EcpModel model(options);
  GroundWorld world(kDt, kG);
  Body& box = world.add(resting_box(1.0, {0.1, 0.1, 0.1}, kMu));
  box.R = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 1, 0).normalized()));
  box.p_WL.z() = -box.lowest() + 0.001;
  box.v = Eigen::Vector3d(1, 0, -2);
  box.omega = Eigen::Vector3d(3, 0, 1);
  const ContactResult& r = world.step(model);
  // One iteration solves no start; the island has no point row, so its point-contact form (the fallback)
  // is the free motion, which the Newton method meets at once.
  ASSERT_EQ(r.stats.status, SolveStatus::Fallback) << r.stats.message;
  EXPECT_GT(r.stats.attempts, EcpModel::kRuns);
  EXPECT_NE(r.stats.message.find("point contacts"), std::string::npos) << r.stats.message;
  EXPECT_NE(r.stats.message.find("semismooth Newton failed from every start"), std::string::npos) << r.stats.message;
  EXPECT_NE(r.stats.message.find(" at "), std::string::npos) << r.stats.message;   // names the worst equation
  EXPECT_TRUE(r.v_plus.allFinite());
  EXPECT_TRUE(r.q_plus_systems.empty());   // the stepper integrates the body
}

}  // namespace
}  // namespace impetus::test::ecp
