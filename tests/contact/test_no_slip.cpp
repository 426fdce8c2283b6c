// The no-slip model (contact/no_slip/no_slip_model.hpp) on hand-built problems, with
// answers derived from the model (NS1)–(NS4).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "contact/dump/problem_dump.hpp"
#include "contact/factory.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "test_no_slip_fixtures.hpp"

namespace impetus {
namespace {

using test::BodySpec;
using test::ContactSpec;
using test::ProblemBuilder;

// (NS2)–(NS3), dropped rows included: |S v⁺|, |T v⁺| < 1e-9 and N v⁺ ≥ −φ/dt − 1e-9 (m/s). The no-slip rows
// are equalities solved by elimination, exact to round-off (~1e-15 m/s here); the unilateral rows are
// accepted at ρ ≤ certificate_tolerance = 1e-9 of the velocity scale (unilateral_projection.hpp, UP2),
// and these problems' velocities (g·dt, the ±1–3 m/s set) keep that scale near 1 m/s.
constexpr double kVelocityTol = 1e-9;
// Identities of one solve (momentum balance, energy, a resting box): roundoff ~1e-15 of the problem's
// velocity and impulse scales; 1e-12 leaves three orders of margin.
constexpr double kRoundoff = 1e-12;
// Invariances compare two solves that select different rows (FIND-INDICES keeps other S/T rows,
// pivoting another active set): each v⁺ carries roundoff ~1e-16·cond(D), and the Delassus matrices
// of these boxes (masses 0.7–2 kg, lever arms 0.05–0.15 m) have cond(D) up to ~1e4–1e5.
constexpr double kInvariance = 1e-10;
// A normal impulse is counted as positive above this (N·s): far below the impulses of these problems
// (≥ 1e-3 N·s) and far above the roundoff of a zero one.
constexpr double kPositiveImpulse = 1e-10;
constexpr double kG = 9.81;

const Eigen::Vector3d kBoxSize(0.2, 0.3, 0.1);

/// A box resting on the ground z = 0, bottom corners at z = 0 (φ = 0), copies of each corner.
ProblemBuilder box_on_ground(int copies = 1, double mass = 2.0, const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  ProblemBuilder b;
  const Eigen::Vector3d C = R * Eigen::Vector3d(0, 0, kBoxSize.z() / 2);
  b.add(test::free_box(mass, kBoxSize, C, R));
  const Eigen::Vector3d n = R * Eigen::Vector3d::UnitZ();
  int feature = 0;
  for (const Eigen::Vector3d& p : test::face_corners(C, R, kBoxSize / 2, 2, -1))
    for (int c = 0; c < copies; ++c) {
      ContactSpec s;
      s.a = 0;
      s.p = p;
      s.n = n;
      s.tangent_angle = 0.7 * c;   // duplicates with different tangent bases
      s.key = {0, -1, feature++};
      b.contacts.push_back(s);
    }
  return b;
}

/// Every property of (NS1)–(NS3) on a result, and the sizes of its vectors. `st_tolerance` (nc), when
/// given, replaces kVelocityTol for |S_i v⁺| and |T_i v⁺| of contact i.
void expect_no_slip_solution(const ContactProblem& P, const ContactResult& r,
                             const Eigen::VectorXd* st_tolerance = nullptr) {
  ASSERT_EQ(r.v_plus.size(), P.nv);
  ASSERT_TRUE(r.v_plus.allFinite());
  EXPECT_NE(r.stats.status, SolveStatus::Failed) << r.stats.message;
  const Eigen::VectorXd s = P.S * r.v_plus, t = P.T * r.v_plus, w = P.N * r.v_plus + P.phi / P.dt;
  for (int i = 0; i < P.nc; ++i) {
    const double tol = st_tolerance ? (*st_tolerance)[i] : kVelocityTol;
    EXPECT_LT(std::abs(s[i]), tol) << "S row " << i;
    EXPECT_LT(std::abs(t[i]), tol) << "T row " << i;
    EXPECT_GE(w[i], -kVelocityTol) << "N row " << i;
    EXPECT_GE(r.p_N[i], -kPositiveImpulse) << "p_N " << i;
    EXPECT_LT(std::abs(r.p_N[i] * w[i]), kVelocityTol * std::max(1.0, r.p_N.cwiseAbs().maxCoeff())) << "p_N ⊥ w, " << i;
  }
  if (P.nl > 0) {
    const Eigen::VectorXd wl = P.L * r.v_plus + P.phi_L / P.dt;
    for (int i = 0; i < P.nl; ++i) {
      EXPECT_GE(wl[i], -kVelocityTol);
      EXPECT_GE(r.p_L[i], -kPositiveImpulse);
    }
  }
  // (NS1): M (v⁺ − v*) = Nᵀp_N + Sᵀp_S + Tᵀp_T + Lᵀp_L, block by block.
  Eigen::VectorXd impulse = P.N.transpose() * r.p_N + P.S.transpose() * r.p_S + P.T.transpose() * r.p_T;
  if (P.nl > 0) impulse += P.L.transpose() * r.p_L;
  for (const SystemBlock& b : P.systems) {
    const Eigen::VectorXd lhs = *b.M * (r.v_plus - P.v_star).segment(b.offset, b.size);
    EXPECT_LT((lhs - impulse.segment(b.offset, b.size)).norm(), kRoundoff * std::max(1.0, impulse.norm()));
  }
}

int positive_count(const Eigen::VectorXd& p) { return static_cast<int>((p.array() > kPositiveImpulse).count()); }

int rank_of(const SparseRows& A) {
  Eigen::MatrixXd D = Eigen::MatrixXd(A);
  if (D.rows() == 0) return 0;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(D);
  lu.setThreshold(1e-10);
  return static_cast<int>(lu.rank());
}

TEST(NoSlip, RestingBoxStaysAtRestCarriedByItsWeightWithAtMostRankNImpulses) {
  for (int copies : {1, 3}) {
    ProblemBuilder b = box_on_ground(copies);
    const ContactProblem P = b.build(Eigen::VectorXd::Zero(6), b.gravity_force());
    NoSlipModel model;
    ContactResult r;
    model.solve(P, r);
    expect_no_slip_solution(P, r);
    EXPECT_LT(r.v_plus.norm(), kRoundoff);
    EXPECT_NEAR(r.p_N.sum(), 2.0 * kG * P.dt, kRoundoff);   // Σ p_N = m g dt
    EXPECT_LE(positive_count(r.p_N), rank_of(P.N));         // Lemma 1: rank(N) = 3 (z, roll, pitch)
    EXPECT_EQ(rank_of(P.N), 3);
    EXPECT_EQ(r.report_as<NoSlipReport>().indices.rank, 3);         // [S; T]: x, y, yaw
    EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  }
}

TEST(NoSlip, BoxOnAThirtyDegreeInclineDoesNotSlideStepAfterStep) {
  // The box rests on an incline turned −30° about y (surface rising along +x, as scenes/incline_stick).
  const double theta = M_PI / 6;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(-theta, Eigen::Vector3d::UnitY()).toRotationMatrix();
  ProblemBuilder b = box_on_ground(1, 1.0, R);
  NoSlipModel model;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  ContactResult r;
  for (int step = 0; step < 100; ++step) {
    ContactProblem P = b.build(v, b.gravity_force());
    if (step > 0) P.p_N_guess = r.p_N;   // warm start, as the stepper does
    model.solve(P, r);
    expect_no_slip_solution(P, r);
    v = r.v_plus;
    ASSERT_LT(v.norm(), kRoundoff) << "step " << step;
    // The contact impulse carries the whole weight: Σ(N p_N + S p_S + T p_T) = −m g dt (linear part).
    const Eigen::VectorXd impulse = P.N.transpose() * r.p_N + P.S.transpose() * r.p_S + P.T.transpose() * r.p_T;
    EXPECT_NEAR(impulse[2], 1.0 * kG * P.dt, kRoundoff);
    if (step > 0) {
      EXPECT_EQ(r.stats.iterations, 0) << "warm start should need no pivot";
    }
  }
}

/// Two boxes stacked on the ground with random velocities: redundancy across bodies.
ProblemBuilder stacked_boxes(std::mt19937& rng, int copies) {
  ProblemBuilder b;
  std::uniform_real_distribution<double> angle(0, 2 * M_PI);
  const Eigen::Vector3d C0(0, 0, kBoxSize.z() / 2), C1(0.03, -0.02, 1.5 * kBoxSize.z());
  b.add(test::free_box(2.0, kBoxSize, C0));
  b.add(test::free_box(0.7, kBoxSize, C1));
  int f = 0;
  for (const Eigen::Vector3d& p : test::face_corners(C0, Eigen::Matrix3d::Identity(), kBoxSize / 2, 2, -1))
    for (int c = 0; c < copies; ++c) {
      ContactSpec s;
      s.a = 0;
      s.p = p;
      s.tangent_angle = angle(rng);
      s.key = {0, -1, f++};
      b.contacts.push_back(s);
    }
  for (const Eigen::Vector3d& p : test::face_corners(C1, Eigen::Matrix3d::Identity(), kBoxSize / 2, 2, -1))
    for (int c = 0; c < copies; ++c) {
      ContactSpec s;
      s.a = 1;
      s.b = 0;
      s.p = p;
      s.tangent_angle = angle(rng);
      s.key = {1, 0, f++};
      b.contacts.push_back(s);
    }
  return b;
}

TEST(NoSlip, ImpactsDissipateExactlyTheProjectionEnergyAndStopEverySlip) {
  // No applied force and φ = 0: v⁺ is the M-projection of v⁻ on a cone (NS4), so
  // KE⁻ − KE⁺ = ½ (v⁻ − v⁺)ᵀ M (v⁻ − v⁺).
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0, 1);
  for (int trial = 0; trial < 50; ++trial) {
    ProblemBuilder b = stacked_boxes(rng, 1 + trial % 3);
    Eigen::VectorXd v(12);
    for (int k = 0; k < 12; ++k) v[k] = normal(rng);
    const ContactProblem P = b.build(v);
    NoSlipModel model;
    ContactResult r;
    model.solve(P, r);
    expect_no_slip_solution(P, r);
    const Eigen::VectorXd dv = v - r.v_plus;
    EXPECT_NEAR(P.kinetic_energy(v) - P.kinetic_energy(r.v_plus), P.kinetic_energy(dv),
                kRoundoff * std::max(1.0, P.kinetic_energy(v)));
    EXPECT_LE(positive_count(r.p_N), rank_of(P.N));
  }
}

TEST(NoSlip, DuplicatingEveryContactOrTurningTheTangentsLeavesVPlusUnchanged) {
  for (int seed = 0; seed < 20; ++seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    Eigen::VectorXd v(12);
    for (int k = 0; k < 12; ++k) v[k] = normal(rng);
    std::mt19937 rng1(100 + seed), rng2(200 + seed), rng3(300 + seed);
    ProblemBuilder once = stacked_boxes(rng1, 1);
    ProblemBuilder twice = stacked_boxes(rng2, 2);   // every contact twice, other tangents
    ProblemBuilder turned = stacked_boxes(rng3, 1);  // the same contacts, other tangents
    NoSlipModel model;
    ContactResult r1, r2, r3;
    const ContactProblem P1 = once.build(v, once.gravity_force());
    model.solve(P1, r1);
    const ContactProblem P2 = twice.build(v, twice.gravity_force());
    model.solve(P2, r2);
    const ContactProblem P3 = turned.build(v, turned.gravity_force());
    model.solve(P3, r3);
    expect_no_slip_solution(P2, r2);
    EXPECT_LT((r1.v_plus - r2.v_plus).norm(), kInvariance * std::max(1.0, v.norm())) << "seed " << seed;
    EXPECT_LT((r1.v_plus - r3.v_plus).norm(), kInvariance * std::max(1.0, v.norm())) << "seed " << seed;
  }
}

TEST(NoSlip, AFullyConstrainedBodyStops) {
  // A box held at four non-coplanar contacts by no-slip rows of full rank: G spans all six
  // directions, so P = 0 and v⁺ = 0 whatever v* (notes §6.1).
  ProblemBuilder b;
  b.add(test::free_box(1.0, kBoxSize, Eigen::Vector3d::Zero()));
  const Eigen::Vector3d h = kBoxSize / 2;
  for (const auto& [p, n] : {std::pair{Eigen::Vector3d(h.x(), h.y(), 0), Eigen::Vector3d(-1, 0, 0)},
                             std::pair{Eigen::Vector3d(-h.x(), 0, h.z()), Eigen::Vector3d(1, 0, 0)},
                             std::pair{Eigen::Vector3d(0, -h.y(), -h.z()), Eigen::Vector3d(0, 1, 0)}}) {
    ContactSpec s;
    s.a = 0;
    s.p = p;
    s.n = n;
    b.contacts.push_back(s);
  }
  Eigen::VectorXd v(6);
  v << 0.3, -1, 2, 0.5, 0.1, -0.7;
  const ContactProblem P = b.build(v, b.gravity_force());
  NoSlipModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_EQ(r.report_as<NoSlipReport>().indices.rank, 6);
  EXPECT_LT(r.v_plus.norm(), kRoundoff);
  EXPECT_EQ(r.p_N.size(), 3);
}

TEST(NoSlip, SliderStopsAtItsJointLimitWithAFrictionlessLimitImpulse) {
  // A slider (1 DoF along x, mass 2) moving at −3 m/s reaches its lower limit within this step
  // (φ_L = 0.01 m, dt = 0.01 s): L v⁺ ≥ −φ_L/dt gives v⁺ = −1 m/s, p_L = m·(−1 − (−3)) = 4 N·s.
  ProblemBuilder b;
  BodySpec slider;
  slider.kind = BodySpec::Kind::Slider;
  slider.mass = 2;
  b.add(slider);
  b.limits.push_back({0, 0, +1.0, 0.01});
  Eigen::VectorXd v(1);
  v << -3;
  const ContactProblem P = b.build(v);
  NoSlipModel model;
  ContactResult r;
  model.solve(P, r);
  expect_no_slip_solution(P, r);
  EXPECT_NEAR(r.v_plus[0], -1.0, kRoundoff);
  EXPECT_NEAR(r.p_L[0], 4.0, kRoundoff);
}

TEST(NoSlip, LemkeSolverAgreesWithPrincipalPivotingAndSeparatingContactsAreFree) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0, 1);
  NoSlipOptions lemke_options;
  lemke_options.projection.solver = ProjectionSolver::Lemke;
  NoSlipModel pivoting, lemke(lemke_options);
  for (int trial = 0; trial < 30; ++trial) {
    ProblemBuilder b = stacked_boxes(rng, 1 + trial % 2);
    for (ContactSpec& c : b.contacts) c.phi = 0.002 * normal(rng);   // some open, some penetrating
    Eigen::VectorXd v(12);
    for (int k = 0; k < 12; ++k) v[k] = normal(rng);
    const ContactProblem P = b.build(v, b.gravity_force());
    ContactResult r1, r2;
    pivoting.solve(P, r1);
    lemke.solve(P, r2);
    expect_no_slip_solution(P, r1);
    ASSERT_EQ(r2.stats.status, SolveStatus::Solved) << r2.stats.message;
    // v⁺ is unique (NS4); Lemke's certificate is 1e-6 of the problem's scale.
    constexpr double kLemkeAgreement = 1e-6;
    EXPECT_LT((r1.v_plus - r2.v_plus).norm(), kLemkeAgreement * std::max(1.0, v.norm())) << "trial " << trial;
  }
}

