// The cone program of a maximum-dissipation contact step, in velocity–impulse form: the problem
// interior_point.hpp solves. Both phases of seed 002 (max_dissipation.hpp) are instances.
//
// Glossary
//   symbol  size      meaning                                                   code
//   ------  --------  --------------------------------------------------------  ------------------------
//   M       nv×nv     block-diagonal SPD inertia (with its Cholesky factors)    systems
//   v       nv        the velocity at the end of the step, v⁺ (unknown)         (solution) v
//   v*      nv        free velocity                                             v_star
//   p       np        impulse coordinates (unknown), grouped by contact         (solution) p
//   𝐉       np×nv     generalized direction of each impulse coordinate:        J
//                     the rows N_i, S_i, T_i of contact i, L_k of limit k
//   c       np        linear cost of the impulses (m/s)                         c
//   R, r    nr×nv,nr  velocity inequalities R v + r ≥ 0 (non-penetration)       R, r
//   g       —         a group: the impulse coordinates p_g of one contact or    groups
//                     limit (1 … 3 of them), with its own cone constraints
//   a, b    3, 1      linear constraint of a group: aᵀp_g + b ≥ 0                linear
//   F, f    3×3, 3    second-order cone of a group: F p_g + f ∈ Q³              cones
//   κ       1         budget: Σ_{i∈I} p_i ≤ κ over a set I of coordinates        budgets
//
// The program (all constraints convex; seed 002 QP2 and QP3 in velocity form):
//
//   minimise    ½ vᵀ M v + cᵀ p                                                               (CP1)
//   subject to  M v − 𝐉ᵀ p = M v*                  the step's equation of motion              (CP2)
//               R v + r ≥ 0                        velocity inequalities                     (CP3)
//               a_kᵀ p_g + b_k ≥ 0                 linear constraints of the groups          (CP4)
//               F_g p_g + f_g ∈ Q³                 second-order cones of the groups          (CP5)
//               Σ_{i∈I_j} p_i ≤ κ_j                budgets                                   (CP6)
//
// Requirement (checked by the solver, which refuses the program otherwise): every group's constraints
// pin all its coordinates, i.e. Σ_k a_k a_kᵀ + F_gᵀF_g is nonsingular on p_g. Then the barrier Hessian
// of a group is positive definite and can be inverted group by group (interior_point.hpp, IP4).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

/// The impulse coordinates p[offset, offset + size) of one contact or limit, and its constraints.
struct ImpulseGroup {
  int offset = 0;
  int size = 1;                 // 1 … kMaxGroupSize
  int first_linear = 0;         // its linear constraints: linear[first_linear, first_linear + num_linear)
  int num_linear = 0;
  int cone = -1;                // its second-order cone: cones[cone], or −1 for none
};
constexpr int kMaxGroupSize = 3;

/// aᵀ p_g + b ≥ 0 (a has the group's size; entries past it are 0).
struct GroupLinear {
  Eigen::Vector3d a = Eigen::Vector3d::Zero();
  double b = 0;
};

/// F p_g + f ∈ Q³ (F has the group's size in columns; columns past it are 0).
struct GroupCone {
  Eigen::Matrix3d F = Eigen::Matrix3d::Zero();
  Eigen::Vector3d f = Eigen::Vector3d::Zero();
};

/// Σ_{i ∈ index} p_i ≤ bound.
struct ImpulseBudget {
  std::vector<int> index;
  double bound = 0;
};

struct ConeProgram {
  // --- velocity space ---
  int nv = 0;
  std::vector<SystemBlock> systems;     // block-diagonal M, ordered by offset; M and M_llt set
  Eigen::VectorXd v_star;               // (nv)

  // --- impulses ---
  int np = 0;
  SparseRows J;                         // (np×nv)
  Eigen::VectorXd c;                    // (np) or empty for 0
  std::vector<ImpulseGroup> groups;     // cover [0, np) in order, without overlap
  std::vector<GroupLinear> linear;
  std::vector<GroupCone> cones;
  std::vector<ImpulseBudget> budgets;

  // --- velocity inequalities ---
  SparseRows R;                         // (nr×nv)
  Eigen::VectorXd r;                    // (nr)

  int nr() const { return static_cast<int>(r.size()); }
};

}  // namespace impetus
