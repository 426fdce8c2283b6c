// The small dense QP of both Stage IIs (control/inverse_dynamics/dual_qp.hpp) on problems solved by hand,
// and the friction pyramid's facets (friction_edges.hpp FE2) against its edges.
#include <gtest/gtest.h>

#include <cmath>

#include "control/inverse_dynamics/dual_qp.hpp"
#include "control/inverse_dynamics/friction_edges.hpp"

namespace impetus {
namespace {

// Lemke's certificate is 1e-6 relative (lemke.hpp L6) on O(1) data.
constexpr double kTolerance = 1e-6;
// The facets are formed from sines and cosines of multiples of π/k: round-off, ~1e-15 of μ.
constexpr double kRoundoff = 1e-12;

TEST(DualQp, ProjectsOntoAHalfPlaneAndLeavesAnInteriorMinimiserAlone) {
  // minimise ½‖w − a‖² s.t. w₁ + w₂ ≤ 1: the projection of a onto the half-plane.
  Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(2, 2), C(1, 2);
  C << -1, -1;
  Eigen::VectorXd d(1), w;
  d << 1;
  DualQp qp;
  Eigen::VectorXd a(2);
  a << 2, 1;   // outside: projection (1, 0)
  ASSERT_TRUE(qp.solve(Q, -a, C, d, w).solved());
  EXPECT_NEAR(w[0], 1, kTolerance);
  EXPECT_NEAR(w[1], 0, kTolerance);
  a << 0.25, 0.5;   // inside: a itself
  ASSERT_TRUE(qp.solve(Q, -a, C, d, w).solved());
  EXPECT_NEAR(w[0], 0.25, kTolerance);
  EXPECT_NEAR(w[1], 0.5, kTolerance);
  // No rows: the unconstrained minimiser.
  ASSERT_TRUE(qp.solve(Q, -a, Eigen::MatrixXd(0, 2), Eigen::VectorXd(0), w).solved());
  EXPECT_NEAR((w - a).norm(), 0, kTolerance);
}

TEST(DualQp, MeetsItsKktConditionsOnABox) {
  // minimise ½wᵀQw + rᵀw on the box 0 ≤ w ≤ 1 with a coupled Q: the result must be stationary in every
  // free coordinate and push against each bound it sits on.
  Eigen::MatrixXd Q(3, 3);
  Q << 4, 1, 0, 1, 3, 1, 0, 1, 2;
  Eigen::VectorXd r(3);
  r << -10, 1, -1;
  Eigen::MatrixXd C(6, 3);
  C << Eigen::MatrixXd::Identity(3, 3), -Eigen::MatrixXd::Identity(3, 3);
  Eigen::VectorXd d(6);
  d << 0, 0, 0, 1, 1, 1;
  DualQp qp;
  Eigen::VectorXd w;
  ASSERT_TRUE(qp.solve(Q, r, C, d, w).solved());
  const Eigen::VectorXd gradient = Q * w + r;
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(w[i], -kTolerance);
    EXPECT_LE(w[i], 1 + kTolerance);
    if (w[i] > kTolerance && w[i] < 1 - kTolerance) {
      EXPECT_NEAR(gradient[i], 0, kTolerance);
    }
    if (w[i] <= kTolerance) {
      EXPECT_GE(gradient[i], -kTolerance);
    }
    if (w[i] >= 1 - kTolerance) {
      EXPECT_LE(gradient[i], kTolerance);
    }
  }
}

TEST(FrictionEdges, FacetsHoldEveryEdgeAndBoundTheCone) {
  // (FE2): every edge μ d_j (at p_N = 1) meets every facet, with equality on the two facets beside it;
  // a tangent impulse just outside an edge violates one.
  for (int k : {3, 4, 5, 8}) {
    FrictionEdges edges;
    Eigen::VectorXd mu(2);
    mu << 0.5, 0;   // the second contact has no friction: no edges, no facets
    edges.build(mu, k);
    ASSERT_EQ(edges.A_facet.rows(), k);
    for (int j = 0; j < k; ++j) {
      Eigen::VectorXd p = Eigen::VectorXd::Zero(6);
      p[0] = 1;
      p[2] = mu[0] * edges.cos_edge[j];
      p[4] = mu[0] * edges.sin_edge[j];
      const Eigen::VectorXd slack = edges.A_facet * p;
      int tight = 0;
      for (int f = 0; f < k; ++f) {
        EXPECT_GE(slack[f], -kRoundoff) << "k " << k << " edge " << j << " facet " << f;
        if (std::abs(slack[f]) < kRoundoff) ++tight;
      }
      EXPECT_EQ(tight, 2) << "k " << k << " edge " << j;
      p[2] *= 1.01;
      p[4] *= 1.01;
      EXPECT_LT((edges.A_facet * p).minCoeff(), 0) << "k " << k << " edge " << j;
    }
  }
}

}  // namespace
}  // namespace impetus
