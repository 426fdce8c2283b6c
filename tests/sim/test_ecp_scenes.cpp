// Scene-level physics of the ECP model (seed 003, contact/ecp/ecp_model.hpp) through the whole
// pipeline (scene loading with <load>, collision, assembly with the body–plane pairs, the model, integration
// with the model's q⁺), on the shipped scenes ecp_box_slide, ecp_box_push, ecp_box_spin, ecp_tbar and ecp_desk. The expected
// motions are the discrete-time derivations of shared/notes/seed-003-notes.md §4.2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collision/collision_detector.hpp"
#include "scene_fixture.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus {
namespace {

constexpr double g = 9.8;    // the scenes' gravity (the paper's)
constexpr double mu = 0.22;  // the scenes' friction (the paper's)
constexpr double e_r = 0.1;  // m, the scenes' limit surface (the paper's)

// The model converges to a scaled residual of 1e-10 (EcpOptions::tolerance; ecp_system.hpp): a velocity
// error of 1e-10·g·dt ≈ 1e-11 m/s, a length error of 1e-10·g·dt² ≈ 1e-13 m. The tolerances below are
// 100× those, for the round-off of forming q⁺ and the vertices from it.
constexpr double kVelocityTol = 1e-9;   // m/s (and rad/s for a 0.2 m body: U/L)
constexpr double kLengthTol = 1e-9;     // m
constexpr double kImpulseTol = 1e-9;    // N·s: 1e-10 of a 2–15 kg body's weight impulse m·g·dt, ×100
// No penetration: (E4)–(E6) keep Conv(F), hence the true geometry inside it, on or above the plane at q⁺;
// the signed distance may fall below 0 only by the length error above (kLengthTol's reasoning).
constexpr double kPenetrationTol = 1e-9;
// A vertex of the true geometry lower than this touches the plane (is in the contact patch). The gaps the
// model leaves are ≤ 1e-13 m; a vertex this close to the plane but not on it only enlarges the patch's hull
// by where the body will touch within a micrometre, which never hides an ECP outside it.
constexpr double kTouchTol = 1e-6;

/// Pose of a free body from the state: its floating joint's [p_WL; (w, x, y, z)].
template <class Run>
Eigen::Isometry3d pose(const Run& run, int link) {
  const int qi = run.world.model.multibody.links[link].joint.q_index;
  const Eigen::VectorXd& q = run.state.q;
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::Quaterniond(q[qi + 3], q[qi + 4], q[qi + 5], q[qi + 6]).normalized().toRotationMatrix();
  X.translation() = q.template segment<3>(qi);
  return X;
}

template <class Run>
Eigen::Vector3d com(const Run& run, int link) {
  return pose(run, link) * run.world.model.multibody.links[link].inertia.com;
}

template <class Run>
Eigen::Vector3d angular_velocity(const Run& run, int link) {
  return run.state.v.template segment<3>(run.world.model.multibody.links[link].joint.v_index + 3);
}

/// Every vertex of the body's true (box) geometry, in the world, at the current state.
template <class Run>
std::vector<Eigen::Vector3d> true_vertices(const Run& run, int link) {
  std::vector<Eigen::Vector3d> out;
  const Eigen::Isometry3d X_WL = pose(run, link);
  for (const Geometry& geometry : run.world.model.geometries) {
    if (geometry.link != link) continue;
    const Box* box = std::get_if<Box>(&geometry.shape);
    if (box == nullptr) continue;
    const Eigen::Vector3d h = 0.5 * box->size;
    for (int i = 0; i < 8; ++i)
      out.push_back(X_WL * geometry.X_LG *
                    Eigen::Vector3d((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  }
  return out;
}

/// The last step's ECP solution of `link`, or null when it had none.
template <class Run>
const BodyPlaneSolution* ecp_of(const Run& run, int link) {
  for (const ContactResult& r : run.stepper.data().results)
    if (const HullPlaneResult* solved = r.extension.find<HullPlaneResult>())
      for (const BodyPlaneSolution& s : solved->pairs)
        if (s.body == link) return &s;
  return nullptr;
}

/// How many ECPs (body–plane pairs) the last step solved, over all islands.
int ecp_count(const StepData& d) {
  int count = 0;
  for (const ContactResult& r : d.results)
    if (const HullPlaneResult* solved = r.extension.find<HullPlaneResult>()) count += static_cast<int>(solved->pairs.size());
  return count;
}

/// The collision stage's own measurement (FCL and the ground routines of collision/): the smallest signed
/// gap φ between the true geometry of `link` and the ground, or between `link` and `other` (≥ 0), over the
/// pairs within `margin`; +∞ when none is that close.
class GapMeter {
 public:
  explicit GapMeter(const WorldModel& model, double margin = 0.05)
      : model_(model), detector_(model.geometries, filter(model, margin)) {}

  template <class Run>
  double min_gap(const Run& run, int link, int other = kGround) {
    std::vector<Eigen::Isometry3d> X_WL;
    for (int l = 0; l < static_cast<int>(model_.multibody.links.size()); ++l) X_WL.push_back(pose_or_static(run, l));
    detector_.detect(X_WL, contacts_);
    double gap = INFINITY;
    for (const ContactPoint& c : contacts_)
      if ((c.link_a == link && c.link_b == other) || (c.link_a == other && c.link_b == link)) gap = std::min(gap, c.phi);
    return gap;
  }

 private:
  static CollisionFilter filter(const WorldModel& model, double margin) {
    CollisionFilter f;
    for (const Link& link : model.multibody.links) {
      f.link_parent.push_back(link.parent);
      f.link_movable.push_back(model.multibody.trees[link.tree].nv > 0);
    }
    f.margin = margin;
    f.has_ground = model.has_ground;
    return f;
  }
  template <class Run>
  Eigen::Isometry3d pose_or_static(const Run& run, int link) const {
    // Every body of these scenes is free; a static one would keep its model pose.
    return model_.multibody.links[link].joint.type == JointType::Floating ? pose(run, link)
                                                                           : run.stepper.data().multibody.X_WL[link];
  }
  const WorldModel& model_;
  CollisionDetector detector_;
  ContactSet contacts_;
};

/// Distance in the ground plane (x, y) of p from the convex hull of `points` (0 inside).
double distance_from_hull_2d(const Eigen::Vector3d& p3, std::vector<Eigen::Vector3d> points3) {
  using V = Eigen::Vector2d;
  std::vector<V> pts;
  for (const auto& x : points3) pts.emplace_back(x.x(), x.y());
  const V p(p3.x(), p3.y());
  std::sort(pts.begin(), pts.end(), [](const V& a, const V& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  auto cross = [](const V& o, const V& a, const V& b) { return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x(); };
  // Andrew's monotone chain; collinear points are dropped, so a line patch gives its two ends.
  std::vector<V> hull(2 * pts.size());
  int k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 1e-15) --k;
    hull[k++] = pts[i];
  }
  for (int i = static_cast<int>(pts.size()) - 2, lower = k + 1; i >= 0; --i) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 1e-15) --k;
    hull[k++] = pts[i];
  }
  hull.resize(std::max(k - 1, 1));
  auto segment = [&](const V& a, const V& b) {
    const V ab = b - a;
    const double s = ab.squaredNorm() > 0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
    return (a + s * ab - p).norm();
  };
  if (hull.size() == 1) return (hull[0] - p).norm();
  if (hull.size() == 2) return segment(hull[0], hull[1]);
  bool inside = true;
  double d = INFINITY;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const V& a = hull[i];
    const V& b = hull[(i + 1) % hull.size()];
    if (cross(a, b, p) < 0) inside = false;
    d = std::min(d, segment(a, b));
  }
  return inside ? 0.0 : d;
}

/// What every step of every ECP scene must satisfy (the NCP of ecp_model.hpp solved, no penetration
/// beyond its tolerance, no energy from contact), checked after each step.
struct StepChecks {
  int failures = 0;
  double min_vertex_height = INFINITY;   // m: lowest vertex of the true geometry over the run
  double min_measured_gap = INFINITY;    // m: the collision stage's signed distance over the run
  double max_ecp_outside_patch = 0;      // m: distance of the ECP from the hull of the true contact patch
  double max_dissipation_error = 0;      // N·s: (E7) recomputed from the state, see below
  int touching_vertices = 0;             // of the last step

