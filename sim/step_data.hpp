// Per-step scratch of the stepper, grouped by the stage that writes it (STYLE.md 3). Sized once from the
// model; buffers are reused from step to step.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Sparse>
#include <unordered_map>
#include <vector>

#include "collision/contact_set.hpp"
#include "contact/contact_rows_fill.hpp"
#include "contact/joint_friction/joint_friction.hpp"
#include "contact/parked_by_count.hpp"
#include "contact/problem.hpp"
#include "contact/problem_bits.hpp"
#include "contact/small_llt_compute.hpp"
#include "contact/result.hpp"
#include "control/controller.hpp"
#include "dynamics/data.hpp"
#include "sim/world.hpp"

namespace impetus {

class CollisionDetector;

/// Seconds spent in each stage of one step (or summed over a run).
struct StageTimes {
  double kinematics = 0, collision = 0, control = 0, dynamics = 0, assembly = 0, contact = 0, integration = 0,
         recording = 0;
  double stepping() const { return kinematics + collision + control + dynamics + assembly + contact + integration; }
  StageTimes& operator+=(const StageTimes& o);
};

/// Impulses (p_N, p_S, p_T) of the last step by contact identity: the warm start of the next.
using ImpulseMemory = std::unordered_map<ContactKey, Eigen::Vector3d, ContactKeyHash>;

/// The last step's solution of a body–plane pair (HullPlaneResult, contact/hull_plane.hpp) that warm-starts
/// the same pair in the next step (BodyPlanePair's guesses).
struct BodyPlaneWarmStart {
  Eigen::Vector3d a1_W = Eigen::Vector3d::Zero();   // ECP on Conv(F), world (m)
  Eigen::VectorXd l;                                // (m) face multipliers l_i
  Eigen::Vector4d p = Eigen::Vector4d::Zero();      // (p_n, p_t, p_o, p_r): N·s, N·s, N·s, N·m·s
  double sigma = 0;                                 // slip speed σ (m/s)
};

/// Everything the contact stage carries from one step to the next, by contact identity, for every model:
/// point contacts by ContactKey, body–plane pairs by body. Owned by the stepper (StepperMemory).
struct WarmStartMemory {
  ImpulseMemory impulses;                                     // (p_N, p_S, p_T) of the point contacts
  std::unordered_map<int, BodyPlaneWarmStart> body_plane;     // by BodyPlanePair::body (link index)
};

/// An island: trees coupled by contacts (and joint limits), solved as one ContactProblem.
struct Island {
  std::vector<int> trees;                 // tree indices, ascending; system i of the problem is trees[i]
  std::vector<int> contacts;              // indices into StepData::contacts, in row order
  std::vector<int> limit_dofs;            // global velocity index of each joint-limit row
  std::vector<double> limit_sign;         // +1 lower limit (v ≥ …), −1 upper limit
};

/// Scratch of the joint-friction stage (sim/joint_friction_stage.hpp): QP4 of one tree at a time.
struct JointFrictionScratch {
  JointFrictionSolver solver;
  std::vector<int> dofs;                  // the tree's velocity coordinates with Coulomb joint friction
  std::vector<double> betas;              // their bounds β = dt·μ_c
  Eigen::VectorXd bound, v_star, x, v;    // QP4's β, v*, joint impulses x and velocity, of one tree
};

/// Scratch of the assembly stage (sim/assembly.cpp).
struct AssemblyScratch {
  struct LimitRow {
    int tree, dof;
    double sign, phi;
  };
  std::vector<LimitRow> limits;           // joint limits within reach of the step
  std::vector<int> tree_parent;           // (trees) disjoint sets of trees joined by contacts
  std::vector<int> island_of_root;        // (trees) island of each set's root tree, −1 for none
  std::vector<int> contact_island;        // (contacts) island of each contact, −1 for none
  std::vector<int> column_of_tree;        // (trees) first island column of each tree, −1 if absent
  std::vector<ContactRowsEntry> rows;     // entries of the island's contact rows N, S, T (contact/contact_rows_fill.hpp)
  std::vector<Eigen::Triplet<double>> L;  // triplets of its joint-limit rows
  // Soft contacts (Compliance::Soft, contact/compliance.hpp):
  std::vector<SurfaceCompliance> soft;    // (contacts) each point's share of its pair's k and b; rigid() if none
  std::vector<std::pair<std::pair<int, int>, int>> soft_pairs;   // (soft contacts) (link pair, contact), sorted
  std::vector<Eigen::MatrixXd> soft_M;    // (soft contacts) 1×1 mass 1/R_i of each one's coordinate w_i
  std::vector<Eigen::LLT<Eigen::MatrixXd>> soft_llt;   // their factors (SystemBlock::M_llt)
  /// The Eigen buffers of islands' ContactProblems and ContactResults at the sizes they do not have now, each
  /// buffer by its own count (nv, nc or nl; rows by nc or nl for each nv): Eigen reallocates a vector or sparse
  /// matrix at every change of size, and a trot's feet change its island's nc every few steps. An island whose
  /// sizes change swaps each buffer with the one parked at its new count (sim/assembly.cpp fit_problem_sizes),
  /// made for every count up to the most met or reserved (contact/parked_by_count.hpp), so a count below that
  /// allocates nothing, whichever order the counts come in. Contents are rewritten every step: which buffers
  /// serve a problem never changes it.
  struct ProblemBuffers {
    ParkedByCount<Eigen::VectorXd> v, v_star, phi, mu, mu_viscous, p_N_guess, p_S_guess, p_T_guess, phi_L, p_L_guess;
    ParkedByCount<SparseRows> N, S, T, L;
    ParkedByCount<Eigen::VectorXd> v_plus, p_N, p_S, p_T, p_L;   // the result's
  };
  ProblemBuffers parked;
  /// What island k's rows were last assembled of (sim/assembly_repeat.hpp): while the island has the same trees,
  /// unmoved by a kinematics pass, and the same contact points to the bit, problems[k]'s rows stand as they are.
  struct RowsSource {
    bool held = false;                    // problems[k]'s rows are those of the fields below
    std::vector<int> trees, contacts;     // the island's trees and contact indices then
    std::vector<std::uint64_t> passes;    // (trees) multibody.kinematics_pass then
    std::vector<std::uint64_t> M_writes;  // (trees) M_eff_source's M_writes when problems[k] last had M_eff
    std::vector<ContactPoint> points;     // (contacts) the contact points then
  };
  std::vector<RowsSource> rows_source;    // (islands)
};

/// A joint-limit row of (R7) (sim/penetration_recovery.hpp): sign·δ_column + gap ≥ 0.
struct RecoveryLimitRow {
  int column = 0;                         // column of u in the recovery's problem
  double sign = 1;                        // +1: lower limit, −1: upper limit
  double gap = 0;                         // u − lower, or upper − u, at q⁺
};

/// Scratch of the penetration recovery (sim/penetration_recovery.hpp).
struct RecoveryScratch {
  std::vector<double> displacement;       // (geometries) D_g of (R4): how far any point of g moved within the step
  /// What D_g was computed from: CollisionDetector::reach(g).placement and the kinematics_pass of g's tree at q⁺.
  struct DisplacementSource {
    std::uint64_t placement = 0;          // 0: none (a placed geometry's count is ≥ 1)
    std::uint64_t pass = 0;
  };
  std::vector<DisplacementSource> displacement_source;   // (geometries)
  const CollisionDetector* displacement_detector = nullptr;   // the detector whose placements these are
  ContactSet contacts;                    // the contacts at q⁺
  std::vector<int> rows;                  // those that take part in (R3)
  std::vector<RecoveryLimitRow> limits;   // the joint-limit rows of (R7)
  Eigen::VectorXd gap;                    // (N's rows) φ⁺ of the rows, then the limits' gaps, then 0
  std::vector<double> gain_of;            // (nv of the model) G's entry of the coordinate in its column
  std::vector<int> local_column;          // (nu of a tree) its column of u among the free ones, −1 if held
  std::vector<char> tree_added;           // (trees) its columns are in `problem`
  std::vector<int> column_of;             // (nv of the model) column of u in `problem`, −1 if absent or held
  std::vector<Eigen::MatrixXd> M_free;    // (trees) M(q⁺) over the coordinates not held, where some are
  std::vector<Eigen::LLT<Eigen::MatrixXd>> M_llt;   // (trees) factors of the trees' metrics
  std::vector<Eigen::Triplet<double>> triplets;
  ContactProblem problem;                 // systems and N⁺ of (R3), at the most rows met (nothing else is filled)
  Eigen::VectorXd lambda, w;              // (N's rows) λ and w of (R3), on its first rows + limits
  Eigen::VectorXd impulse, delta;         // (nv of `problem`) N⁺ᵀλ and δ
  Eigen::VectorXd delta_global;           // (nv of the model) δ of every tree
  Eigen::MatrixXd A;                      // (N's rows, squared) N⁺ M⁻¹ N⁺ᵀ
  DelassusScratch delassus;
};

/// What one step did, for the recorder and the run summary.
struct StepStatistics {
  int contacts = 0;
  int islands = 0;
  int solver_calls = 0;
  int solver_iterations = 0;              // summed over the step's islands
  int solver_max_iterations = 0;          // the largest of one island's solve
  int solver_fallbacks = 0;
  int solver_failures = 0;
  double max_penetration = 0;             // m, ≥ 0, over the step's contacts
  double contact_energy_change = 0;       // J: ½v⁺ᵀMv⁺ − ½v*ᵀMv*, summed over islands
  double recovered_penetration = 0;       // m: the deepest linearised penetration φ⁺ that (R2) removed
  int recovery_passes = 0;                // collision passes at q⁺ of the recovery; 0 when (R4) certified
                                          // that there was nothing to correct (sim/penetration_recovery.hpp)
};

/// What one controller did in one step (stage 3), for control.csv and the summary.
struct ControlStepRecord {
  bool called = false;                    // a call was made this step (rate)
  ControlCall call;                       // the last call's outputs (q_des, q̇_des at its time, prediction)
  Eigen::VectorXd tau;                    // (na) τ applied in this step, after the effort clamp (N·m or N)
  bool clamped = false;                   // some τ hit its effort limit
  double normal_force = 0;                // Σ predicted p_N / dt of the last call (N)
  std::string status;                     // "ok", "fallback", "failed" (τ held), or "held" (no call)
};

struct StepData {
  explicit StepData(const WorldModel& model);

