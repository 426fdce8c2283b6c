// The contact problem of one island for one step: what every contact model receives.
//
// Notation (shared by every model in contact/; equations of seed 004 §1.5 / seed 001 (12)–(15)):
//
//   symbol  size     meaning                                              code
//   ------  -------  ---------------------------------------------------  ------------------
//   M       nv×nv    generalized inertia, block diagonal over systems     systems[i].M, .M_llt
//                    (joint damping enters implicitly: M + dt·D)
//   v⁻      nv       velocity at the start of the step                    v
//   v*      nv       free velocity v⁻ + dt·M⁻¹(τ − h)                      v_star
//   v⁺      nv       velocity at the end of the step (the unknown)        ContactResult::v_plus
//   N       nc×nv    rows: generalized normal wrenches; N·v is the        N
//                    normal velocity of A relative to B, > 0 separating
//   S, T    nc×nv    rows: generalized wrenches along the tangents t1, t2 S, T
//   φ       nc       signed gaps (m), > 0 separated                       phi
//   μ       nc       Coulomb friction coefficients                        mu
//   μ_v     nc       viscous friction coefficients (N·s/m)                mu_viscous
//   L       nl×nv    joint-limit rows: L·v⁺ ≥ −φ_L/dt, frictionless       L, phi_L
//   p_N     nc       normal impulses (N·s), ≥ 0                           ContactResult::p_N
//   p_S,p_T nc       friction impulses along t1, t2 (N·s)                 ContactResult::p_S, p_T
//
// The step's equation of motion, common to every model:
//   M v⁺ = M v* + Nᵀ p_N + Sᵀ p_S + Tᵀ p_T + Lᵀ p_L (+ joint friction impulses, seed 002 QP4)
// and non-penetration with gap stabilisation (seed 004 Eq. 36): N·v⁺ ≥ −φ/dt.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <limits>
#include <vector>

namespace impetus {

using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// One system (a tree of links) of the island: a diagonal block of M.
struct SystemBlock {
  int offset = 0;                         // first column of this system in the island's nv
  int size = 0;                           // its number of velocity coordinates
  const Eigen::MatrixXd* M = nullptr;     // (size×size) inertia incl. dt·damping, owned by the stepper
  const Eigen::LLT<Eigen::MatrixXd>* M_llt = nullptr;  // its Cholesky factor
};

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
/// (seed 003; sim/assembly_ecp.hpp fills it, every other model ignores it). The solid half-space is
/// {x : n·x ≤ d}; n points out of it, towards the body (the body is A, the plane B: DESIGN.md).
struct BodyPlanePair {
  int body = -1;                          // identity across steps: the body's link index
  int system = -1;                        // its system block (a one-link floating tree): velocity coordinates
                                          // [v_WC; ω_W] at systems[system].offset (dynamics/model.hpp),
                                          // configuration [p_WL; R_WL as (w,x,y,z)] at q_offsets[system]
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

/// Identity of a contact across steps, for warm starts: the pair of geometries and the
/// feature of that pair the point came from (stable while the contact persists).
struct ContactKey {
  int geom_a = -1, geom_b = -1, feature = 0;
  bool operator==(const ContactKey&) const = default;
};

struct ContactKeyHash {
  std::size_t operator()(const ContactKey& k) const {
    return (static_cast<std::size_t>(k.geom_a + 1) * 73856093u) ^ (static_cast<std::size_t>(k.geom_b + 1) * 19349663u) ^
           (static_cast<std::size_t>(k.feature) * 83492791u);
  }
};

/// The rows of a row-sparse matrix that touch each system block, in CSR form:
/// rows[start[b] … start[b+1]) are the rows with a stored entry in the columns of block b.
struct RowsByBlock {
  std::vector<int> start, rows, last_row, fill;
  void build(const SparseRows& X, const std::vector<SystemBlock>& systems);
  int count(int b) const { return start[b + 1] - start[b]; }
  const int* of(int b) const { return rows.data() + start[b]; }
};

/// Buffers of ContactProblem::delassus, owned by its caller, so that the const operator allocates
/// nothing once warm.
struct DelassusScratch {
  RowsByBlock a_rows, b_rows;
  std::vector<double> y;                  // M_b⁻¹ B_bᵀ, size_b × (rows of B in block b), column-major
  Eigen::VectorXd acc;                    // one row of A_b M_b⁻¹ B_bᵀ
};

struct ContactProblem {
  double dt = 0;                          // step (s)

  // --- velocity space of the island ---
  int nv = 0;
  std::vector<SystemBlock> systems;       // block-diagonal M, ordered by offset
  Eigen::VectorXd v;                      // v⁻ (nv)
  Eigen::VectorXd v_star;                 // v* (nv)

  // --- contacts ---
  int nc = 0;
  SparseRows N, S, T;                     // (nc×nv) each
  Eigen::VectorXd phi;                    // (nc) m
  Eigen::VectorXd mu;                     // (nc)
  Eigen::VectorXd mu_viscous;             // (nc) N·s/m
  std::vector<ContactKey> keys;           // (nc) identity across steps
  /// The collision margin (m): a contact with φ ≤ touch_margin is one the collision stage reports at any
  /// speed; beyond it are only speculative contacts (collision/collision_detector.hpp), in the problem for
  /// their gap rows N·v ≥ −φ/dt alone. The no-slip lock holds the former only (contact/no_slip). ∞: every
  /// contact (problems built without a collision stage).
  double touch_margin = std::numeric_limits<double>::infinity();

  // --- joint limits (unilateral, frictionless) ---
  int nl = 0;
  SparseRows L;                           // (nl×nv)
  Eigen::VectorXd phi_L;                  // (nl) distance to the limit (m or rad), > 0 inside

  // --- warm start: the previous step's impulses of the same contacts, 0 where new ---
  Eigen::VectorXd p_N_guess, p_S_guess, p_T_guess;   // (nc)
  Eigen::VectorXd p_L_guess;                         // (nl)

  // --- geometrically implicit contact (the ECP model; empty for every other model) ---
  Eigen::VectorXd q;                      // (nq) configuration at t, system by system: system i's coordinates
                                          // are q[q_offsets[i] .. q_offsets[i+1]) (a tree's layout in State::q)
  std::vector<int> q_offsets;             // (systems + 1), or empty when q is
  std::vector<BodyPlanePair> body_plane;  // body–half-space pairs, each replacing the pair's point contacts
  std::vector<int> replaced_by;           // (nc) or empty: the body_plane pair whose ECP stands for contact
                                          // row r (its impulses are then 0), −1 for rows solved as points

  /// out = M⁻¹ x, block by block (x, out: nv).
  void solve_M(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;
  /// out = A M⁻¹ Bᵀ (dense, rows(A)×rows(B)), exploiting the block structure of M; `scratch` holds its
  /// buffers.
  void delassus(const SparseRows& A, const SparseRows& B, Eigen::MatrixXd& out, DelassusScratch& scratch) const;
  /// Kinetic energy ½ xᵀ M x of a velocity of this island.
  double kinetic_energy(const Eigen::VectorXd& x) const;
  /// No contact and no joint-limit row (nc = nl = 0) over nv velocity coordinates, guesses and
  /// replaced_by included; keeps the storage for reuse.
  void clear_rows(int nv);
};

}  // namespace impetus