  void after_step(test::SceneRun& run, GapMeter& meter, int link) {
    failures += run.stepper.data().stats.solver_failures;
    const std::vector<Eigen::Vector3d> vertices = true_vertices(run, link);
    std::vector<Eigen::Vector3d> patch;
    for (const Eigen::Vector3d& x : vertices) {
      min_vertex_height = std::min(min_vertex_height, x.z());
      if (x.z() < kTouchTol) patch.push_back(x);
    }
    touching_vertices = static_cast<int>(patch.size());
    min_measured_gap = std::min(min_measured_gap, meter.min_gap(run, link));
    const BodyPlaneSolution* s = ecp_of(run, link);
    if (s == nullptr || s->p_n <= 0) return;
    // Prop. 1: an ECP that carries load lies in the convex hull of the true contact patch.
    max_ecp_outside_patch =
        std::max(max_ecp_outside_patch, patch.empty() ? INFINITY : distance_from_hull_2d(s->a1_W, patch));
    // Maximum power dissipation, seed 003 Eq. 14 recomputed from the state the step produced: the slip
    // velocities at the ECP w = (t·v_a, o·v_a, n·ω), v_a = v_C + ω × (a1 − c⁺), and
    // (p_t, p_o, p_r) = −μ p_n (e_t² w_t, e_o² w_o, e_r² w_r) / σ while sliding (σ > 0).
    const Eigen::Vector3d w_W = angular_velocity(run, link);
    const Eigen::Vector3d v_a = run.velocity(run.world.model.multibody.links[link].name) + w_W.cross(s->a1_W - com(run, link));
    const Eigen::Vector3d w(v_a.x(), v_a.y(), w_W.z());
    const Eigen::Vector3d e2(1, 1, e_r * e_r);
    const double sigma = std::sqrt(w.x() * w.x() + w.y() * w.y() + e_r * e_r * w.z() * w.z());
    EXPECT_NEAR(s->sigma, sigma, kVelocityTol);
    if (sigma > 1e3 * kVelocityTol) {
      const Eigen::Vector3d expected = -mu * s->p_n * e2.cwiseProduct(w) / sigma;
      max_dissipation_error = std::max(max_dissipation_error, (Eigen::Vector3d(s->p_t, s->p_o, s->p_r) - expected).norm());
    }
  }
  void expect_clean() const {
    EXPECT_EQ(failures, 0);
    EXPECT_GE(min_vertex_height, -kPenetrationTol);
    EXPECT_GE(min_measured_gap, -kPenetrationTol);
    EXPECT_LE(max_ecp_outside_patch, kLengthTol);
    EXPECT_LE(max_dissipation_error, kImpulseTol);
  }
};

TEST(EcpScenes, TheStepperBuildsTheEcpStagesOnlyUnderTheEcpModel) {
  test::SceneRun ecp("ecp_box_slide.xml");
  ASSERT_EQ(ecp.stepper.contact_model_name(), "ecp");
  ASSERT_NE(ecp.stepper.assembly().hull_plane(), nullptr);
  EXPECT_NE(ecp.stepper.assembly().hull_plane()->bodies()[ecp.link("box")].hull, nullptr);
  test::SceneRun other("ecp_box_slide.xml", "stewart_trinkle");
  EXPECT_EQ(other.stepper.assembly().hull_plane(), nullptr);
  other.step();
  ASSERT_FALSE(other.stepper.data().problems.empty());
  for (const ContactProblem& P : other.stepper.data().problems) EXPECT_TRUE(P.extension.empty());
  for (const ContactResult& r : other.stepper.data().results) EXPECT_TRUE(r.extension.empty());
}

// The stepper's contract with every model (sim/stepper.hpp): one problem and one result per island, the
// reported contacts are the rows no pair replaces plus the points the model chose, and integration takes a
// geometrically implicit model's q⁺ for the systems it decided.
TEST(EcpScenes, OneProblemPerIslandReportedContactsAndTheModelsConfiguration) {
  struct Case {
    const char* scene;
    const char* model;
    int steps;
    bool islands_change;   // the spheres land one by one: islands appear while the problems are reused
  };
  for (const Case& c : {Case{"spheres_drop.xml", "stewart_trinkle", 500, true}, Case{"ecp_box_push.xml", "ecp", 100, false},
                        Case{"ecp_desk.xml", "ecp", 60, false}}) {
    test::SceneRun run(c.scene, c.model);
    std::size_t most_islands = 0, fewest_islands = 1000, decided = 0;
    for (int step = 0; step < c.steps; ++step) {
      run.step();
      const StepData& d = run.stepper.data();
      ASSERT_EQ(d.problems.size(), d.islands.size()) << c.scene << " step " << step;
      ASSERT_EQ(d.results.size(), d.islands.size()) << c.scene << " step " << step;
      most_islands = std::max(most_islands, d.islands.size());
      fewest_islands = std::min(fewest_islands, d.islands.size());
      std::size_t replaced = 0, chosen = 0;
      for (std::size_t k = 0; k < d.islands.size(); ++k) {
        const HullPlaneProblem* pairs = d.problems[k].extension.find<HullPlaneProblem>();
        EXPECT_EQ(pairs != nullptr, std::string(c.model) == "ecp") << c.scene << " step " << step;
        if (pairs != nullptr)
          for (int r : pairs->replaced_by) replaced += r >= 0;
        chosen += d.results[k].contacts.size();
        EXPECT_EQ(d.results[k].contacts.size(), pairs != nullptr ? pairs->pairs.size() : 0) << c.scene << " step " << step;
        // q⁺ lays the systems out one after the other, each in its tree's State::q layout.
        const std::vector<int>& trees = d.islands[k].trees;
        for (int system : d.results[k].q_plus_systems) {
          int offset = 0;
          for (int i = 0; i < system; ++i) offset += run.world.model.multibody.trees[trees[i]].nq;
          const Tree& tree = run.world.model.multibody.trees[trees[system]];
          ++decided;
          EXPECT_TRUE(run.state.q.segment(tree.q_offset, tree.nq) == d.results[k].q_plus.segment(offset, tree.nq))
              << c.scene << " step " << step;
        }
      }
      EXPECT_EQ(d.reported.size(), d.contacts.size() - replaced + chosen) << c.scene << " step " << step;
    }
    if (std::string(c.model) == "ecp") {
      EXPECT_GT(decided, 0u) << c.scene << ": no q⁺ from the model";
    }
    if (c.islands_change) {
      EXPECT_LT(fewest_islands, most_islands) << c.scene << ": the island count never changed";
    }
  }
}

TEST(EcpScenes, SlidingBoxLosesMuGDtPerStepStopsAtStep14AndItsEcpLeadsByMuC) {
  test::SceneRun run("ecp_box_slide.xml");
  GapMeter meter(run.world.model);
  StepChecks checks;
  const int box = run.link("box");
  const double m = 2, c = 0.1, dt = run.dt(), dv = mu * g * dt;   // c: the centre of mass's height
  const double x0 = com(run, box).x();
  int stopped_at = -1;
  for (int k = 1; k <= run.steps_for(0.3); ++k) {
    const double v = run.velocity("box").x();
    run.step();
    checks.after_step(run, meter, box);
    const double v_plus = run.velocity("box").x();
    const BodyPlaneSolution* s = ecp_of(run, box);
    ASSERT_NE(s, nullptr) << "step " << k;
    EXPECT_NEAR(s->p_n, m * g * dt, kImpulseTol) << "step " << k;   // v_z stays 0
    EXPECT_NEAR(run.velocity("box").tail<2>().norm(), 0, kVelocityTol);
    if (v > dv) {   // sliding through the step: Coulomb's μ p_n, exactly
      EXPECT_NEAR(v_plus, v - dv, kVelocityTol) << "step " << k;
      EXPECT_NEAR(s->sigma, v_plus, kVelocityTol) << "step " << k;
      EXPECT_NEAR(std::hypot(s->p_t, s->p_o), mu * s->p_n, kImpulseTol) << "step " << k;
      // Moment balance about the centre of mass with friction −μ p_n at depth c: the ECP leads by μ c.
      EXPECT_NEAR(s->a1_W.x() - com(run, box).x(), mu * c, kLengthTol) << "step " << k;
    } else {        // the last sliding speed is less than one step's friction can take: it sticks
      EXPECT_NEAR(v_plus, 0, kVelocityTol) << "step " << k;
      if (stopped_at < 0) stopped_at = k;
    }
  }
  // Notes §4.2 test 1: 0.3 − 13·0.02156 = 0.01972 < 0.02156, so the 14th step stops it, after
  // dt·Σ_{k=1..13}(0.3 − k·0.02156) = 0.0193804 m.
  EXPECT_EQ(stopped_at, 14);
  EXPECT_NEAR(com(run, box).x() - x0, dt * (13 * 0.3 - 0.02156 * 13 * 14 / 2), kLengthTol);
  checks.expect_clean();
}

TEST(EcpScenes, BoxPushedBelowTheFrictionLimitStaysStillWithItsEcpShiftedByCFOverMG) {
  test::SceneRun run("ecp_box_push.xml");
  ASSERT_EQ(run.world.model.loads.size(), 1u);
  const double F = run.world.model.loads[0].force.constant.x(), m = 2, c = 0.1, dt = run.dt();
  ASSERT_LT(F, mu * m * g);
  GapMeter meter(run.world.model);
  StepChecks checks;
  const int box = run.link("box");
  const Eigen::Vector3d c0 = com(run, box);
  for (int k = 1; k <= run.steps_for(0.5); ++k) {
    run.step();
    checks.after_step(run, meter, box);
    const BodyPlaneSolution* s = ecp_of(run, box);
    ASSERT_NE(s, nullptr);
    EXPECT_NEAR(run.velocity("box").norm(), 0, kVelocityTol) << "step " << k;
    EXPECT_NEAR(angular_velocity(run, box).norm(), 0, kVelocityTol) << "step " << k;
    EXPECT_NEAR(s->sigma, 0, kVelocityTol) << "step " << k;
    EXPECT_NEAR(s->p_t, -F * dt, kImpulseTol) << "step " << k;
    EXPECT_NEAR(s->p_o, 0, kImpulseTol);
    // Strictly inside the limit surface (15): stuck, not at the edge of sliding.
    EXPECT_LT(std::hypot(s->p_t, s->p_o), mu * s->p_n);
    // Moment balance: friction −F at depth c against the normal m g at lever d: d = c F / (m g).
    EXPECT_NEAR(s->a1_W.x() - com(run, box).x(), c * F / (m * g), kLengthTol) << "step " << k;
  }
  EXPECT_LT((com(run, box) - c0).norm(), run.steps_for(0.5) * dt * kVelocityTol);
  checks.expect_clean();
}

TEST(EcpScenes, BoxPushedAboveTheFrictionLimitAcceleratesAtFMinusMuMGOverM) {
  test::SceneRun run("ecp_box_push.xml");
  const double m = 2, F = 5, dt = run.dt();   // 5 N > μ m g = 4.312 N
  run.world.model.loads[0].force.constant.x() = F;
  const int box = run.link("box");
  for (int k = 1; k <= 20; ++k) {
    const double v = run.velocity("box").x();
    run.step();
    EXPECT_NEAR(run.velocity("box").x(), v + (F - mu * m * g) / m * dt, kVelocityTol) << "step " << k;
    EXPECT_EQ(run.stepper.data().stats.solver_failures, 0);
  }
  EXPECT_NEAR(angular_velocity(run, box).norm(), 0, kVelocityTol);
}

TEST(EcpScenes, SpinningBoxLosesMuMGErDtOverIzzPerStep) {
  test::SceneRun run("ecp_box_spin.xml");
  GapMeter meter(run.world.model);
  StepChecks checks;
  const int box = run.link("box");
  const double m = 2, s = 0.2, dt = run.dt();
  const double I_zz = run.world.model.multibody.links[box].inertia.I_C(2, 2);
  ASSERT_NEAR(I_zz, m * s * s / 6, 1e-12);   // a uniform cube
  const double dw = mu * m * g * e_r * dt / I_zz;   // 0.3234 rad/s
  const Eigen::Vector3d c0 = com(run, box);
  int stopped_at = -1;
  for (int k = 1; k <= run.steps_for(0.2); ++k) {
    const double w = angular_velocity(run, box).z();
    run.step();
    checks.after_step(run, meter, box);
    const double w_plus = angular_velocity(run, box).z();
    const BodyPlaneSolution* sol = ecp_of(run, box);
    ASSERT_NE(sol, nullptr);
    // By symmetry the ECP stays below the centre of mass and the slip is pure spin.
    EXPECT_NEAR((sol->a1_W - com(run, box)).head<2>().norm(), 0, kLengthTol) << "step " << k;
    EXPECT_NEAR(std::hypot(sol->p_t, sol->p_o), 0, kImpulseTol) << "step " << k;
    if (w > dw) {
      EXPECT_NEAR(w_plus, w - dw, kVelocityTol) << "step " << k;
      EXPECT_NEAR(sol->p_r, -mu * sol->p_n * e_r, kImpulseTol) << "step " << k;
    } else {
      EXPECT_NEAR(w_plus, 0, kVelocityTol) << "step " << k;
      if (stopped_at < 0) stopped_at = k;
    }
  }
  EXPECT_EQ(stopped_at, static_cast<int>(std::floor(3.0 / dw)) + 1);   // 3 − 9·0.3234 < 0.3234: the 10th
  EXPECT_LT((com(run, box) - c0).norm(), kLengthTol);
  checks.expect_clean();
}

/// Tilt of a body from its initial orientation about a horizontal axis (rad).
double tilt(const test::SceneRun& run, int link) {
  const Eigen::Vector3d z_L = pose(run, link).linear().col(2);
  return std::acos(std::clamp(z_L.z(), -1.0, 1.0));
}

TEST(EcpScenes, TBarGoesFromFaceToTwoPointContactAndBackWithoutASolverFailure) {
  test::SceneRun run("ecp_tbar.xml");
  GapMeter meter(run.world.model);
  StepChecks checks;
  const int bar = run.link("tbar");
  // Body-frame ends of the hull edge AB the loads tip the bar about (the scene's header comment).
  const Eigen::Vector3d A_L(-0.15, 0.025, -0.02), B_L(0.15, 0.15, -0.02);
  // Modes, in order: face (all 8 bottom corners touch, level), two-point (only A and B touch, tilted),
  // face again.
  constexpr double kTilted = 0.02;   // rad: a tilt this large lifts the far corners by ≥ 2 mm
  int phase = 0, two_point_steps = 0, spun_steps = 0;
  double max_ecp_off_ab = 0;
  for (int k = 1; k <= run.steps_for(2.0); ++k) {
    run.step();
    checks.after_step(run, meter, bar);
    const double theta = tilt(run, bar);
    const BodyPlaneSolution* s = ecp_of(run, bar);
    const bool face = checks.touching_vertices == 8 && theta < kLengthTol;
    if (checks.touching_vertices == 2 && theta > kTilted) {
      ++two_point_steps;
      const Eigen::Isometry3d X = pose(run, bar);
      const Eigen::Vector3d A = X * A_L, B = X * B_L;
      EXPECT_LT(A.z(), kTouchTol);
      EXPECT_LT(B.z(), kTouchTol);
      if (s != nullptr && s->p_n > 0) {   // the ECP on the segment AB: the hull of the two-point patch
        const Eigen::Vector3d ab = B - A;
        const double u = std::clamp((s->a1_W - A).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
        max_ecp_off_ab = std::max(max_ecp_off_ab, (A + u * ab - s->a1_W).norm());
      }
      if (phase == 1) phase = 2;
    } else if (face) {
      if (phase == 0) phase = 1;
      if (phase == 2) phase = 3;
      if (phase == 3 && angular_velocity(run, bar).z() > 0.1) ++spun_steps;
    }
  }
  EXPECT_EQ(phase, 3) << "face → two-point → face not seen";
  EXPECT_GT(two_point_steps, 5);
  EXPECT_GT(spun_steps, 5) << "the torque about z turns it in face contact";
  EXPECT_LE(max_ecp_off_ab, kLengthTol);
  checks.expect_clean();
  RecordProperty("two_point_steps", two_point_steps);
}

TEST(EcpScenes, DeskRunsThePapersFourSecondsCleanly) {
  test::SceneRun run("ecp_desk.xml");
  GapMeter meter(run.world.model);
  StepChecks checks;
  const int desk = run.link("desk");
  const double m = 15, dt = run.dt();
  int ecp_outside_feet = 0, sliding = 0;
  for (int k = 1; k <= run.steps_for(4.0); ++k) {
    run.step();
    checks.after_step(run, meter, desk);
    const BodyPlaneSolution* s = ecp_of(run, desk);
    ASSERT_NE(s, nullptr) << "step " << k;
    // The loads are horizontal and the desk does not tip (μ c = 0.099 m < 0.25 m): p_n = m g dt.
    EXPECT_NEAR(s->p_n, m * g * dt, kImpulseTol) << "step " << k;
    EXPECT_LT(tilt(run, desk), kLengthTol) << "step " << k;
    if (s->sigma > 0) ++sliding;
    // Is the ECP under a foot (a 0.06 m square at a corner of the 0.5 m square)?
    const Eigen::Vector3d a_L = pose(run, desk).inverse() * s->a1_W;
    if (std::abs(a_L.x()) < 0.19 || std::abs(a_L.y()) < 0.19) ++ecp_outside_feet;
  }
  checks.expect_clean();
  EXPECT_GT(sliding, 0);
  EXPECT_GT(ecp_outside_feet, 0);   // the paper's point: the ECP is in the hull of the feet, not under one
  RecordProperty("sliding_steps", sliding);
}

/// SceneRun for a scene given as text.
struct StringSceneRun {
  World world;
  State state;
  Stepper stepper;
  StringSceneRun(const char* text, const std::string& model)
      : world(load_scene_string(text, "string.xml")), state(world.initial), stepper(world.model, model, world.model.physics.dt) {}
  int link(const std::string& name) const { return world.model.multibody.find_link(name); }
  Eigen::Vector3d velocity(const std::string& body) const {
    return state.v.segment<3>(world.model.multibody.links[link(body)].joint.v_index);
  }
};

// A box thrown down at the ground: nearing it, it is an ECP body with no collision contact yet (an island
// of its own, assembly_ecp.hpp) for several steps. Each step it either falls freely (p_n = 0: v⁺ = v − g dt,
// semi-implicit Euler exactly) or ends on the ground with zero gap (notes §4.2 test 6: the geometrically
// implicit step lands it within one step, no penetration, no bounce). A regression test: the island
// problem of such a body once kept the configuration of the step before (stale q), moving it back a step.
constexpr const char* kThrownBox = R"(
<scene name="ecp_throw">
  <physics dt="0.01" duration="1" gravity="0 0 -9.8" contact_model="ecp" mu="0.22"/>
  <ground/>
  <body name="box" mass="2">
    <origin xyz="0 0 0.15"/>
    <velocity linear="0.2 0 -1"/>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </body>
</scene>)";

TEST(EcpScenes, ThrownBoxFallsFreelyThenLandsWithZeroGapInOneStep) {
  StringSceneRun run(kThrownBox, "ecp");
  const int box = run.link("box");
  const double dt = run.stepper.dt();
  int landed_at = -1;
  for (int k = 1; k <= 30; ++k) {
    const Eigen::Vector3d x = run.state.q.segment<3>(0), v = run.velocity("box");
    run.stepper.step(run.state);
    EXPECT_EQ(run.stepper.data().stats.solver_failures, 0) << "step " << k;
    const Eigen::Vector3d x_plus = run.state.q.segment<3>(0), v_plus = run.velocity("box");
    const BodyPlaneSolution* s = ecp_of(run, box);
    const double bottom = x_plus.z() - 0.1;
    EXPECT_GE(bottom, -kPenetrationTol) << "step " << k;
    if (s == nullptr || s->p_n <= kImpulseTol) {   // in flight through the whole step (p_n = 0 to round-off)
      EXPECT_LT(landed_at, 0) << "it left the ground at step " << k;
      EXPECT_NEAR((v_plus - v - Eigen::Vector3d(0, 0, -g * dt)).norm(), 0, kVelocityTol) << "step " << k;
      EXPECT_NEAR((x_plus - x - dt * v_plus).norm(), 0, kLengthTol) << "step " << k;
    } else {                             // on the ground at the end of the step
      EXPECT_NEAR(bottom, 0, kLengthTol) << "step " << k;
      EXPECT_NEAR(s->gap, 0, kLengthTol) << "step " << k;
      // The landing step ends at the ground with v⁺_z = −(its gap at t)/dt; the next ones rest.
      if (landed_at < 0) landed_at = k;
      else EXPECT_NEAR(v_plus.z(), 0, kVelocityTol) << "step " << k;
    }
    EXPECT_NEAR(angular_velocity(run, box).norm(), 0, kVelocityTol) << "step " << k;
  }
  EXPECT_GT(landed_at, 1);
}

// Pairs the hull argument does not cover (ecp_model.hpp, assembly_ecp.hpp): body–body contacts and
// bodies with curved geometry keep the collision stage's point rows, solved in the same complementarity
// problem as the ECPs by the maximum-dissipation Coulomb rows (E9)–(E10). A 1 kg ball (curved: no hull)
// is launched at 0.5 m/s on a resting 4 kg box (an ECP body on the ground). While the ball slips, friction
// μ m g at its contact point takes μ g dt per step from v and adds 5 μ g dt / (2 r) to ω (I = 2 m r²/5);
// once v = ω r it rolls without friction. The box, pushed by at most μ m_ball g = 2.16 N < μ (m_ball +
// m_box) g = 10.8 N, stays still on its ECP, which carries both weights.
constexpr const char* kBallOnBox = R"(
<scene name="ecp_ball_on_box">
  <physics dt="0.01" duration="1" gravity="0 0 -9.8" contact_model="ecp" mu="0.22"/>
  <ground/>
  <body name="box" mass="4">
    <origin xyz="0 0 0.15"/>
    <collision><geometry><box size="0.6 0.6 0.3"/></geometry></collision>
  </body>
  <body name="ball" mass="1">
    <origin xyz="-0.1 0 0.35"/>
    <velocity linear="0.5 0 0"/>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </body>
</scene>)";