  // --- 1. kinematics (and 4. dynamics: data.M, data.tau) ---
  MultibodyData multibody;
  // The (q, v) whose forward kinematics `multibody` holds, when kinematics_held (sim/step_kinematics.hpp):
  // the step ends with those of its final state, which the next step's stage 1 and the run's monitor and
  // recorder then reuse.
  Eigen::VectorXd kinematics_q, kinematics_v;
  bool kinematics_held = false;

  // --- 2. collision ---
  ContactSet contacts;

  // --- 3. control ---
  Eigen::VectorXd tau_control;            // (nv) τ of the controllers (N·m or N), 0 on undriven coordinates
  std::vector<ControlStepRecord> control; // one per <controller>

  // --- 4. dynamics ---
  Eigen::VectorXd h;                      // (nv) bias C(q, v)v + g(q)
  Eigen::VectorXd tau;                    // (nv) applied generalized forces (controllers, springs)
  std::vector<Eigen::MatrixXd> M_eff;     // per tree (nu_t×nu_t): M + dt·D, damping D taken implicitly; with
                                          // mimic joints Gᵀ(M + dt·D)G (dynamics/mimic.hpp (2)), else nu_t = nv_t
  std::vector<SmallLlt> M_llt;            // per tree: M_eff = L Lᵀ (Eigen's LLT, small ones without its loops)
  struct EffectiveInertiaSource {
    std::uint64_t M_writes = 0;           // multibody.M_writes[t] when M_eff[t] and M_llt[t] were made
    double dt = 0;                        // (s) the step they were made for
    bool made = false;                    // they are those of (M_writes, dt); never for a tree with mimic joints
  };
  std::vector<EffectiveInertiaSource> M_eff_source;   // per tree (sim/free_velocity.cpp)
  struct FreeVelocitySource {
    std::uint64_t M_writes = 0;           // multibody.M_writes[t] when v_star_inputs' v* was made
    double dt = 0;                        // (s)
    bool made = false;                    // never for a tree with mimic joints
  };
  std::vector<FreeVelocitySource> v_star_source;   // per tree (sim/free_velocity.cpp)
  Eigen::VectorXd v_star_inputs;          // (4·nv) per tree from 4·v_offset: the v, τ and h its v* was made of, then
                                          // that v* (before joint friction, which replaces data.v_star)
  struct MimicScratch {
    Eigen::MatrixXd M_full;               // (nv_t×nv_t) M + dt·D before the elimination
    Eigen::VectorXd rhs, rhs_u;           // (nv_t) M v + dt(τ − h); (nu_t) its Gᵀ·, then u*
  } mimic;
  Eigen::VectorXd Mv;                     // (nv) scratch: M v of each tree without mimic joints
  Eigen::VectorXd v_star;                 // (nv) v* = (M + dt·D)⁻¹(M v + dt(τ − h))
  JointFrictionScratch joint_friction;

