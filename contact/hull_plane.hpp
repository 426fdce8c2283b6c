// What the ProblemNeeds hull_plane_pairs (contact/contact_model.hpp) add to an island's ContactProblem —
// body–half-space pairs of free polyhedral bodies, each standing for its body's ground point contacts, and
// the island's configuration — and what a model that asks for them answers beside v⁺ (seed 003, the ECP
// model: contact/ecp/ecp_model.hpp). sim/assembly_ecp.hpp fills the problem's part; a model that does not
// ask for the pairs never sees these types.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace impetus {

/// A convex polytope in a body's frame L, as half-spaces (Conv(F) of seed 003 §III-B):
///   Conv(F) = {x : u_iᵀx ≤ d_i, i = 1..m},  f_i(x) = u_iᵀx − d_i  (seed 003 Eqs. 5–11).
struct BodyHull {
  Eigen::Matrix3Xd vertices;              // (3×nh) hull vertices x_j in L (m)
  Eigen::Matrix3Xd normals;               // (3×m) outward unit face normals u_i in L
  Eigen::VectorXd offsets;                // (m) face offsets d_i (m)
  std::vector<std::vector<int>> faces;    // (m) vertex indices of each face (columns of `vertices`)
  double diameter = 0;                    // largest vertex distance (m): the length scale of tolerances
};

/// A free rigid body of the island against a static half-space, for the geometrically implicit ECP model
/// (seed 003). The solid half-space is {x : n·x ≤ d}; n points out of it, towards the body (the body is A,
/// the plane B: DESIGN.md).
struct BodyPlanePair {
  int body = -1;                          // identity across steps: the body's link index
  int system = -1;                        // its system block (a one-link floating tree): velocity coordinates
                                          // [v_WC; ω_W] at systems[system].offset (dynamics/model.hpp),
                                          // configuration [p_WL; R_WL as (w,x,y,z)] at
                                          // HullPlaneProblem::q_offsets[system]
  Eigen::Vector3d p_LC = Eigen::Vector3d::Zero();   // centre of mass in L (m): the body turns about it
  const BodyHull* hull = nullptr;         // Conv(F) in L; owned by the assembler, outlives the problem
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();   // plane normal n (unit, world)
  double d = 0;                           // plane offset: the plane is n·x = d (m)
  Eigen::Vector3d t_W = Eigen::Vector3d::UnitX();   // tangents t, o of seed 003 Eq. 2 (o = n × t), the
  Eigen::Vector3d o_W = Eigen::Vector3d::UnitY();   // t1, t2 of the point-contact rows
  double mu = 0;                          // Coulomb coefficient of the pair
  // Warm start: the previous step's solution of the same pair (has_guess false: none).
  bool has_guess = false;
  Eigen::Vector3d a1_guess = Eigen::Vector3d::Zero();   // ECP on Conv(F), world (m)
  Eigen::VectorXd l_guess;                // (m) face multipliers l_i
  Eigen::Vector4d p_guess = Eigen::Vector4d::Zero();    // (p_n, p_t, p_o, p_r): N·s, N·s, N·s, N·m·s
  double sigma_guess = 0;                 // slip speed σ (m/s)
};

/// ContactProblem::extension under hull_plane_pairs.
struct HullPlaneProblem {
  Eigen::VectorXd q;                      // (nq) configuration at t, system by system: system i's coordinates
                                          // are q[q_offsets[i] .. q_offsets[i+1]) (a tree's layout in State::q)
  std::vector<int> q_offsets;             // (systems + 1), or empty when q is
  std::vector<BodyPlanePair> pairs;       // body–half-space pairs, each replacing the pair's point contacts
  std::vector<int> replaced_by;           // (nc) or empty: the pair whose ECP stands for contact row r (its
                                          // impulses are then 0), −1 for rows solved as points

  /// No pair and no configuration; keeps the storage for reuse.
  void clear() {
    q.resize(0);
    q_offsets.clear();
    pairs.clear();
    replaced_by.clear();
  }
};

/// The solution of one body–plane pair (ECP model, seed 003), at t + dt.
struct BodyPlaneSolution {
  int body = -1;                          // BodyPlanePair::body
  Eigen::Vector3d a1_W = Eigen::Vector3d::Zero();   // equivalent contact point on Conv(F) (m)
  Eigen::Vector3d a2_W = Eigen::Vector3d::Zero();   // its partner on the plane: a1 − gap·n (m)
  double gap = 0;                         // n·a1 − d (m), ≥ 0: the distance of Conv(F) from the plane
  double p_n = 0, p_t = 0, p_o = 0;       // impulses along n, t, o (N·s), applied at a1
  double p_r = 0;                         // frictional moment impulse about n (N·m·s)
  double sigma = 0;                       // slip speed σ of seed 003 Eqs. 14–15 (m/s)
  int active_face = -1;                   // the hull face with the largest multiplier (−1: none)
  Eigen::VectorXd l;                      // (m) face multipliers l_i
};

/// ContactResult::extension of a model that asks for hull_plane_pairs.
struct HullPlaneResult {
  std::vector<BodyPlaneSolution> pairs;   // one per HullPlaneProblem::pairs entry
};

}  // namespace impetus