TEST(NoSlip, StickGapLeavesDistantContactsFrictionless) {
  // A box sliding at 1 m/s, 1 mm above the ground (within the collision margin), no gravity. With
  // the paper's model every contact sticks: the bottom corners stop (the box pitches about them,
  // since they lie below its centre). With stick_gap = 0 the contacts are open and constrain nothing
  // this step (N v⁺ ≥ −φ/dt holds with v⁺ = v*).
  ProblemBuilder b = box_on_ground();
  for (ContactSpec& c : b.contacts) c.phi = 1e-3;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[0] = 1;
  const ContactProblem P = b.build(v);
  NoSlipModel paper;
  NoSlipOptions gap_options;
  gap_options.stick_gap = 0;
  NoSlipModel gated(gap_options);
  ContactResult r1, r2;
  paper.solve(P, r1);
  gated.solve(P, r2);
  expect_no_slip_solution(P, r1);
  EXPECT_GT((r1.v_plus - v).norm(), 0.1);
  EXPECT_LT((r2.v_plus - v).norm(), kRoundoff);
  EXPECT_EQ(r2.report_as<NoSlipReport>().indices.rank, 0);
}

// Corpus robots lying on the ground (bench_corpus_robots --model no_slip --dump-problems): feasible
// problems (every φ ≥ 0, so v = 0 meets every row) that both solvers failed on.
void expect_solved_dump(const char* file) {
  const ProblemDump dump = read_problem_dump(std::string(IMPETUS_SOURCE_DIR "/tests/contact/data/") + file);
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& P = dump.problems.front()->problem;
  ASSERT_GE(P.phi.minCoeff(), 0.0) << "the fixture must be feasible";
  NoSlipModel model;
  ContactResult r;
  model.solve(P, r);
  SCOPED_TRACE(file);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LE(r.stats.residual, ProjectionOptions{}.certificate_tolerance);
  // Rows FIND-INDICES kept meet (NS2) to kVelocityTol; a dropped row (sin²θ ≤ τ_G to the rows kept)
  // only to sinθ·‖c‖_{M⁻¹}·‖v⁺‖_M (no_slip_model.hpp), plus the same roundoff.
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(P.nv, P.nv);
  for (const SystemBlock& b : P.systems) M.block(b.offset, b.offset, b.size, b.size) = *b.M;
  const Eigen::MatrixXd M_inverse = M.inverse();
  const double v_norm = std::sqrt(r.v_plus.dot(M * r.v_plus));
  const double sin_theta = std::sqrt(kNoSlipRetryDependence);   // the larger τ_G of the two attempts (NS5)
  const Eigen::MatrixXd S = Eigen::MatrixXd(P.S), T = Eigen::MatrixXd(P.T);
  const NoSlipReport& report = r.report_as<NoSlipReport>();
  Eigen::VectorXd tolerance(P.nc);
  for (int i = 0; i < P.nc; ++i) {
    const bool kept = report.indices.s_position[i] >= 0 && report.indices.t_position[i] >= 0;
    const double c_norm = std::max(std::sqrt(S.row(i).dot(M_inverse * S.row(i).transpose())),
                                   std::sqrt(T.row(i).dot(M_inverse * T.row(i).transpose())));
    tolerance[i] = kVelocityTol + (kept ? 0.0 : sin_theta * c_norm * v_norm);
  }
  expect_no_slip_solution(P, r, &tolerance);
}

