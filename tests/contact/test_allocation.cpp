// No allocation once warm (STYLE.md, "no allocation in hot loops"): Lemke, the Delassus operator and
// the Stewart–Trinkle model, called again with its workspace on a problem of the same size, must not touch
// the heap.
// (Counting: tests/allocation_counting.hpp.)
#include <gtest/gtest.h>

#include "../allocation_counting.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

using test::box_inertia;
using test::box_row;

using test::allocations_in;

TEST(NoAllocation, CountingSeesEigenAllocations) {
  // The interposition works: a fresh dynamic matrix allocates.
  EXPECT_GE(allocations_in([] { Eigen::MatrixXd m(50, 50); m.setZero(); }), 1);
}

TEST(NoAllocation, StewartTrinkleAndLemkeOnceWarm) {
  // Two boxes stacked on the ground, sliding and spinning: friction rows, ties, redundancy.
  const double dt = 1e-3;
  const Eigen::Vector3d h(0.5, 0.5, 0.5);
  test::ProblemBuilder b(dt);
  const int top = b.add_system(box_inertia(1.0, h)), bottom = b.add_system(box_inertia(2.0, h));
  for (const Eigen::Vector3d& r : test::bottom_corners(h)) {
    auto rows = [&](const Eigen::Vector3d& d) {
      return Eigen::RowVectorXd(test::row_at(12, top, box_row(r, d)) -
                                test::row_at(12, bottom, box_row(r + Eigen::Vector3d(0, 0, 1), d)));
    };
    b.contact(rows(Eigen::Vector3d::UnitZ()), rows(Eigen::Vector3d::UnitX()), rows(Eigen::Vector3d::UnitY()), 0, 0.5);
    b.contact(test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitZ())),
              test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitX())),
              test::row_at(12, bottom, box_row(r, Eigen::Vector3d::UnitY())), 0, 0.5);
  }
  Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
  v << 0.3, 0.1, 0, 0, 0, 0.5, -0.2, 0, 0, 0, 0, 0;
  Eigen::VectorXd v_star = v;
  v_star[2] -= 9.81 * dt;
  v_star[8] -= 9.81 * dt;
  const ContactProblem& p = b.build(v, v_star);

  StewartTrinkleModel model;
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  ContactResult result;
  model.solve(p, result, *workspace);   // warm up: buffers grow to this size
  model.solve(p, result, *workspace);
  ASSERT_EQ(result.stats.status, SolveStatus::Solved);
  EXPECT_EQ(allocations_in([&] { model.solve(p, result, *workspace); }), 0);

  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(p, 4, 1e-6, lcp);
  LemkeSolver lemke;
  Eigen::VectorXd z;
  lemke.solve(lcp.A, lcp.q, z);
  EXPECT_EQ(allocations_in([&] { lemke.solve(lcp.A, lcp.q, z); }), 0);
  Eigen::MatrixXd D;
  DelassusScratch scratch;
  p.delassus(p.N, p.S, D, scratch);
  EXPECT_EQ(allocations_in([&] { p.delassus(p.N, p.S, D, scratch); }), 0);
}

}  // namespace
}  // namespace impetus