TEST(EcpScenes, BodyBodyAndCurvedPairsKeepPointContactsSolvedWithTheEcps) {
  StringSceneRun run(kBallOnBox, "ecp");
  Stepper& stepper = run.stepper;
  GapMeter meter(run.world.model);
  const int box = run.link("box"), ball = run.link("ball");
  const EcpBodyInfo& ball_info = stepper.assembly().hull_plane()->bodies()[ball];
  EXPECT_EQ(ball_info.hull, nullptr);
  EXPECT_NE(ball_info.reason.find("curved"), std::string::npos) << ball_info.reason;
  const double dt = stepper.dt(), r = 0.05, dv = mu * g * dt, dw = 5 * mu * g * dt / (2 * r);
  // The ball's row is linearised: its gap is held by N v⁺ ≥ −φ/dt, exact for a sphere on a face (its gap
  // depends on its centre's height only); kPointGapTol allows for the collision stage's round-off.
  constexpr double kPointGapTol = 1e-9;
  int rolling_from = -1;
  for (int k = 1; k <= 40; ++k) {
    const double v = run.velocity("ball").x(), w = angular_velocity(run, ball).y();
    stepper.step(run.state);
    const StepData& d = stepper.data();
    EXPECT_EQ(d.stats.solver_failures, 0) << "step " << k;
    // One pair: the box on the ground. The ball's contacts (on the box) stay point rows.
    const BodyPlaneSolution* s = ecp_of(run, box);
    EXPECT_EQ(ecp_count(d), 1) << "step " << k;
    ASSERT_NE(s, nullptr);
    EXPECT_NEAR(s->p_n, 5 * g * dt, kImpulseTol) << "the ground carries both, step " << k;
    EXPECT_NEAR(run.velocity("box").norm(), 0, kVelocityTol) << "step " << k;
    EXPECT_GE(meter.min_gap(run, ball, box), -kPointGapTol) << "step " << k;
    EXPECT_GE(meter.min_gap(run, box), -kPenetrationTol) << "step " << k;
    const double v_plus = run.velocity("ball").x(), w_plus = angular_velocity(run, ball).y();
    if (v - w * r > dv + dw * r) {   // still slipping at the end of the step: Coulomb's μ m g throughout
      EXPECT_NEAR(v_plus, v - dv, kVelocityTol) << "step " << k;
      EXPECT_NEAR(w_plus, w + dw, kVelocityTol / r) << "step " << k;
    } else {                         // rolling: no slip at the contact, momentum about it conserved
      EXPECT_NEAR(v_plus - w_plus * r, 0, kVelocityTol) << "step " << k;
      EXPECT_NEAR(v_plus + 2.0 / 5 * w_plus * r, v + 2.0 / 5 * w * r, kVelocityTol) << "step " << k;
      if (rolling_from < 0) rolling_from = k;
    }
  }
  EXPECT_GT(rolling_from, 0);
  EXPECT_NEAR(run.velocity("ball").x(), 5.0 / 7 * 0.5, kVelocityTol);   // rolling: angular momentum about the contact
}