TEST(NoSlip, HyqLyingOnItsLegsIsSolvedByPivoting) {
  // Step 715 of hyq: nv = 18, 8 contacts. Two no-slip rows of one foot at sin²θ = 1.8e-12 and 1.7e-10
  // to the rows before them were kept with τ_G = 1e-12: cond(D) ~ 1e12, λ_G ~ 1e8, N v⁺ off by
  // 0.15 m/s, a normal row judged dependent on G with every ρ ≤ 0 and marked infeasible; Lemke's
  // fallback ended on a ray. With τ_G = 1e-10 (NoSlipOptions) pivoting meets the certificate.
  expect_solved_dump("hyq_lying_no_slip_step715.icp");
}

TEST(NoSlip, AllegroHandOnItsBackMeetsItsLockedJointLimitAfterRefinement) {
  // Step 1465 of allegro_right on its back: G keeps rows at sin²θ ~ 1e-8 (cond(D) ~ 1e8), so the plain
  // solve of (D2) leaves a joint-limit row — a combination of the no-slip rows of its locked links —
  // at w = −5e-10 m/s, twice τ_w: taken for infeasible, then a Lemke ray. The refinement (D5) brings
  // it to roundoff.
  expect_solved_dump("allegro_no_slip_step1465.icp");
}

TEST(NoSlip, JacoWithItsFingersOnTheFloorIsSolvedByTheRetry) {
  // Step 1083 of jaco_j2s7s300 (fixed base): G of rank nv = 10 with a row kept at sin²θ = 2e-10, so
  // v⁺ should be 0 but comes out with N v⁺ off by 0.02 m/s while G v⁺ = 0 to roundoff: a row taken for
  // infeasible, Lemke as the fallback (431 such steps in 2 s). The retry at kNoSlipRetryDependence
  // (NS5) meets the certificate.
  expect_solved_dump("jaco_fingers_down_no_slip_step1083.icp");
}