  // --- 5. assembly ---
  std::vector<Island> islands;
  std::vector<ContactProblem> problems;   // one per island
  std::vector<char> problem_repeats;      // (islands) problems[k] is, to the bit, island k's problem of the last
                                          // step, its rows not assembled again (sim/assembly_repeat.hpp)
  std::vector<Eigen::Vector3d> t1, t2;    // per contact: tangent directions of the S and T rows (W)
  std::vector<char> replaced;             // (contacts) the row is stood for by a point the model chooses (a
                                          // body–plane pair's ECP), reported in its place
  AssemblyScratch assembly;

  // --- 6. contact ---
  std::vector<ContactResult> results;     // one per island
  std::vector<ProblemBits> answered;      // (islands) the problem results[k] answers (Stepper::solve_island)
  std::vector<double> island_energy_change;   // (islands) J: ½v⁺ᵀMv⁺ − ½v*ᵀMv* of each island
  struct EnergySource {
    int tree = -1;                        // the one tree (without mimic joints) of the island it was computed for;
                                          // −1: none (islands of several trees compute theirs every step)
    std::uint64_t M_writes = 0;           // multibody.M_writes[tree] then
  };
  std::vector<EnergySource> energy_source;   // (islands) what island_energy_change[k] was computed of, besides
                                             // problems[k] and results[k] (Stepper::solve_island)
  Eigen::VectorXd v_plus;                 // (nv)
  std::vector<Eigen::Vector3d> impulse;   // per contact: (p_N, p_S, p_T) in N·s
  std::vector<ContactReport> reported;    // the step's contacts as the recorder writes them: the rows not
                                          // replaced, in ContactSet order, with their impulses, then each
                                          // island's ContactResult::contacts
  std::vector<ContactKey> warm_keys;      // (contacts) scratch: this step's keys, for the warm-start memory
  std::vector<ContactKey> remembered_keys;   // (contacts) the keys the memory was last left with, in problem order
  std::vector<ContactKey> remembered_sorted;   // (contacts) the same keys, sorted by (geom_a, geom_b, feature)
  std::size_t remembered_count = 0;       // the memory's size then (its number of distinct keys)

  // --- 7. integration ---
  Eigen::VectorXd q_plus;                 // (nq)
  RecoveryScratch recovery;               // penetration recovery of q⁺ (sim/penetration_recovery.hpp)

  StepStatistics stats;
  StageTimes times;
};

}  // namespace impetus