// Box on box: a 1 kg box slides at 0.5 m/s on a resting 4 kg box: the top one must decelerate at μ g
// (its four point contacts slide in one direction: Coulomb's μ Σ p_N), while the bottom one, pushed by
// μ m_top g = 2.16 N < μ (m_top + m_bottom) g = 10.8 N, stays still on its ECP.
// The four coplanar point contacts of the top box make the problem's Jacobian singular (their normal
// impulses are not unique), so the solver takes Levenberg–Marquardt steps. These once converged only
// linearly here (3 of the 40 steps Failed, up to 200 iterations), because the ECP's position in the plane was
// scaled by ℓ = g dt², which made its column of the Jacobian ~1e-5 (fixed in ecp_system.cpp: now ≤ 10
// iterations a step). The solution is still ill-conditioned in the top box's velocities: at the default
// tolerance 1e-10 they come out within 3.5e-9 m/s, not kVelocityTol; the scene asks for 1e-12 (≤ 12
// iterations a step) so that the checks below hold at the accuracy of the other tests.
constexpr const char* kStackedBoxes = R"(
<scene name="ecp_stack">
  <physics dt="0.01" duration="1" gravity="0 0 -9.8" contact_model="ecp" mu="0.22">
    <ecp tolerance="1e-12"/>
  </physics>
  <ground/>
  <body name="bottom" mass="4">
    <origin xyz="0 0 0.15"/>
    <collision><geometry><box size="0.6 0.6 0.3"/></geometry></collision>
  </body>
  <body name="top" mass="1">
    <origin xyz="-0.1 0 0.35"/>
    <velocity linear="0.5 0 0"/>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </body>