TEST(NoSlip, AtlasStepThatBothSolversFailedIsSolvedByTheRetry) {
  // Step 101 of atlas under no_slip (nv = 36, 28 contacts, 6 joint limits): pivoting cycled and
  // Lemke missed its certificate (the corpus test's known failure); the retry (NS5) solves it.
  expect_solved_dump("atlas_no_slip_step101.icp");
}

// A box spinning about the vertical at one corner p on the ground, with a second contact at p + ε·x̂. Its
// S row equals the first's and its T row differs by ε·ω_z, sin²θ ~ ε²/(I_zz‖T‖²_{M⁻¹}) to the rows before
// it (2e-11 at ε = 1 µm): FIND-INDICES drops both (τ_G = 1e-10), and the T row slips at ε·ω_z⁺, far above
// the certificate when the pivot about p leaves ω_z⁺ ≠ 0.
ProblemBuilder box_on_two_near_points(double epsilon) {
  ProblemBuilder b;
  const Eigen::Vector3d C(0, 0, kBoxSize.z() / 2);
  b.add(test::free_box(2.0, kBoxSize, C));
  const Eigen::Vector3d p = C - kBoxSize / 2;
  for (const Eigen::Vector3d& q : {p, Eigen::Vector3d(p + epsilon * Eigen::Vector3d::UnitX())}) {
    ContactSpec s;
    s.a = 0;
    s.p = q;
    s.key = {0, -1, static_cast<int>(b.contacts.size())};
    b.contacts.push_back(s);
  }
  return b;
}

