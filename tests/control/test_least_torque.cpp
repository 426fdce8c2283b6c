// Least-‖τ‖ impulses at a fixed v⁺ (control/inverse_dynamics/least_torque.hpp) on a problem solved by
// hand: two coordinates, u (undriven, a body's height) and a (driven), two normal contacts with Jᵀ
// columns (1, 0) and (1, 1). The balance Pᵀτ + Jᵀp = r reads p₁ + p₂ = r_u (the undriven row) and
// τ = r_a − p₂ (the driven row), so min ‖τ‖ over p ≥ 0 gives p₂ = clamp(r_a, 0, r_u), τ = r_a − p₂.
#include <gtest/gtest.h>

#include <algorithm>

#include "control/inverse_dynamics/least_torque.hpp"

namespace impetus {
namespace {

// Lemke's certificate is 1e-6 relative (lemke.hpp L6) and ε of (LT2) moves τ by ~1e-10 relative; the
// impulses here are O(1), so 1e-6 bounds both.
constexpr double kTolerance = 1e-6;

struct Case {
  double r_u, r_a;
};

void check(const Case& c) {
  Eigen::MatrixXd Jt(2, 2);   // rows: coordinates (u, a); columns: contacts
  Jt << 1, 1,                 //
      0, 1;
  const std::vector<char> nonnegative = {1, 1};
  const std::vector<int> actuated = {1};
  // A solution of (LT1) to start from: all on contact 1.
  Eigen::VectorXd x(2), tau(1);
  x << c.r_u, 0;
  tau << c.r_a;
  LeastTorqueSelection selection;
  LeastTorqueReport report;
  ASSERT_TRUE(selection.select(Jt, nonnegative, actuated, x, tau, report));
  EXPECT_EQ(report.freedom, 1);
  const double p2 = std::clamp(c.r_a, 0.0, c.r_u);
  EXPECT_NEAR(x[1], p2, kTolerance);
  EXPECT_NEAR(x[0], c.r_u - p2, kTolerance);
  EXPECT_NEAR(tau[0], c.r_a - p2, kTolerance);
  // The balance, hence v⁺, is unchanged: Pᵀτ + Jᵀp = r.
  EXPECT_NEAR(x[0] + x[1], c.r_u, kTolerance);
  EXPECT_NEAR(tau[0] + x[1], c.r_a, kTolerance);
  EXPECT_GE(x.minCoeff(), 0.0);
}

TEST(LeastTorque, InteriorChoiceNeedsNoTorque) { check({2.0, 0.5}); }

TEST(LeastTorque, BoundHoldsWhenTheTorqueCannotVanish) {
  check({2.0, 3.0});    // p₂ = r_u: contact 1 unloaded, τ = 1
  check({2.0, -1.0});   // p₂ = 0: τ = −1
}

TEST(LeastTorque, NoFreedomLeavesTheSolution) {
  // One contact only: p is fixed by the undriven row, nothing to choose.
  Eigen::MatrixXd Jt(2, 1);
  Jt << 1, 1;
  Eigen::VectorXd x(1), tau(1);
  x << 2.0;
  tau << 0.7;
  LeastTorqueSelection selection;
  LeastTorqueReport report;
  ASSERT_TRUE(selection.select(Jt, {1}, {1}, x, tau, report));
  EXPECT_EQ(report.freedom, 0);
  EXPECT_EQ(x[0], 2.0);
  EXPECT_EQ(tau[0], 0.7);
}

}  // namespace
}  // namespace impetus
