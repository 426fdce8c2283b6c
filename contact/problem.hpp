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
// and non-penetration with gap stabilisation (seed 004 Eq. 36): N·v⁺ ≥ −φ/dt. A compliant contact comes as
// this rigid row of a larger system (extra coordinates and M blocks, contact/compliance.hpp): models need not
// know it.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <limits>
#include <vector>

#include "contact/typed_slot.hpp"

namespace impetus {

using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// One system (a tree of links) of the island: a diagonal block of M.
struct SystemBlock {
  int offset = 0;                         // first column of this system in the island's nv
  int size = 0;                           // its number of velocity coordinates
  const Eigen::MatrixXd* M = nullptr;     // (size×size) inertia incl. dt·damping, owned by the stepper
  const Eigen::LLT<Eigen::MatrixXd>* M_llt = nullptr;  // its Cholesky factor
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
  std::vector<int> column_block;          // (columns of X) the block holding each column, −1 if none
  void build(const SparseRows& X, const std::vector<SystemBlock>& systems);
  int count(int b) const { return start[b + 1] - start[b]; }
  const int* of(int b) const { return rows.data() + start[b]; }
};

/// Buffers of ContactProblem::delassus, owned by its caller, so that the const operator allocates
/// nothing once warm.
struct DelassusScratch {
  RowsByBlock a_rows, b_rows;
  std::vector<double> y;                  // M_b⁻¹ B_bᵀ, size_b × (rows of B in block b), column-major
  std::vector<double> y_t;                // its transpose
  std::vector<int> wanted;                // the columns of Y a partial product computes
  // keep_delassus_rows (problem_into.hpp): B's rows per block and every block's Y, for the calls with A = B = *kept.
  const SparseRows* kept = nullptr;
  std::vector<double> y_kept;             // the blocks' Y one after the other, block b's from y_offset[b]
  std::vector<std::size_t> y_offset;
  /// The kept Y no longer stands for anything: the next products compute their own.
  void forget() { kept = nullptr; }
};

/// A field added here is a new input of the models: write it in the dump (contact/dump/problem_dump.cpp) and
/// compare it in ProblemBits (contact/problem_bits.cpp), or a step would keep an answer it no longer has.
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

  // --- what the model's ProblemNeeds (contact_model.hpp) asked of the assembly beyond these rows, as the
  //     type the need names (hull_plane_pairs: HullPlaneProblem, contact/hull_plane.hpp); empty otherwise ---
  TypedSlot extension;

  /// out = M⁻¹ x, block by block (x, out: nv).
  void solve_M(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;
  /// out = A M⁻¹ Bᵀ (dense, rows(A)×rows(B)), exploiting the block structure of M; `scratch` holds its
  /// buffers.
  void delassus(const SparseRows& A, const SparseRows& B, Eigen::MatrixXd& out, DelassusScratch& scratch) const;
  /// Kinetic energy ½ xᵀ M x of a velocity of this island.
  double kinetic_energy(const Eigen::VectorXd& x) const;
  /// No contact and no joint-limit row (nc = nl = 0) over nv velocity coordinates, guesses included; keeps
  /// the storage for reuse.
  void clear_rows(int nv);
};

}  // namespace impetus
