// ProblemBits (contact/problem_bits.hpp): a kept problem is the same as itself and as a deep copy, and not the
// same once any one of its fields moves by one ulp (or a sign of zero, or a column), since the answer may.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "contact/problem_bits.hpp"
#include "problem_builder.hpp"

namespace impetus {
namespace {

double next_up(double x) { return std::nextafter(x, INFINITY); }

/// Two boxes on the ground, one on the other, and a joint-limit row: every field filled.
struct TwoBoxes {
  test::ProblemBuilder builder{1e-3};
  ContactProblem problem;
  std::vector<Eigen::MatrixXd> M;   // the copies the problem's systems point to
  TwoBoxes() {
    Eigen::MatrixXd M_box = Eigen::MatrixXd::Identity(6, 6);
    M_box.bottomRightCorner(3, 3) *= 0.2;
    builder.add_system(M_box);
    builder.add_system(2 * M_box);
    Eigen::RowVectorXd n = Eigen::RowVectorXd::Zero(12), s = n, t = n;
    n << 0, 0, 1, 0.1, -0.1, 0, 0, 0, 0, 0, 0, 0;
    s << 1, 0, 0, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0;
    t << 0, 1, 0, -0.1, 0, 0.1, 0, 0, 0, 0, 0, 0;
    builder.contact(n, s, t, 1e-4, 0.5);
    builder.contact(n, s, t, -2e-4, 0.5);
    builder.contact(-n.tail(12), s, t, 0.0, 0.3);
    Eigen::RowVectorXd l = Eigen::RowVectorXd::Zero(12);
    l[7] = 1;
    builder.limit(l, 0.01);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(12, -0.5, 0.6), v_star = v * 0.9;
    problem = builder.build(v, v_star);
    problem.mu_viscous.setConstant(0.25);
    problem.keys = {{0, -1, 3}, {0, -1, 4}, {0, 1, 7}};
    problem.touch_margin = 0.005;
    problem.p_N_guess << 1, 2, 3;
    problem.p_S_guess << 0.1, 0.2, 0.3;
    problem.p_T_guess << -0.1, -0.2, 0.0;
    problem.p_L_guess << 0.5;
    for (const SystemBlock& b : problem.systems) M.push_back(*b.M);
    for (std::size_t i = 0; i < M.size(); ++i) problem.systems[i].M = &M[i];
  }
};

TEST(ProblemBits, AKeptProblemIsTheSameAsItselfAndACopyUntilForgotten) {
  TwoBoxes boxes;
  ProblemBits bits;
  EXPECT_FALSE(bits.same(boxes.problem));   // nothing kept yet
  bits.keep(boxes.problem);
  EXPECT_TRUE(bits.same(boxes.problem));
  const ContactProblem copy = boxes.problem;
  EXPECT_TRUE(bits.same(copy));
  bits.forget();
  EXPECT_FALSE(bits.same(boxes.problem));
}

TEST(ProblemBits, EveryFieldMovedByOneUlpIsAnotherProblem) {
  using Change = std::function<void(ContactProblem&, std::vector<Eigen::MatrixXd>&)>;
  const std::vector<std::pair<std::string, Change>> changes = {
      {"dt", [](ContactProblem& p, auto&) { p.dt = next_up(p.dt); }},
      {"M", [](ContactProblem&, auto& M) { M[1](4, 4) = next_up(M[1](4, 4)); }},
      {"system offset", [](ContactProblem& p, auto&) { p.systems[1].offset += 1; }},
      {"v", [](ContactProblem& p, auto&) { p.v[11] = next_up(p.v[11]); }},
      {"v*", [](ContactProblem& p, auto&) { p.v_star[0] = next_up(p.v_star[0]); }},
      {"N value", [](ContactProblem& p, auto&) { p.N.valuePtr()[p.N.nonZeros() - 1] *= -1; }},
      {"N column", [](ContactProblem& p, auto&) { p.N.innerIndexPtr()[0] = 1 - p.N.innerIndexPtr()[0] % 2; }},
      {"S value", [](ContactProblem& p, auto&) { p.S.valuePtr()[0] = next_up(p.S.valuePtr()[0]); }},
      {"T value", [](ContactProblem& p, auto&) { p.T.valuePtr()[2] = next_up(p.T.valuePtr()[2]); }},
      {"phi", [](ContactProblem& p, auto&) { p.phi[2] = -0.0; }},
      {"mu", [](ContactProblem& p, auto&) { p.mu[1] = next_up(p.mu[1]); }},
      {"mu_viscous", [](ContactProblem& p, auto&) { p.mu_viscous[0] = next_up(p.mu_viscous[0]); }},
      {"key", [](ContactProblem& p, auto&) { p.keys[2].feature = 8; }},
      {"key's first geometry", [](ContactProblem& p, auto&) { p.keys[0].geom_a = 2; }},
      {"touch margin", [](ContactProblem& p, auto&) { p.touch_margin = next_up(p.touch_margin); }},
      {"L value", [](ContactProblem& p, auto&) { p.L.valuePtr()[0] = next_up(p.L.valuePtr()[0]); }},
      {"phi_L", [](ContactProblem& p, auto&) { p.phi_L[0] = next_up(p.phi_L[0]); }},
      {"p_N guess", [](ContactProblem& p, auto&) { p.p_N_guess[1] = next_up(p.p_N_guess[1]); }},
      {"p_S guess", [](ContactProblem& p, auto&) { p.p_S_guess[2] = next_up(p.p_S_guess[2]); }},
      {"p_T guess", [](ContactProblem& p, auto&) { p.p_T_guess[2] = -0.0; }},
      {"p_L guess", [](ContactProblem& p, auto&) { p.p_L_guess[0] = next_up(p.p_L_guess[0]); }},
      {"one contact fewer", [](ContactProblem& p, auto&) { p.p_N_guess.conservativeResize(2); }},
  };
  for (const auto& [what, change] : changes) {
    TwoBoxes boxes;
    ProblemBits bits;
    bits.keep(boxes.problem);
    ASSERT_TRUE(bits.same(boxes.problem)) << what;
    change(boxes.problem, boxes.M);
    EXPECT_FALSE(bits.same(boxes.problem)) << what << " changed, and the problem still counts as the kept one";
  }
}

TEST(ProblemBits, AKeptSmallerProblemReplacesTheLargerInPlace) {
  // keep() writes over the bytes it holds (grow-only storage): what it kept before, longer, must not count.
  TwoBoxes large, small;
  small.problem.nc = 2;
  for (Eigen::VectorXd* x : {&small.problem.phi, &small.problem.mu, &small.problem.mu_viscous, &small.problem.p_N_guess,
                             &small.problem.p_S_guess, &small.problem.p_T_guess})
    x->conservativeResize(2);
  small.problem.keys.pop_back();
  ProblemBits bits;
  bits.keep(large.problem);
  bits.keep(small.problem);
  EXPECT_TRUE(bits.same(small.problem));
  EXPECT_FALSE(bits.same(large.problem));
  bits.keep(large.problem);
  EXPECT_TRUE(bits.same(large.problem));
  EXPECT_FALSE(bits.same(small.problem));
}

TEST(ProblemBits, AProblemWithAnExtensionIsNeverTheSame) {
  TwoBoxes boxes;
  boxes.problem.extension.slot<int>() = 1;
  ProblemBits bits;
  bits.keep(boxes.problem);
  EXPECT_FALSE(bits.same(boxes.problem));
}

}  // namespace
}  // namespace impetus
