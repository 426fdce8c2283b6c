// Compliant contact (contact/compliance.hpp): a spring–damper ground every model honours through the soft
// rows (C3) the assembly gives it. Physics checked: the static sink m g / k, the step-by-step motion of the
// implicit spring–damper (the recurrence (C1)–(C3) make for one contact), the continuous damped oscillator
// it discretises, and a bounce off the spring; scene errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "contact/compliance.hpp"
#include "sim/scene/scene_loader.hpp"
#include "scene_fixture.hpp"

namespace impetus {
namespace {

const char* const kModels[] = {"stewart_trinkle", "no_slip", "viscous", "max_dissipation", "ecp"};

constexpr double kG = 9.81;
/// The sink's error, relative to the sink m g / k: what remains of it is each model's certificate on
/// the impulse (≤ 1e-6 relative: Lemke's ρ, the interior point's 1e-8, Newton's 1e-10, pivoting's 1e-9)
/// divided by the same k; a wrong R or γ in (C2) would be off by a whole factor.
constexpr double kSinkRelTol = 1e-4;
/// Position error against the recurrence of one soft contact (m): the models' certificates leave ~1e-6
/// of an impulse m g dt, i.e. ~1e-6 of the sink per step, damped by the spring's ζ (no accumulation).
constexpr double kRecurrenceTol = 1e-8;

std::string box_scene(double stiffness, double damping, double mass, double size) {
  const std::string h = std::to_string(0.5 * size), s = std::to_string(size);
  return "<scene name=\"soft_box\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/>"
         "<ground stiffness=\"" + std::to_string(stiffness) + "\" damping=\"" + std::to_string(damping) + "\"/>"
         "<body name=\"box\" mass=\"" + std::to_string(mass) + "\"><origin xyz=\"0 0 " + h + "\"/>"
         "<collision><geometry><box size=\"" + s + " " + s + " " + s + "\"/></geometry></collision></body></scene>";
}

std::string sphere_scene(double stiffness, double damping, double mass, double radius, double z0, double dt) {
  return "<scene name=\"soft_sphere\"><physics dt=\"" + std::to_string(dt) + "\" duration=\"1\" mu=\"0.5\"/>"
         "<ground stiffness=\"" + std::to_string(stiffness) + "\" damping=\"" + std::to_string(damping) + "\"/>"
         "<body name=\"ball\" mass=\"" + std::to_string(mass) + "\"><origin xyz=\"0 0 " + std::to_string(z0) + "\"/>"
         "<collision><geometry><sphere radius=\"" + std::to_string(radius) + "\"/></geometry></collision></body>"
         "</scene>";
}

// A 2 kg box resting on a ground of k = 2·10⁴ N/m, critically damped (b = 2√(k m)), settles 1 s: it sits
// m g / k = 0.981 mm deep, level, carried by m g. Every model, the box's four corners sharing the pair's k.
TEST(CompliantContact, BoxRestsAtTheStaticSinkUnderEveryModel) {
  const double k = 2e4, m = 2.0, size = 0.2, b = 2 * std::sqrt(k * m);
  const std::string xml = box_scene(k, b, m, size);
  for (const char* model : kModels) {
    SCOPED_TRACE(model);
    test::SceneRun run(xml.c_str(), "soft_box.xml", model);
    for (int i = 0; i < run.steps_for(1.0); ++i) run.step();
    const double sink = m * kG / k;
    const Eigen::Vector3d p = run.position("box");
    EXPECT_NEAR(0.5 * size - p.z(), sink, kSinkRelTol * sink);
    EXPECT_NEAR(p.x(), 0.0, kSinkRelTol * sink);
    EXPECT_NEAR(p.y(), 0.0, kSinkRelTol * sink);
    EXPECT_NEAR(run.total_normal_impulse(), m * kG * run.dt(), kSinkRelTol * m * kG * run.dt());
    double deepest = 0, shallowest = 1;
    for (const ContactPoint& c : run.stepper.data().contacts) {
      deepest = std::min(deepest, c.phi);
      shallowest = std::min(shallowest, -c.phi);
    }
    EXPECT_NEAR(-deepest, sink, kSinkRelTol * sink) << "the box tilted";
    EXPECT_NEAR(shallowest, sink, kSinkRelTol * sink) << "the box tilted";
    EXPECT_EQ(run.stepper.data().stats.solver_failures, 0);
  }
}

/// One soft contact under gravity, exactly as (C1)–(C3) step it: v* = v − g dt,
/// p = max(0, −(v* + φ̃/dt)/(1/m + R)), v⁺ = v* + p/m, φ⁺ = φ + dt v⁺.
struct SoftRecurrence {
  double m, dt;
  SoftRow row;
  double phi, v;
  void step() {
    const double v_star = v - kG * dt;
    const double p = std::max(0.0, -(v_star + soft_gap(phi, row) / dt) / (1.0 / m + row.R));
    v = v_star + p / m;
    phi += dt * v;
  }
};

/// m ẍ = −k x − b ẋ − m g from x = ẋ = 0 (the spring stays compressed: its force m(g + ẍ) > 0 for
/// ζ < 1 once t > 0, the first overshoot being e^{−ζπ/√(1−ζ²)} < 1 of the load).
double damped_step_response(double k, double b, double m, double t) {
  const double w = std::sqrt(k / m), zeta = b / (2 * std::sqrt(k * m)), wd = w * std::sqrt(1 - zeta * zeta);
  const double sink = m * kG / k;
  return -sink * (1 - std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t)));
}