/// Spinning about the vertical at ω_z = 1 rad/s.
Eigen::VectorXd spin() {
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[5] = 1.0;
  return v;
}

// Solved means (NS2) met on every sticking row, dropped ones included (NS6): |S_i v⁺|, |T_i v⁺| within
// certificate_tolerance·s_v, and s_v (UP2: the largest |row·v*| and |φ/dt| of the rows) at most that of N, S, T;
// or, for a row FIND-INDICES dropped, (NS7): v⁺ exact for the row changed by e_W = |c v⁺|/(‖c‖_{M⁻¹}‖v⁺‖_M) ≤ 1e-7
// of it, recomputed here from the problem's M.
void expect_status_tells_the_truth(const ContactProblem& P, const ContactResult& r) {
  const double tolerance = ProjectionOptions{}.certificate_tolerance;
  constexpr double kDroppedRowResolution = 1e-7;   // no_slip_model.cpp (NS7)
  const double s_v = std::max({(P.N * P.v_star).cwiseAbs().maxCoeff(), (P.S * P.v_star).cwiseAbs().maxCoeff(),
                               (P.T * P.v_star).cwiseAbs().maxCoeff(), (P.phi / P.dt).cwiseAbs().maxCoeff()});
  const NoSlipReport& report = r.report_as<NoSlipReport>();
  const double slip = std::max((P.S * r.v_plus).cwiseAbs().maxCoeff(), (P.T * r.v_plus).cwiseAbs().maxCoeff());
  EXPECT_NEAR(report.equality_residual, slip, kRoundoff);
  if (r.stats.status != SolveStatus::Solved) return;
  EXPECT_LE(r.stats.residual, tolerance);
  const double v_norm = std::sqrt(2 * P.kinetic_energy(r.v_plus));
  for (const auto& [R, position] : {std::pair{&P.S, &report.indices.s_position},
                                    std::pair{&P.T, &report.indices.t_position}})
    for (int i = 0; i < P.nc; ++i) {
      const Eigen::VectorXd c = R->row(i).transpose();
      const double slip_i = std::abs(c.dot(r.v_plus));
      if (slip_i <= tolerance * s_v) continue;
      EXPECT_LT((*position)[i], 0) << "Solved, yet a row held slips: " << slip_i << " m/s";
      Eigen::VectorXd M_inverse_c;
      P.solve_M(c, M_inverse_c);
      const double scale = std::sqrt(c.dot(M_inverse_c)) * v_norm;
      const double e_W = slip_i / scale;
      EXPECT_LE(e_W, kDroppedRowResolution) << "Solved, yet a dropped row slips beyond its dependence";
      // The slip is a sum cancelling to ~1e-10 of its terms: its rounding, γ_nv Σ|c_j v_j|, over the scale.
      const double rounding = P.nv * std::numeric_limits<double>::epsilon() * c.cwiseAbs().dot(r.v_plus.cwiseAbs());
      EXPECT_GE(report.dropped_row_backward_error, e_W - rounding / scale);
    }
}

