// The seed-000 grasp (Drumwright, Fig. 1 and §VII-A), built in code: two gripper boxes squeeze two
// boxes against gravity; equal cubes side by side along x, so every contact face has four
// coincident corners, and each corner contact is given the three candidate normals the paper's
// simulator (RPIsim, footnote 3) gives a degenerate corner: 3 pairs × 4 corners × 3 = 36 contacts.
//
//   gripper L | box 1 | box 2 | gripper R          cubes of side a, centres a apart along x
//
// Grippers are sliders along x (one coordinate each, the prismatic grippers of the authors'
// grasp.m), pushed inward by a constant force F (the "squeezing" actuation). The boxes are free
// bodies under gravity. A simple semi-implicit Euler integrator moves the bodies; contacts are
// recomputed from the poses every step:
//   face contact (B left, A right):  n = R_B e_x, at the 4 corners c of B's +x face,
//                                    φ = n·(f_A − c), f_A the centre of A's −x face;
//   degenerate corner normals:       n = R_B(±e_y), R_B(±e_z), the outward normals of B's other two
//                                    faces at that corner, with gap max(φ, 0): the corners coincide
//                                    when the faces touch.
// With variant Duplicates the three contacts of a corner share the face normal instead (only the
// tangent bases differ): redundancy without the vertical "ledges" the corner normals make.
#pragma once

#include <memory>

#include "contact/contact_model.hpp"
#include "test_no_slip_fixtures.hpp"

namespace impetus::test {

struct GraspSetup {
  enum class Variant { CornerNormals, Duplicates } variant = Variant::CornerNormals;
  double side = 0.1;          // m, every cube
  double box_mass = 0.5;      // kg
  double gripper_mass = 1.0;  // kg
  double squeeze = 100.0;     // N on each gripper, inward (grasp.m: F = 100·nboxes/2 per side)
  double mu = 100.0;          // the paper's μ_c = 100 for the Coulomb models (no_slip ignores it)
  double dt = 0.01;           // s (the paper's step)
};

class GraspSimulation {
 public:
  explicit GraspSimulation(GraspSetup setup) : setup_(setup) {
    const double a = setup.side;
    x_grippers_ << -1.5 * a, 1.5 * a;
    C_[0] = Eigen::Vector3d(-0.5 * a, 0, 0);
    C_[1] = Eigen::Vector3d(0.5 * a, 0, 0);
    R_[0] = R_[1] = Eigen::Matrix3d::Identity();
    v_ = Eigen::VectorXd::Zero(14);   // [gripper L (1), box 1 (6), box 2 (6), gripper R (1)]
  }

  /// One step with `model`; the previous step's normal impulses warm-start the next (as the stepper).
  void step(ContactModel& model) {
    ProblemBuilder b = builder();
    ContactProblem P = b.build(v_, force(b));
    if (last_p_N_.size() == P.nc) P.p_N_guess = last_p_N_;
    model.solve(P, result_);
    last_p_N_ = result_.p_N;
    last_problem_nc_ = P.nc;
    v_ = result_.v_plus;
    // Semi-implicit Euler: positions with v⁺; rotations by the exponential map of ω·dt.
    const double dt = setup_.dt;
    x_grippers_[0] += dt * v_[0];
    x_grippers_[1] += dt * v_[13];
    for (int i = 0; i < 2; ++i) {
      C_[i] += dt * v_.segment<3>(1 + 6 * i);
      const Eigen::Vector3d w = v_.segment<3>(4 + 6 * i) * dt;
      if (w.norm() > 0) R_[i] = Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix() * R_[i];
    }
    ++steps_;
  }

  /// Centre of box i relative to the left gripper's centre (m).
  Eigen::Vector3d box_relative(int i) const { return C_[i] - Eigen::Vector3d(x_grippers_[0], 0, 0); }
  /// Distance between the grippers (m).
  double gripper_span() const { return x_grippers_[1] - x_grippers_[0]; }
  const ContactResult& result() const { return result_; }
  int contacts() const { return last_problem_nc_; }
  const Eigen::VectorXd& v() const { return v_; }
  bool finite() const { return v_.allFinite() && C_[0].allFinite() && C_[1].allFinite(); }
  /// The contact problem of the current state (for benchmarks).
  ContactProblem problem(ProblemBuilder& b) const {
    b = builder();
    return b.build(v_, force(b));
  }

 private:
  ProblemBuilder builder() const {
    const double a = setup_.side, h = a / 2;
    ProblemBuilder b;
    b.dt = setup_.dt;
    BodySpec gripper;
    gripper.kind = BodySpec::Kind::Slider;
    gripper.mass = setup_.gripper_mass;
    b.add(gripper);
    b.add(free_box(setup_.box_mass, Eigen::Vector3d::Constant(a), C_[0], R_[0]));
    b.add(free_box(setup_.box_mass, Eigen::Vector3d::Constant(a), C_[1], R_[1]));
    b.add(gripper);
    // Pairs (B left, A right) by body index, and the pose of each (sliders: identity rotation).
    const Eigen::Vector3d centre[4] = {Eigen::Vector3d(x_grippers_[0], 0, 0), C_[0], C_[1],
                                       Eigen::Vector3d(x_grippers_[1], 0, 0)};
    const Eigen::Matrix3d rot[4] = {Eigen::Matrix3d::Identity(), R_[0], R_[1], Eigen::Matrix3d::Identity()};
    int feature = 0;
    for (int B = 0; B < 3; ++B) {
      const int A = B + 1;
      const Eigen::Vector3d n = rot[B].col(0);
      const Eigen::Vector3d f_A = centre[A] - rot[A].col(0) * h;
      for (const Eigen::Vector3d& c : face_corners(centre[B], rot[B], Eigen::Vector3d::Constant(h), 0, +1)) {
        const double phi = n.dot(f_A - c);
        const Eigen::Vector3d local = rot[B].transpose() * (c - centre[B]);
        const Eigen::Vector3d normals[3] = {n, rot[B].col(1) * (local.y() > 0 ? 1 : -1),
                                            rot[B].col(2) * (local.z() > 0 ? 1 : -1)};
        for (int k = 0; k < 3; ++k) {
          ContactSpec s;
          s.a = A;
          s.b = B;
          s.p = c + 0.5 * phi * n;
          const bool corner_normal = setup_.variant == GraspSetup::Variant::CornerNormals && k > 0;
          s.n = corner_normal ? normals[k] : n;
          s.phi = corner_normal ? std::max(phi, 0.0) : phi;
          s.tangent_angle = setup_.variant == GraspSetup::Variant::Duplicates ? 0.4 * k : 0.0;
          s.mu = setup_.mu;
          s.key = {B, A, feature++};
          b.contacts.push_back(s);
        }
      }
    }
    return b;
  }

  Eigen::VectorXd force(const ProblemBuilder& b) const {
    Eigen::VectorXd f = b.gravity_force();   // boxes only: the sliders move along x
    f[0] += setup_.squeeze;
    f[13] -= setup_.squeeze;
    return f;
  }

  GraspSetup setup_;
  Eigen::Vector2d x_grippers_;
  Eigen::Vector3d C_[2];
  Eigen::Matrix3d R_[2];
  Eigen::VectorXd v_;
  Eigen::VectorXd last_p_N_;
  ContactResult result_;
  int steps_ = 0, last_problem_nc_ = 0;
};

}  // namespace impetus::test