</scene>)";

TEST(EcpScenes, BoxOnBoxPointContactsAreSolvedWithTheBottomBoxsEcp) {
  StringSceneRun run(kStackedBoxes, "ecp");
  Stepper& stepper = run.stepper;
  GapMeter meter(run.world.model);
  const int bottom = run.link("bottom"), top = run.link("top");
  ASSERT_NE(stepper.assembly().hull_plane()->bodies()[top].hull, nullptr);   // an ECP body too, but far from the ground
  const double dt = stepper.dt(), dv = mu * g * dt;
  // The top box's contact rows are linearised: its gap is held by N v⁺ ≥ −φ/dt, exact for a face that
  // only translates; kPointGapTol allows the collision stage's manifold round-off on top of that.
  constexpr double kPointGapTol = 1e-9;
  int stopped_at = -1, max_iterations = 0;
  for (int k = 1; k <= 40; ++k) {
    const double v = run.velocity("top").x();
    stepper.step(run.state);
    const StepData& d = stepper.data();
    EXPECT_EQ(d.stats.solver_failures, 0) << "step " << k;
    max_iterations = std::max(max_iterations, d.stats.solver_iterations);
    // One island holds both: the bottom box's ECP and the top box's point rows; none replaced but the
    // bottom box's ground rows.
    const BodyPlaneSolution* s = ecp_of(run, bottom);
    EXPECT_EQ(ecp_count(d), 1) << "step " << k;
    ASSERT_NE(s, nullptr);
    EXPECT_NEAR(s->p_n, 5 * g * dt, kImpulseTol) << "the ground carries both boxes, step " << k;
    EXPECT_NEAR(run.velocity("bottom").norm(), 0, kVelocityTol) << "step " << k;
    EXPECT_GE(meter.min_gap(run, top, bottom), -kPointGapTol) << "step " << k;
    EXPECT_GE(meter.min_gap(run, bottom), -kPenetrationTol) << "step " << k;
    const double v_plus = run.velocity("top").x();
    if (v > dv) {
      EXPECT_NEAR(v_plus, v - dv, kVelocityTol) << "step " << k;
    } else {
      EXPECT_NEAR(v_plus, 0, kVelocityTol) << "step " << k;
      if (stopped_at < 0) stopped_at = k;
    }
  }
  EXPECT_EQ(stopped_at, static_cast<int>(std::floor(0.5 / dv)) + 1);
  RecordProperty("max_newton_iterations", max_iterations);
}

}  // namespace
}  // namespace impetus