// The same box at contacts ε apart, from independent rows to rows dependent within roundoff: the status says
// whether every row meets the certificate. sin²θ ~ 20 ε²/m² (2e-11 at ε = 1 µm): at 100 µm FIND-INDICES keeps the
// T row (sin²θ 2e-7 > τ_G = 1e-10), at 1 µm and 100 nm it drops it and (NS6) holds it (sin²θ above
// kHoldDependence = 1e-14): Solved. At 1 nm and 1 pm sin²θ ≤ 2e-17, the roundoff of its own computation:
// whether held, certified by its backward error (NS7) or not, only the truth of the status is asserted.
class NoSlipNearPoints : public ::testing::TestWithParam<double> {};

TEST_P(NoSlipNearPoints, TheStatusSaysWhetherEveryRowMeetsTheCertificate) {
  const double epsilon = GetParam();
  ProblemBuilder b = box_on_two_near_points(epsilon);
  const ContactProblem P = b.build(spin());
  NoSlipModel model;
  ContactResult r;
  model.solve(P, r);
  expect_status_tells_the_truth(P, r);
  if (epsilon >= 1e-7) {
    EXPECT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Epsilon, NoSlipNearPoints, ::testing::Values(1e-4, 1e-6, 1e-7, 1e-9, 1e-12));

TEST(NoSlip, EmptyProblemsPassTheFreeVelocityThrough) {
  ProblemBuilder b;
  b.add(test::free_box(1.0, kBoxSize, Eigen::Vector3d::Zero()));
  Eigen::VectorXd v(6);
  v << 1, 2, 3, 4, 5, 6;
  const ContactProblem P = b.build(v, b.gravity_force());
  NoSlipModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved);
  EXPECT_LT((r.v_plus - P.v_star).norm(), kRoundoff);
  EXPECT_EQ(r.p_N.size(), 0);
}