// A ball set on the ground (φ = 0, at rest) on a spring of ζ = 0.2: every model steps the recurrence above
// to the solvers' accuracy, and the recurrence (backward Euler of the oscillator) stays within its own
// error bound of the continuous damped oscillator.
TEST(CompliantContact, BallOnTheSpringFollowsTheDampedOscillator) {
  const double k = 1e4, m = 1.0, r = 0.05, dt = 1e-4, zeta = 0.2;
  const double b = 2 * zeta * std::sqrt(k * m), w = std::sqrt(k / m);
  const std::string xml = sphere_scene(k, b, m, r, r, dt);
  // Backward Euler's error on the oscillator over a time t: the amplitude decays by (1 + ω²dt²)^(−1/2) per
  // step beyond the true damping, ≈ ω²dt t/2 relatively, and the phase drifts by O(ω³dt²t), both of the
  // sink's size; the damping term adds the same order ζω²dt t. Over 0.1 s at ω dt = 0.01 these are ≤ 0.1 of
  // the sink, and 2× that is the bound.
  const double horizon = 0.1;
  const double sink = m * kG / k;
  const double scheme_bound = 2 * (0.5 + zeta) * w * w * dt * horizon * sink;
  for (const char* model : kModels) {
    SCOPED_TRACE(model);
    test::SceneRun run(xml.c_str(), "soft_sphere.xml", model);
    SoftRecurrence rec{m, dt, soft_row(k, b, dt), 0.0, 0.0};
    double worst_rec = 0, worst_ode = 0;
    for (int i = 0; i < run.steps_for(horizon); ++i) {
      run.step();
      rec.step();
      const double x = run.position("ball").z() - r;
      worst_rec = std::max(worst_rec, std::abs(x - rec.phi));
      worst_ode = std::max(worst_ode, std::abs(x - damped_step_response(k, b, m, (i + 1) * dt)));
    }
    EXPECT_LT(worst_rec, kRecurrenceTol);
    EXPECT_LT(worst_ode, scheme_bound);
    EXPECT_GT(worst_ode, 0.0);
  }
}

