// Per-step scratch of the multibody algorithms (Pinocchio's Data): sized once from the model, written
// by the stage functions, grouped by the stage that writes it.
#pragma once

#include <Eigen/Cholesky>
#include <cstdint>
#include <vector>

#include "dynamics/model.hpp"
#include "dynamics/spatial.hpp"

namespace impetus {

struct MultibodyData {
  explicit MultibodyData(const MultibodyModel& model);

  // --- forward_kinematics (stage 1); per link ---
  std::vector<Eigen::Isometry3d> X_WL;          // link poses
  std::vector<Vec6> V;                          // spatial velocities [ω; v_O] (spatial.hpp)
  std::vector<Vec3> p_WC;                       // centres of mass
  std::vector<Mat6> I;                          // spatial inertias at O, world axes
  Eigen::Matrix<double, 6, Eigen::Dynamic> S;   // (6×nv) joint motion subspaces, column per velocity coordinate
  std::vector<std::uint64_t> kinematics_pass;   // per tree: how many passes wrote its links (the only writer of the
                                                // above), so that a reader can tell they are unwritten since it read

  // --- crba (stage 4); per tree ---
  std::vector<Eigen::MatrixXd> M;               // (nv_t×nv_t) joint-space inertia, M = Σ SᵢᵀIᶜᵢSⱼ (RBDA 6.2)
  std::vector<Eigen::VectorXd> M_inputs;        // the bits of the links' I and the S columns M[t] was made of
  std::vector<unsigned char> M_kept;            // M_inputs[t] holds them (a byte per tree: trees run in parallel)
  std::vector<std::uint64_t> M_pass;            // kinematics_pass[t] when M_inputs[t] was last seen equal to I, S
  std::vector<std::uint64_t> M_writes;          // per tree: how many times crba_of_tree wrote M[t] (its only writer),
                                                // so that what a reader made of M[t] is known to be of these bits

  // --- rnea (stage 4) ---
  Eigen::VectorXd tau;                          // (nv) RNEA output; bias h(q, v) when called with v̇ = 0
  Eigen::VectorXd h_inputs;                     // per tree, from v_offset + 6·first_link (one block: trees in order
                                                // read it in order): the bits of v and the links' V its segment of
                                                // tau (and its links' a, f) were made of, with the I, S of M_inputs[t]
  std::vector<unsigned char> h_kept;            // h_inputs holds tree t's (a byte per tree: trees run in parallel)

  // --- scratch of the recursions; per link ---
  std::vector<Mat6> Ic;                         // composite inertias
  std::vector<Vec6> a, f;                       // spatial accelerations and forces
  Eigen::VectorXd zero_vdot;                    // (nv) v̇ = 0, the input of bias_forces' RNEA
};

}  // namespace impetus
