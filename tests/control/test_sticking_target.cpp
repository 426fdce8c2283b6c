// The ID target made consistent with its contacts (control/sticking_target.hpp).
#include <gtest/gtest.h>

#include "control/sticking_target.hpp"

namespace impetus {
namespace {

SparseRows rows(const Eigen::MatrixXd& dense) { return dense.sparseView(); }

/// A base x and two legs q1, q2 on it, each with a foot whose tangential velocity is ẋ + q̇_k (S rows); the
/// normal and second tangential rows are zero. Sticking both feet asks ẋ = −q̇1 = −q̇2: the legs must turn
/// alike, and the nearest such target to (a, b) is ((a + b)/2, (a + b)/2).
struct TwoFeet {
  ContactProblem contact;
  InverseDynamicsProblem problem;
  TwoFeet() {
    contact.nc = 2;
    contact.nv = 3;
    Eigen::MatrixXd S(2, 3);
    S << 1, 1, 0, 1, 0, 1;
    contact.N = rows(Eigen::MatrixXd::Zero(2, 3));
    contact.S = rows(S);
    contact.T = rows(Eigen::MatrixXd::Zero(2, 3));
    problem.contact = &contact;
    problem.actuated = {1, 2};
  }
};

// Rounding of a 3×3 SVD and least squares on entries of order 1.
constexpr double kRound = 1e-14;

TEST(StickingTarget, AnInconsistentTargetBecomesTheNearestConsistentOne) {
  TwoFeet feet;
  Eigen::VectorXd qd(2);
  StickingTargetWorkspace ws;
  qd << 0.3, -0.1;
  make_sticking_consistent(feet.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.1, kRound);
  EXPECT_NEAR(qd[1], 0.1, kRound);
}

TEST(StickingTarget, AConsistentTargetIsUnchanged) {
  TwoFeet feet;
  Eigen::VectorXd qd(2);
  StickingTargetWorkspace ws;
  qd << 0.25, 0.25;
  make_sticking_consistent(feet.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.25, kRound);
  EXPECT_NEAR(qd[1], 0.25, kRound);
}

TEST(StickingTarget, ContactsHoldingEveryCoordinateLeaveOnlyRest) {
  // A third foot on leg 1 alone (tangential velocity q̇1) with the two above: J has rank 3 = nv, so sticking
  // allows only v = 0 (a fallen robot on many contacts; this once crashed on an empty null space).
  TwoFeet feet;
  feet.contact.nc = 3;
  Eigen::MatrixXd S(3, 3);
  S << 1, 1, 0, 1, 0, 1, 0, 1, 0;
  feet.contact.N = rows(Eigen::MatrixXd::Zero(3, 3));
  feet.contact.S = rows(S);
  feet.contact.T = rows(Eigen::MatrixXd::Zero(3, 3));
  Eigen::VectorXd qd(2);
  StickingTargetWorkspace ws;
  qd << 0.3, -0.1;
  make_sticking_consistent(feet.problem, qd, ws);
  EXPECT_EQ(qd[0], 0.0);
  EXPECT_EQ(qd[1], 0.0);
}

TEST(StickingTarget, WithoutContactsTheTargetIsUnchanged) {
  ContactProblem none;
  none.nv = 3;
  InverseDynamicsProblem problem;
  problem.contact = &none;
  problem.actuated = {1, 2};
  Eigen::VectorXd qd(2);
  StickingTargetWorkspace ws;
  qd << 0.3, -0.1;
  make_sticking_consistent(problem, qd, ws);
  EXPECT_EQ(qd[0], 0.3);
  EXPECT_EQ(qd[1], -0.1);
}

TEST(StickingTarget, OneWorkspaceServesProblemsOfDifferentSizesWithAFreshOnesBits) {
  // The workspace only holds buffers: two feet (null(J) of dimension 1), one foot on leg 1 (dimension 2), two
  // feet again, all through one workspace, give bit for bit what a fresh workspace gives each.
  TwoFeet two;
  TwoFeet one;
  one.contact.nc = 1;
  Eigen::MatrixXd S(1, 3);
  S << 1, 1, 0;
  one.contact.N = rows(Eigen::MatrixXd::Zero(1, 3));
  one.contact.S = rows(S);
  one.contact.T = rows(Eigen::MatrixXd::Zero(1, 3));
  StickingTargetWorkspace shared;
  for (const InverseDynamicsProblem* problem : {&two.problem, &one.problem, &two.problem}) {
    Eigen::VectorXd qd(2), qd_fresh(2);
    qd << 0.3, -0.1;
    qd_fresh = qd;
    StickingTargetWorkspace fresh;
    make_sticking_consistent(*problem, qd, shared);
    make_sticking_consistent(*problem, qd_fresh, fresh);
    EXPECT_EQ(qd[0], qd_fresh[0]);
    EXPECT_EQ(qd[1], qd_fresh[1]);
  }
}

/// One foot on a base: coordinates x (the base, horizontal) and q (the leg, vertical); the foot's normal
/// velocity is q̇ (N), its tangential one ẋ (S). φ: the foot's gap.
struct OneFoot {
  ContactProblem contact;
  InverseDynamicsProblem problem;
  explicit OneFoot(double phi, int driven) {
    contact.nc = 1;
    contact.nv = 2;
    contact.dt = 1e-3;
    contact.phi = Eigen::VectorXd::Constant(1, phi);
    contact.N = rows(Eigen::RowVector2d(0, 1));
    contact.S = rows(Eigen::RowVector2d(1, 0));
    contact.T = rows(Eigen::RowVector2d(0, 0));
    problem.contact = &contact;
    problem.actuated = {driven};
  }
};

TEST(ContactsTarget, AFootMayLiftButNotPress) {
  // Seed 004 §4.5's rows: N v ≥ −φ/Δt, S v = 0. Lifting (q̇ > 0) is consistent and comes back as it was,
  // where the equality form (make_sticking_consistent) holds the foot shut; pressing (q̇ < 0) on a touching
  // foot becomes 0, the nearest the ground allows.
  OneFoot foot(0, 1);
  StickingTargetWorkspace ws;
  Eigen::VectorXd qd = Eigen::VectorXd::Constant(1, 0.2);
  make_contacts_consistent(foot.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.2, kRound);
  qd[0] = 0.2;
  make_sticking_consistent(foot.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.0, kRound);
  qd[0] = -0.2;
  make_contacts_consistent(foot.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.0, kRound);
}

TEST(ContactsTarget, AGapMayCloseWithinTheStep) {
  // φ = 1 mm over Δt = 1 ms: the foot may approach at up to 1 m/s, not faster.
  OneFoot foot(1e-3, 1);
  StickingTargetWorkspace ws;
  Eigen::VectorXd qd = Eigen::VectorXd::Constant(1, -0.5);
  make_contacts_consistent(foot.problem, qd, ws);
  EXPECT_NEAR(qd[0], -0.5, kRound);
  qd[0] = -2;
  make_contacts_consistent(foot.problem, qd, ws);
  EXPECT_NEAR(qd[0], -1.0, kRound);
}

TEST(ContactsTarget, OnlyTouchingContactsStick) {
  // The base driven sideways: a touching foot forbids it (S v = 0); a speculative one beyond the collision
  // margin (φ > touch_margin) keeps only its gap row, so the target stands.
  OneFoot touching(0, 0), speculative(5e-3, 0);
  touching.contact.touch_margin = speculative.contact.touch_margin = 1e-3;
  StickingTargetWorkspace ws;
  Eigen::VectorXd qd = Eigen::VectorXd::Constant(1, 0.3);
  make_contacts_consistent(touching.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.0, kRound);
  qd[0] = 0.3;
  make_contacts_consistent(speculative.problem, qd, ws);
  EXPECT_NEAR(qd[0], 0.3, kRound);
}

}  // namespace
}  // namespace impetus