// A ball dropped 5 cm onto a spring–damper of ζ = 0.1 leaves it where the spring's push m(g + ẍ) falls to
// zero (the ground never pulls), and rises to the apex the continuous oscillator gives: the contact phase
// x(t) of m ẍ = −k x − b ẋ − m g from x = 0, ẋ = −v₀ in closed form, the release at −k x − b ẋ = 0, then
// free flight. Deepest penetration and apex compared.
TEST(CompliantContact, DroppedBallBouncesAsTheDampedOscillator) {
  const double k = 1e4, m = 1.0, r = 0.05, dt = 1e-4, zeta = 0.1, h = 0.05;
  const double b = 2 * zeta * std::sqrt(k * m), w = std::sqrt(k / m), wd = w * std::sqrt(1 - zeta * zeta);
  const double v0 = std::sqrt(2 * kG * h), sink = m * kG / k;
  // Contact phase: x(t) = −sink + e^{−ζωt}(A cos ω_d t + B sin ω_d t), x(0) = 0, ẋ(0) = −v₀.
  const double A = sink, B = (-v0 + zeta * w * A) / wd;
  const auto x_of = [&](double t) { return -sink + std::exp(-zeta * w * t) * (A * std::cos(wd * t) + B * std::sin(wd * t)); };
  const auto v_of = [&](double t) {
    const double e = std::exp(-zeta * w * t), c = std::cos(wd * t), s = std::sin(wd * t);
    return e * (-zeta * w * (A * c + B * s) + wd * (-A * s + B * c));
  };
  const auto push = [&](double t) { return -k * x_of(t) - b * v_of(t); };
  // Release: the first zero of the push after its maximum, within half a period plus the damping's lead.
  double lo = 0.5 * M_PI / wd, hi = 1.5 * M_PI / wd;
  ASSERT_GT(push(lo), 0);
  ASSERT_LT(push(hi), 0);
  for (int i = 0; i < 200; ++i) (push(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  const double t_r = lo, x_r = x_of(t_r), v_r = v_of(t_r);
  double deepest = 0;
  for (double t = 0; t < t_r; t += 1e-6) deepest = std::min(deepest, x_of(t));
  const double apex = x_r + v_r * v_r / (2 * kG);   // above the undeformed surface

  // Bounds: backward Euler over the contact (≈ π/ω long) loses (ω²dt/2 + ζω²dt)·t_c of the amplitude
  // (see the test above), and the step that first touches is up to dt late or early, v₀·dt in depth
  // and a phase ω dt; the apex, ∝ v², moves by twice the velocity's relative error.
  const double amplitude_rel = (0.5 + zeta) * w * w * dt * t_r + w * dt;
  const double depth_bound = 2 * (amplitude_rel * std::abs(deepest) + v0 * dt);
  const double apex_bound = 2 * 2 * amplitude_rel * apex + v0 * dt;
  ASSERT_GT(apex, 0.01);   // the ball leaves the spring
  for (const char* model : kModels) {
    SCOPED_TRACE(model);
    const std::string xml = sphere_scene(k, b, m, r, r + h, dt);
    test::SceneRun run(xml.c_str(), "soft_sphere.xml", model);
    double sim_deepest = 0, sim_apex = -1;
    bool bounced = false;
    for (int i = 0; i < run.steps_for(0.35); ++i) {
      run.step();
      const double x = run.position("ball").z() - r, vz = run.velocity("ball").z();
      sim_deepest = std::min(sim_deepest, x);
      if (sim_deepest < 0 && x > 0 && vz > 0) bounced = true;
      if (bounced) sim_apex = std::max(sim_apex, x);
    }
    ASSERT_TRUE(bounced);
    EXPECT_NEAR(sim_deepest, deepest, depth_bound);
    EXPECT_NEAR(sim_apex, apex, apex_bound);
  }
}

TEST(CompliantContact, ContactPairOverridesTheGround) {
  // Rigid ground, a spring–damper on the pair: the box sinks m g / k; the same <contact> without a stiffness
  // on a compliant ground keeps the ground's.
  const double k = 5e4, m = 1.0, size = 0.1;
  const std::string pair_soft =
      "<scene name=\"pair\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/><ground/>"
      "<body name=\"box\" mass=\"1\"><origin xyz=\"0 0 0.05\"/>"
      "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></body>"
      "<contact a=\"box\" b=\"ground\" mu=\"0.5\" stiffness=\"50000\" damping=\"447.2\"/></scene>";
  const std::string pair_plain =
      "<scene name=\"pair\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/><ground stiffness=\"50000\" damping=\"447.2\"/>"
      "<body name=\"box\" mass=\"1\"><origin xyz=\"0 0 0.05\"/>"
      "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></body>"
      "<contact a=\"box\" b=\"ground\" mu=\"0.3\"/></scene>";
  for (const std::string& xml : {pair_soft, pair_plain}) {
    test::SceneRun run(xml.c_str(), "pair.xml", "stewart_trinkle");
    for (int i = 0; i < run.steps_for(1.0); ++i) run.step();
    const double sink = m * kG / k;
    EXPECT_NEAR(0.5 * size - run.position("box").z(), sink, kSinkRelTol * sink);
  }
}

// The rigid rows are untouched where no pair is compliant: a box on a rigid ground has exactly as many
// columns as its tree, and its contact rows max(φ, 0).
TEST(CompliantContact, RigidGroundKeepsTheRigidProblem) {
  const std::string xml =
      "<scene name=\"rigid\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/><ground/>"
      "<body name=\"box\" mass=\"1\"><origin xyz=\"0 0 0.0495\"/>"
      "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></body></scene>";
  test::SceneRun run(xml.c_str(), "rigid.xml", "stewart_trinkle");
  run.step();
  ASSERT_EQ(run.stepper.data().problems.size(), 1u);
  const ContactProblem& P = run.stepper.data().problems[0];
  EXPECT_EQ(P.nv, 6);
  EXPECT_EQ(P.systems.size(), 1u);
  for (int i = 0; i < P.nc; ++i) EXPECT_GE(P.phi[i], 0.0);
}

// The soft problem: one extra column per contact, mass 1/R of (C2), a 1 in its normal row, gap φ̃.
TEST(CompliantContact, SoftRowsAreTheAugmentedProblem) {
  const double k = 4e4, b = 100, dt = 0.001;
  const std::string xml =
      "<scene name=\"soft\"><physics dt=\"0.001\" duration=\"1\" mu=\"0.5\"/><ground stiffness=\"40000\" damping=\"100\"/>"
      "<body name=\"box\" mass=\"1\"><origin xyz=\"0 0 0.0495\"/>"
      "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></body></scene>";
  test::SceneRun run(xml.c_str(), "soft.xml", "stewart_trinkle");
  run.step();
  const ContactProblem& P = run.stepper.data().problems[0];
  ASSERT_EQ(P.nc, 4);   // the box's face: four corners, 0.5 mm deep
  EXPECT_EQ(P.nv, 6 + P.nc);
  ASSERT_EQ(P.systems.size(), 1u + P.nc);
  const SoftRow row = soft_row(k / P.nc, b / P.nc, dt);
  const Eigen::MatrixXd N = Eigen::MatrixXd(P.N);
  for (int i = 0; i < P.nc; ++i) {
    const SystemBlock& w = P.systems[1 + i];
    EXPECT_EQ(w.offset, 6 + i);
    EXPECT_EQ(w.size, 1);
    EXPECT_DOUBLE_EQ((*w.M)(0, 0), row.mass);
    for (int j = 0; j < P.nc; ++j) EXPECT_EQ(N(i, 6 + j), i == j ? 1.0 : 0.0);
    EXPECT_EQ(Eigen::MatrixXd(P.S).col(6 + i).norm(), 0.0);
    EXPECT_EQ(Eigen::MatrixXd(P.T).col(6 + i).norm(), 0.0);
    EXPECT_EQ(P.v_star[6 + i], 0.0);
    const double phi = run.stepper.data().contacts[i].phi;
    EXPECT_DOUBLE_EQ(P.phi[i], phi < 0 ? row.gamma * phi : phi);
  }
}

TEST(CompliantContact, SceneErrors) {
  const auto refused = [](const std::string& ground, const std::string& expected) {
    const std::string xml = "<scene name=\"e\"><physics dt=\"0.001\" duration=\"1\"/>\n" + ground +
                            "\n<body name=\"box\" mass=\"1\"><collision><geometry><box size=\"1 1 1\"/></geometry>"
                            "</collision></body></scene>";
    try {
      load_scene_string(xml.c_str(), "e.xml");
      ADD_FAILURE() << "accepted " << ground;
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("e.xml:2"), std::string::npos) << what;
      EXPECT_NE(what.find(expected), std::string::npos) << what;
    }
  };
  refused("<ground stiffness=\"0\"/>", "stiffness");
  refused("<ground stiffness=\"-1\"/>", "stiffness");
  refused("<ground stiffness=\"inf\"/>", "stiffness");
  refused("<ground stiffness=\"1e4\" damping=\"-2\"/>", "damping");
  refused("<ground damping=\"10\"/>", "damping needs a stiffness");
  refused("<ground/><contact a=\"box\" b=\"ground\" damping=\"10\"/>", "damping needs a stiffness");
}

}  // namespace
}  // namespace impetus
