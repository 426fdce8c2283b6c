// Least squares under linear inequalities by the primal active set (control/inverse_dynamics/
// inequality_least_squares.hpp): problems solved by hand, and the degenerate problems id_qp's Stage II
// meets (rows that depend on each other, an A without full column rank, many rows through the start).
#include <gtest/gtest.h>

#include <cmath>

#include "../allocation_counting.hpp"
#include "control/inverse_dynamics/inequality_least_squares.hpp"

namespace impetus {
namespace {

// The solver works by orthogonal factorisations on O(1) data: its answers carry round-off, ~1e-15; 1e-12
// leaves a thousand times that.
constexpr double kRoundoff = 1e-12;

/// Checks the KKT conditions of min ½‖A w − b‖² s.t. C w + d ≥ 0 at w from scratch: feasibility, and a
/// λ ≥ 0 on the rows that hold with equality with Aᵀ(A w − b) = Cᵀλ (non-negative least squares on those rows,
/// here by enumeration of the rows' subsets: the tests' problems have few).
void expect_kkt(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::MatrixXd& C, const Eigen::VectorXd& d,
                const Eigen::VectorXd& w) {
  const Eigen::VectorXd slack = C * w + d;
  EXPECT_GE(slack.minCoeff(), -kRoundoff);
  std::vector<int> tight;
  for (int i = 0; i < slack.size(); ++i)
    if (slack[i] < kRoundoff) tight.push_back(i);
  const Eigen::VectorXd g = A.transpose() * (A * w - b);
  const int t = static_cast<int>(tight.size());
  ASSERT_LE(t, 16);
  double best = g.norm();
  for (int mask = 1; mask < (1 << t); ++mask) {
    std::vector<int> rows;
    for (int j = 0; j < t; ++j)
      if (mask & (1 << j)) rows.push_back(tight[j]);
    Eigen::MatrixXd Ct(C.cols(), rows.size());
    for (std::size_t j = 0; j < rows.size(); ++j) Ct.col(j) = C.row(rows[j]).transpose();
    const Eigen::VectorXd lambda = Ct.completeOrthogonalDecomposition().solve(g);
    if (lambda.minCoeff() < -kRoundoff) continue;
    best = std::min(best, (g - Ct * lambda).norm());
  }
  EXPECT_LT(best, kRoundoff * std::max(1.0, A.norm() * b.norm()));
}

TEST(InequalityLeastSquares, ProjectsOntoAHalfPlaneAndLeavesAnInteriorMinimiserAlone) {
  // min ½‖w − a‖² s.t. w₁ + w₂ ≤ 1: the projection of a onto the half-plane.
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(2, 2);
  Eigen::MatrixXd C(1, 2);
  C << -1, -1;
  Eigen::VectorXd d(1), a(2), w;
  d << 1;
  InequalityLeastSquares ils;
  a << 2, 1;   // outside: projection (1, 0)
  auto r = ils.solve(A, a, C, d, w);
  ASSERT_TRUE(r.solved) << r.reason;
  EXPECT_NEAR(w[0], 1, kRoundoff);
  EXPECT_NEAR(w[1], 0, kRoundoff);
  EXPECT_EQ(r.working_rows, 1);
  EXPECT_GT(r.min_multiplier, 0);
  a << 0.25, 0.5;   // inside: a itself
  r = ils.solve(A, a, C, d, w);
  ASSERT_TRUE(r.solved) << r.reason;
  EXPECT_NEAR((w - a).norm(), 0, kRoundoff);
  EXPECT_EQ(r.working_rows, 0);
}

TEST(InequalityLeastSquares, MeetsItsKktConditionsOnABox) {
  // A coupled A on the box −1 ≤ w ≤ 1 (w = 0 inside), target far outside in some coordinates.
  Eigen::MatrixXd A(4, 3);
  A << 2, 1, 0, 0, 1, 1, 1, 0, 3, 0.5, 0.5, 0.5;
  Eigen::VectorXd b(4);
  b << 10, -3, 1, 4;
  Eigen::MatrixXd C(6, 3);
  C << Eigen::MatrixXd::Identity(3, 3), -Eigen::MatrixXd::Identity(3, 3);
  const Eigen::VectorXd d = Eigen::VectorXd::Ones(6);
  InequalityLeastSquares ils;
  Eigen::VectorXd w;
  const auto r = ils.solve(A, b, C, d, w);
  ASSERT_TRUE(r.solved) << r.reason;
  expect_kkt(A, b, C, d, w);
}

TEST(InequalityLeastSquares, DuplicatedRowsAndARankDeficientObjectiveAreNotFailures) {
  // Stage II's degenerate shape: every row passes through the start (d = 0: Stage I's vertex), rows come
  // in exact copies (duplicated contacts), and A sees only the sum w₁ + w₂ (two copies of one column).
  // min ½(w₁ + w₂ + w₃ − 1)² s.t. w ≥ 0 (each row twice), w₃ ≤ 0.25: the optimal set is a face,
  // {w₁ + w₂ + w₃ = 1, w ≥ 0, w₃ ≤ 0.25}; the solver must end on it, certified.
  Eigen::MatrixXd A(1, 3);
  A << 1, 1, 1;
  Eigen::VectorXd b(1);
  b << 1;
  Eigen::MatrixXd C(7, 3);
  C << Eigen::MatrixXd::Identity(3, 3), Eigen::MatrixXd::Identity(3, 3), 0, 0, -1;
  Eigen::VectorXd d = Eigen::VectorXd::Zero(7);
  d[6] = 0.25;
  InequalityLeastSquares ils;
  Eigen::VectorXd w;
  const auto r = ils.solve(A, b, C, d, w);
  ASSERT_TRUE(r.solved) << r.reason;
  expect_kkt(A, b, C, d, w);
  EXPECT_NEAR(w.sum(), 1, kRoundoff);
  EXPECT_LE(w[2], 0.25 + kRoundoff);
}

TEST(InequalityLeastSquares, RefusesAnInfeasibleStart) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(1, 1), C = Eigen::MatrixXd::Identity(1, 1);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(1), d = -Eigen::VectorXd::Ones(1), w;
  InequalityLeastSquares ils;
  EXPECT_FALSE(ils.solve(A, b, C, d, w).solved);
}

TEST(InequalityLeastSquares, AllocatesNothingOnceItsShapesAreMet) {
  // STYLE.md 11 (issue 16): the buffers of each working-set shape are kept, so solving problems whose shapes
  // were met allocates nothing, and the kept buffers carry nothing over: the same problem gives the same w.
  Eigen::MatrixXd A_box(4, 3), C_box(6, 3), A_face(1, 3), C_face(7, 3);
  A_box << 2, 1, 0, 0, 1, 1, 1, 0, 3, 0.5, 0.5, 0.5;
  C_box << Eigen::MatrixXd::Identity(3, 3), -Eigen::MatrixXd::Identity(3, 3);
  A_face << 1, 1, 1;
  C_face << Eigen::MatrixXd::Identity(3, 3), Eigen::MatrixXd::Identity(3, 3), 0, 0, -1;
  Eigen::VectorXd b_box(4), b_face = Eigen::VectorXd::Ones(1), d_face = Eigen::VectorXd::Zero(7);
  b_box << 10, -3, 1, 4;
  const Eigen::VectorXd d_box = Eigen::VectorXd::Ones(6);
  d_face[6] = 0.25;
  InequalityLeastSquares ils;
  Eigen::VectorXd w_box, w_face, w_box_again(3), w_face_again(3);
  const auto first_box = ils.solve(A_box, b_box, C_box, d_box, w_box);
  const auto first_face = ils.solve(A_face, b_face, C_face, d_face, w_face);
  ASSERT_TRUE(first_box.solved && first_face.solved);
  ASSERT_GT(first_box.working_rows + first_face.working_rows, 0);   // W grew: more than one shape met
  InequalityLeastSquaresResult box, face;
  const long allocations = test::allocations_in([&] {
    box = ils.solve(A_box, b_box, C_box, d_box, w_box_again);
    face = ils.solve(A_face, b_face, C_face, d_face, w_face_again);
  });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(box.iterations, first_box.iterations);
  EXPECT_EQ(face.iterations, first_face.iterations);
  EXPECT_EQ(w_box_again, w_box);
  EXPECT_EQ(w_face_again, w_face);
}

TEST(InequalityLeastSquares, AWorkingSetFirstReachedOnAProblemShapeMetBeforeAllocatesNothing) {
  // issue 16: a controller's problem keeps its shape (rows of A, n, m) while the data moves, and the working
  // sets it reaches change with the data (and with a build's rounding): every |W| ≤ min(n, m) and every
  // n − r is made when the shape is first met. A box |w_i| ≤ 1 around the unconstrained minimiser b: first
  // inside (W empty), then with two bounds active, then three, on the same shape; and the answers are a fresh
  // solver's, to the bit.
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 3);
  Eigen::MatrixXd C(6, 3);
  C << Eigen::MatrixXd::Identity(3, 3), -Eigen::MatrixXd::Identity(3, 3);
  const Eigen::VectorXd d = Eigen::VectorXd::Ones(6);
  const Eigen::VectorXd inside = Eigen::Vector3d(0.5, -0.25, 0.5), two = Eigen::Vector3d(5, -4, 0.25),
                        three = Eigen::Vector3d(5, -4, 3);
  InequalityLeastSquares ils;
  Eigen::VectorXd w_inside, w_two(3), w_three(3);
  const auto first = ils.solve(A, inside, C, d, w_inside);
  ASSERT_TRUE(first.solved);
  ASSERT_EQ(first.working_rows, 0);
  InequalityLeastSquaresResult with_two, with_three;
  const long allocations = test::allocations_in([&] {
    with_two = ils.solve(A, two, C, d, w_two);
    with_three = ils.solve(A, three, C, d, w_three);
  });
  EXPECT_EQ(allocations, 0);
  ASSERT_TRUE(with_two.solved && with_three.solved);
  EXPECT_EQ(with_two.working_rows, 2);
  EXPECT_EQ(with_three.working_rows, 3);
  EXPECT_TRUE(w_two.isApprox(Eigen::Vector3d(1, -1, 0.25)));
  EXPECT_TRUE(w_three.isApprox(Eigen::Vector3d(1, -1, 1)));
  InequalityLeastSquares fresh;
  Eigen::VectorXd w_fresh;
  fresh.solve(A, two, C, d, w_fresh);
  EXPECT_EQ(w_fresh, w_two);
  fresh.solve(A, three, C, d, w_fresh);
  EXPECT_EQ(w_fresh, w_three);
}

}  // namespace
}  // namespace impetus
