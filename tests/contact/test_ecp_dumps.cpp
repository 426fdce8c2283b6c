// The ECP model (contact/ecp/ecp_model.hpp) on island problems dumped from a run
// (`impetus run scenes/fast_drop_small.xml --model ecp --dump-problems DIR`, one island kept per file):
// the steps where it failed before the minimum-norm Newton step (semismooth_newton.hpp S5′) and the
// point-contact fallback.
#include <gtest/gtest.h>

#include <string>

#include "contact/dump/problem_dump.hpp"
#include "contact/ecp/ecp_model.hpp"
#include "contact/hull_plane.hpp"

namespace impetus::test {
namespace {

/// Kinetic energy the step may add, relative to ½v*ᵀMv*: max_dissipation's interior point stops at a relative
/// duality gap of 1e-11 (MaxDissipationOptions::gap_tolerance), which bounds phase II's energy above its
/// optimum by that fraction; 1e-10 leaves a factor ten. A failed ECP run added 1.5 J of 10 J.
constexpr double kEnergyTolerance = 1e-10;
/// Non-penetration rate of the point rows (m/s): max_dissipation accepts rows that hold to its check
/// tolerance 1e-6 (MaxDissipationOptions::check_tolerance, relative to velocities of ~1 m/s here).
constexpr double kGapRateTolerance = 1e-6;

ProblemDump load(const char* file) {
  return read_problem_dump(std::string(IMPETUS_SOURCE_DIR "/tests/contact/data/") + file);
}

double kinetic_energy(const ContactProblem& P, const Eigen::VectorXd& v) {
  double e = 0;
  for (const SystemBlock& s : P.systems) {
    const Eigen::VectorXd v_s = v.segment(s.offset, s.size);
    e += 0.5 * v_s.dot(*s.M * v_s);
  }
  return e;
}

// Step 499 (t = 0.996 s), island 0: a box landing on a face beside a box it touches. The point rows off
// contact leave their slip rates free (three exact zero columns of H), so every run used to go to
// Levenberg–Marquardt, whose λ floor (5.7e-7) exceeds σ² = 1.6e-8 of the landing: the residual crawled
// from 5e-9 to 1.4e-9 over 46 iterations, every run failed.
TEST(EcpDumps, FaceLandingBesideContactsOffIsSolvedByTheModelItself) {
  const ProblemDump dump = load("fast_drop_small_ecp_step499.icp");
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& P = dump.problems.front()->problem;
  EcpModel model;
  ContactResult r;
  model.solve(P, r);
  EXPECT_EQ(r.stats.status, SolveStatus::Solved) << r.stats.message;
  EXPECT_LE(r.stats.residual, model.options().tolerance);
  const HullPlaneResult* pairs = r.extension.find<HullPlaneResult>();
  ASSERT_NE(pairs, nullptr);
  ASSERT_EQ(pairs->pairs.size(), 1u);
  // (E6′) with φ_floor = 0 (the box starts above the plane): the hull ends above it within the scaled
  // tolerance (tolerance·ℓ ≪ 1e-12 m).
  EXPECT_GE(pairs->pairs.front().gap, -1e-12);
}

// Step 485 (t = 0.968 s), island 0: two boxes, one of them an ECP body, with two nearly redundant sticking
// contacts between them (an internal friction impulse with singular value 9e-6). Every ECP run stalls,
// and so does the Newton method on the point rows; the max_dissipation fallback solves it.
TEST(EcpDumps, IslandNoStartSolvesFallsBackToPointContactsWithoutEnergyGain) {
  const ProblemDump dump = load("fast_drop_small_ecp_step485.icp");
  ASSERT_EQ(dump.problems.size(), 1u);
  const ContactProblem& P = dump.problems.front()->problem;
  EcpModel model;
  ContactResult r;
  model.solve(P, r);
  ASSERT_NE(r.stats.status, SolveStatus::Failed) << r.stats.message;
  EXPECT_TRUE(r.v_plus.allFinite());
  const double before = kinetic_energy(P, P.v_star), after = kinetic_energy(P, r.v_plus);
  EXPECT_LE(after, before * (1 + kEnergyTolerance)) << "KE(v*) " << before << " J, KE(v⁺) " << after << " J";
  if (r.stats.status == SolveStatus::Fallback) {
    EXPECT_NE(r.stats.message.find("point contacts"), std::string::npos) << r.stats.message;
    EXPECT_NE(r.stats.message.find("semismooth Newton failed from every start"), std::string::npos);
    EXPECT_TRUE(r.q_plus_systems.empty());   // the stepper integrates the bodies itself
    // Non-penetration of the point rows (E9), with the gap the assembly gives them (max(φ, 0)).
    const Eigen::VectorXd gap_rate = P.N * r.v_plus + P.phi.cwiseMax(0.0) / P.dt;
    EXPECT_GE(gap_rate.minCoeff(), -kGapRateTolerance) << gap_rate.transpose();
  }
}

}  // namespace
}  // namespace impetus::test
