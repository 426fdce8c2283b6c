// A solid sphere on the ground for the one-contact paths' tests (stewart_trinkle's and no_slip's closed forms):
// 6 DoF (problem_builder.hpp: v = (v_W, ω_W)), touching at gap φ the ground below its centre. Its contact frame
// (n, t1, t2) = (z, x, y) stays the same as it rolls, so each step is the same rows with v* = v − g dt e_z.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <limits>

#include "contact/contact_model.hpp"
#include "tests/contact/problem_builder.hpp"

namespace impetus::test {

struct SphereOnGround {
  static constexpr double kMass = 2.0, kRadius = 0.1, kDt = 1e-3, kMu = 0.5;
  ProblemBuilder builder{kDt};
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
  explicit SphereOnGround(double phi = 0) {
    M.topLeftCorner(3, 3) = kMass * Eigen::Matrix3d::Identity();
    M.bottomRightCorner(3, 3) = 0.4 * kMass * kRadius * kRadius * Eigen::Matrix3d::Identity();
    builder.add_system(M);
    const Eigen::Vector3d r(0, 0, -kRadius);
    builder.contact(box_row(r, Eigen::Vector3d::UnitZ()), box_row(r, Eigen::Vector3d::UnitX()),
                    box_row(r, Eigen::Vector3d::UnitY()), phi, kMu);
  }
  ContactProblem problem(double touch_margin = std::numeric_limits<double>::infinity()) {
    Eigen::VectorXd v_star = v;
    v_star[2] -= kGravity * kDt;
    ContactProblem P = builder.build(v, v_star);
    P.touch_margin = touch_margin;
    return P;
  }
  /// The contact point's velocity in the ground plane: v + ω × r, r = (0, 0, −R).
  Eigen::Vector2d slip() const {
    const Eigen::Vector3d u = v.head<3>() + v.tail<3>().cross(Eigen::Vector3d(0, 0, -kRadius));
    return u.head<2>();
  }
};

/// A resting sphere under `model` for 100 steps: each by the closed form (no iteration), p_N = m g dt and no
/// friction, v⁺ = 0 — relative to the step's scale, `relative` (the closed form's rounding).
inline void expect_a_resting_sphere_carries_its_weight(const ContactModel& model, double relative) {
  constexpr double m = SphereOnGround::kMass, dt = SphereOnGround::kDt;
  SphereOnGround sphere;
  for (int step = 0; step < 100; ++step) {
    ContactResult r;
    model.solve(sphere.problem(), r);
    ASSERT_EQ(r.stats.iterations, 0);
    EXPECT_NEAR(r.p_N[0], m * kGravity * dt, relative * m * kGravity * dt);
    EXPECT_EQ(r.p_S[0], 0.0);
    EXPECT_EQ(r.p_T[0], 0.0);
    EXPECT_LE(r.v_plus.lpNorm<Eigen::Infinity>(), relative * kGravity * dt);
    sphere.v = r.v_plus;
  }
}

/// `solver="lemke"` asks for Lemke's pivots on every island, one-contact ones too: a sphere launched sliding
/// (pressing, with friction) under `lemke` (that solver) is solved by the dense LCP, with at least one pivot, and
/// gets the answer `closed_form` (the principal pivoting solver, whose one-contact path it takes) gives, to
/// `relative`. Report: the model's report type, whose `projection` says what ran.
template <class Report>
void expect_the_lemke_solver_pivots_on_one_contact(const ContactModel& closed_form, const ContactModel& lemke,
                                                   double relative) {
  SphereOnGround sphere;
  sphere.v << 0.3, 0.1, 0.0, 0.0, 0.0, 0.0;
  const ContactProblem P = sphere.problem();
  ContactResult rc, rl;
  closed_form.solve(P, rc);
  lemke.solve(P, rl);
  ASSERT_EQ(rc.stats.iterations, 0);
  ASSERT_EQ(rl.stats.status, SolveStatus::Solved) << rl.stats.message;
  const Report& report = rl.report_as<Report>();
  EXPECT_TRUE(report.projection.lemke_run);
  EXPECT_GT(report.projection.lemke.pivots, 0);
  EXPECT_GT(rl.p_N[0], 0.0);
  EXPECT_LE((rl.v_plus - rc.v_plus).lpNorm<Eigen::Infinity>(), relative * P.v_star.lpNorm<Eigen::Infinity>());
}

}  // namespace impetus::test