TEST(NoSlip, OptionsParseAndRefuseUnknownKeysAndBadValues) {
  const NoSlipOptions o = NoSlipOptions::parse(
      {{"solver", "lemke"}, {"max_pivots", "50"}, {"zero_tolerance", "1e-12"}, {"warm_start", "false"},
       {"dependence_tolerance", "1e-10"}, {"certificate_tolerance", "1e-8"}, {"stick_gap", "0.001"},
       {"equality_dependence_tolerance", "1e-9"}});
  EXPECT_EQ(o.projection.solver, ProjectionSolver::Lemke);
  EXPECT_EQ(o.projection.pivoting.max_pivots, 50);
  EXPECT_EQ(o.projection.pivoting.zero_tolerance, 1e-12);
  EXPECT_FALSE(o.projection.warm_start);
  EXPECT_EQ(o.projection.pivoting.dependence_tolerance, 1e-10);
  EXPECT_EQ(o.projection.certificate_tolerance, 1e-8);
  EXPECT_EQ(o.stick_gap, 0.001);
  EXPECT_EQ(o.equality_dependence_tolerance, 1e-9);
  EXPECT_THROW(NoSlipOptions::parse({{"equality_dependence_tolerance", "0"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"equality_dependence_tolerance", "0.6"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"friction_edges", "4"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"solver", "dantzig"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"max_pivots", "-1"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"max_pivots", "12x"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"zero_tolerance", "0"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"warm_start", "maybe"}}), OptionError);
  EXPECT_THROW(NoSlipOptions::parse({{"stick_gap", "nan"}}), OptionError);
}

TEST(NoSlip, FactoryBuildsItWithItsOptions) {
  ASSERT_TRUE(is_contact_model("no_slip"));
  EXPECT_EQ(make_contact_model("no_slip", {})->name(), "no_slip");
  EXPECT_THROW(make_contact_model("no_slip", {{"bogus", "1"}}), OptionError);
}

}  // namespace
}  // namespace impetus
