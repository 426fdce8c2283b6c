// The ECP model (seed 003: Xie & Chakraborty, "Rigid Body Motion Prediction with Planar Non-convex
// Contact Patch"; reading notes: shared/notes/seed-003-notes.md). A geometrically implicit time step: the
// velocity v⁺, the configuration q⁺, one equivalent contact point (ECP) per body–plane pair and the contact
// impulses, including a frictional moment about the normal, solve one mixed complementarity problem.
//
// Problem (per island; ContactProblem, contact/problem.hpp). For every body–half-space pair e (the model's
// ProblemNeeds ask for hull_plane_pairs: HullPlaneProblem::pairs in ContactProblem::extension,
// contact/hull_plane.hpp): a free rigid body F whose collision geometry has the convex hull
// Conv(F) = {x : u_iᵀx ≤ d_i} (body frame L), against the static half-space G = {x : nᵀx ≤ d}. The other
// contacts of the island are the point rows N, S, T that no pair replaces (HullPlaneProblem::replaced_by).
//
//   symbol     size    meaning                                                       code
//   v⁺, v*     nv      end-of-step and free velocities                               v_plus, v_star
//   c, R       3, 3×3  body's centre of mass and orientation at t                    (from HullPlaneProblem::q)
//   c⁺, R⁺     3, 3×3  the same at t + dt                                            (from v⁺, E3)
//   ν_i        3       face normal at t + dt, R⁺u_i                                  EcpSystem nu_
//   a1, a2     3       ECP on Conv(F) and on the plane                               BodyPlaneSolution
//   r          3       a1 − c⁺                                                       r
//   l_i        m       face multipliers of the closest-point problem                 BodyPlaneSolution::l
//   p_n        1       normal impulse at a1 (N·s)                                    p_n
//   p_t, p_o   1, 1    friction impulses along t, o (N·s)                            p_t, p_o
//   p_r        1       frictional moment impulse about n (N·m·s)                     p_r
//   σ          1       slip speed of the limit surface (m/s)                         sigma
//   e_t,e_o,e_r        ellipsoidal limit surface (Eq. 13), e_r in m                 EcpOptions
//   β, ŵ       3, 3    (p_t/e_t, p_o/e_o, p_r/e_r) and (e_t w_t, e_o w_o, e_r w_r)
//   w          3       (W_tᵀν⁺, W_oᵀν⁺, W_rᵀν⁺): slip velocities and spin about n at a1
//
// Equations (seed 003 numbers in brackets):
//   (E1) M(v⁺ − v*) = Nᵀp_N + Sᵀp_S + Tᵀp_T + Lᵀp_L + Σ_e W_eᵀ(p_n, p_t, p_o, p_r)           [16, 18]
//        W_e = [n t o 0; r×n r×t r×o n] on the body's coordinates [v_WC; ω]                   [2]
//   (E2) Conv(F⁺) = {x : f_i(x) ≤ 0},  f_i(x) = ν_iᵀ(x − c⁺) − (d_i − u_iᵀp_LC)                [5–11]
//   (E3) c⁺ = c + dt v⁺_C,  R⁺ = exp(dt[ω⁺]×) R                                                 [17]
//   (E4) Σ_i l_i ν_i + n = 0                                                                   [8, 9]
//   (E5) 0 ≤ l_i ⊥ −f_i(a1) ≥ 0                  for every face i                              [10]
//   (E6) 0 ≤ p_n ⊥ nᵀa1 − d ≥ 0                                                                [12]
//        as solved: (E6′) 0 ≤ p_n ⊥ nᵀa1 − d − φ_floor ≥ 0,  φ_floor = min(φ₀ + s, 0),
//        φ₀ = min_j nᵀx_j(q) − d the hull's signed distance at t, s = ecp::kGapFloorSlop (see below)
//        a2 = a1 − (nᵀa1 − d) n                                                                [8, 11]
//   (E7) μ p_n ŵ + σ β = 0                                                                     [14]
//   (E8) 0 ≤ σ ⊥ μ p_n − ‖β‖ ≥ 0                                                               [15]
//   (E9)–(E10) point rows: 0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0 (φ ≥ 0: the assembly's max(φ, 0), (R1)), and
//        (E7)–(E8) with e = 1, no moment, ŵ = (S v⁺, T v⁺): the maximum-dissipation Coulomb cone of [35]
//   (E11) joint limits: 0 ≤ p_L ⊥ L v⁺ + φ_L/dt ≥ 0
//
// Why (E4)–(E6) and not (8)–(12) as printed (the errata of notes §5.1). For a half-space g(x) = nᵀx − d,
// (9) reads ν_k + Σ_{i≠k} l_i ν_i = −l_g n. Its left side is an outward normal of Conv(F⁺) at a1 (ν_k plus a
// non-negative combination of faces active there), never 0, so l_g > 0, (11) puts a2 on the plane, and
// dividing (9) by l_g gives (E4) with l̂_k = 1/l_g > 0, l̂_i = l_i/l_g. Conversely any solution of (E4)–(E5)
// gives one of (8)–(11) for every k with l̂_k > 0 (l_g = 1/l̂_k, and (8) sets the paper's l_k = gap·l̂_k).
//   - The active face. Each face with l̂_k > 0 has f_k(a1) = 0 by (E5): f_k(a1) = 0 is enforced on the
//     active face, as the notes ask, and the active face is re-selected by the complementarity itself when
//     the body tips (l̂_k → 0 while the multiplier of the next face grows, within one Newton solve). No
//     index k is carried from step to step, so none can be stale; the solution reports the face with the
//     largest multiplier (BodyPlaneSolution::active_face). The paper's form divides by the multiplier of a
//     chosen k, which becomes 0 exactly when the body tips off face k: there it needs re-selection by hand.
//   - No penetration. In (8)–(10) read literally, at touching l_k = 0 and face k only needs f_k(a1) ≤ 0, so
//     a1 may sit inside Conv(F) on a plane that cuts the hull. In (E4)–(E5), −n is in the normal cone of
//     Conv(F⁺) at a1, which are the (necessary and sufficient) KKT conditions of the linear program
//     min {nᵀx : x ∈ Conv(F⁺)}: a1 is a lowest point of the hull, nᵀa1 − d is the signed distance of
//     Conv(F⁺) from the plane, exactly, and (E6) keeps it ≥ 0. Since F ⊂ Conv(F), F does not penetrate
//     either (Prop. 2), and since only extreme points of F reach the plane, a1 lies in the convex hull of
//     the true contact patch whenever p_n > 0 (Prop. 1).
//   - (E8) is (15) with the factor μp_n + ‖β‖ ≥ 0 divided out: same solutions, but its gradient in p_n does
//     not vanish at p_n = β = 0, where the squared form leaves an empty Jacobian row.
//   - (E7) is (14) divided by e_t, e_o, e_r: the same equations in variables of equal units (N·s, m/s).
//
// Where the gap enters, and why (E6′) under fast motion (issue 12). The paper's gap is (12) alone, our (E6):
// ψ(q⁺) = nᵀa1 − d, the exact distance of Conv(F⁺) from the plane at t + dt, with q⁺ from v⁺ by (17), our
// (E3). No other equation holds a gap: (8)–(11), our (E4)–(E5), place a1 on the hull at q⁺, and (16)–(18)
// and (13)–(15) carry no distance. To first order in dt, ψ(q⁺) = φ₀ + dt·nᵀu_a + O(dt²), u_a the velocity
// of the hull point at a1, so (E6) at a hull that already penetrates at t (φ₀ < 0) asks nᵀu_a ≥ −φ₀/dt:
// the −φ/dt push-out of the point rows (seed 004 Eq. 36), a velocity that stays in v⁺. A box seen 2 cm deep
// at dt = 2 ms leaves at 10 m/s; on scenes/fast_drop.xml the contact stage added up to 475 J that way.
// (E6′) is the point rows' (R1) (sim/penetration_recovery.hpp) for the implicit gap: for φ₀ ≥ 0 (and
// within the slop s below) it is (E6), the paper's model unchanged: a gap closes exactly at the plane within
// the step, since the pair is in the problem as soon as the hull can reach the plane within it
// (sim/assembly_ecp.hpp: speculative by kReachSteps·dt·speed, geometrically implicit by (E3)). For φ₀ < −s
// the hull may end the step as deep as it started, no deeper: p_n > 0 only at ψ(q⁺) = φ₀ + s, so
// nᵀu_a ≈ s/dt, not −φ₀/dt, and the normal impulse's work p_n·nᵀu_a is at most p_n·s/dt instead of
// p_n·|φ₀|/dt. The depth is removed at the position level, v⁺ untouched, by the stepper's penetration
// recovery after the step ((R2), Cline & Pai 2003), which covers the hull bodies' ground contacts; s equals
// its slop kRecoverySlop, below which it corrects nothing, so that each depth is removed by exactly one of
// the two. Prop. 2 (no penetration) thus holds for every step that starts without penetration, which is the
// state the recovery leaves. (E4)–(E5) and the Jacobian are unchanged: φ_floor is a constant of the step.
//
// Other deviations, and choices where the paper is silent:
//   - M is the inertia at t (ContactProblem::systems), as in every model of Impetus, not M^{u+1} of (16);
//     the two agree wherever the world inertia is invariant under the step's rotation (any rotation about
//     the vertical of a body with I_xx = I_yy: the desk, the spinning and sliding boxes). Gyroscopic and
//     applied impulses enter through v* at t, as in (16).
//   - (E3) replaces the linear quaternion update (17) by the exponential map of dynamics/integration.hpp: q⁺
//     stays a unit quaternion and is the very q⁺ the integrator forms from v⁺, so the configuration the
//     constraints hold at and the stepper's agree to round-off. ContactResult::q_plus carries it.
//   - Several pairs: one ECP per body–plane pair, one set of (E4)–(E8) each (notes §1.8).
//   - Pairs the hull argument does not cover (body–body, a curved or articulated body, a static box) keep
//     their point rows, solved in the same MCP by (E9)–(E10) with the linearised gap of the collision stage:
//     coupled to the ECPs, explicit in the geometry. Viscous friction μ_v is not part of this model.
//   - Solver (not named in the paper): semismooth Newton on the Fischer–Burmeister reformulation with an
//     Armijo line search and a Levenberg–Marquardt safeguard (contact/solvers/semismooth_newton.hpp), on the
//     scaled unknowns of contact/ecp/ecp_system.hpp. The MCP may have several solutions (a box landing on
//     a face may end the step flat, or still on the edge it pivots about), and the merit function local
//     minima between them: a start on the wrong side of a face can stall (the solver stops a stalled run
//     early). So the model tries up to five runs: (1) plain Newton from the warm start (EcpSystem::Start:
//     the previous step's solution of the same pair) with the faces near the support set; then, with every
//     face and the smoothing continuation of semismooth_newton.hpp (S8), which keeps each complementarity
//     pair inside both branches until the path of solutions has chosen one: (2) the warm start again,
//     (3) level: the ECP in the middle of the hull points the free motion brings down within the step,
//     (4) current: the ECP at the lowest points at t; and, plain Newton with every face, (5) free motion:
//     v⁺ = v*, no impulse, the ECP at the lowest point of the hull where v* takes it, and the slip rate σ of
//     that motion at the ECP. It is the run that converges where a spinning body slides into the plane with
//     a vanishing normal impulse (a box landing on a corner, bouncing off it): at the solution σ = ‖ŵ‖ and
//     β → 0 with p_n, and the other starts' σ of a few U left Newton stalled at β ≠ 0, p_n ≈ 0, where
//     (E7)–(E8) have no solution nearby (scenes/fast_drop_small.xml: 122 → 80 failed island solves of
//     2651). It comes last so that a step one of the others solves keeps its solution. The first converged
//     run whose ECP violates no hull face is the result (status Solved; `attempts` says which run).
//   - Fallback (not in the paper), status Fallback, counted in the statistics, the message saying for each
//     run how it ended and which equation had the largest residual. When every run fails, the island is
//     solved without its ECPs, each pair's ground contacts as the point rows (E9)–(E10) of the collision
//     stage (HullPlaneProblem::replaced_by): first by the same Newton method (warm, then smoothed); then,
//     if that fails too, by the max_dissipation model (seed 002), whose programs have no failure mode
//     ((MD3) of contact/max_dissipation/max_dissipation.hpp) and add no kinetic energy ((MD8)); its
//     friction cone is (E10)'s. The stepper then integrates the pairs' bodies itself and reports the
//     point contacts. What is lost for that step is the ECP's implicit gap: a contact the collision stage
//     did not report (beyond its speculative margin) is not seen; the stepper's recovery removes what
//     penetration results. Measured on scenes/fast_drop_small.xml: 26 fallbacks in 3168 island solves,
//     0 failures (before: 80 failures, each returning the run with the smallest residual, which added up
//     to 1.5 J of kinetic energy in a step).
#pragma once

#include <memory>
#include <string_view>

#include "contact/contact_model.hpp"
#include "contact/ecp/ecp_system.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/solvers/semismooth_newton.hpp"
#include "contact/workspace_by_structure.hpp"

namespace impetus {

/// Options of <physics><ecp …/>.
struct EcpOptions {
  /// Limit surface (seed 003 Eq. 13): e_t, e_o dimensionless, e_r in m. Defaults 1, 1, 0.1 m (the paper's
  /// experiments). Range 1e-6 … 1e6. The paper keeps e_r fixed as the patch changes; so does this model.
  ecp::LimitSurface surface;
  /// Newton tolerance on the scaled residual ‖Φ‖∞ (ecp_system.hpp: 1e-10 is a gap error of 1e-10·g·dt²,
  /// an impulse error of 1e-10 of a body's weight impulse). Default 1e-10; range 1e-14 … 1e-4.
  double tolerance = 1e-10;
  /// Newton iterations per attempt. Default 50; range 1 … 100000.
  int max_iterations = 50;

  /// Parses <physics><ecp e_t= e_o= e_r= tolerance= max_iterations=/> (contact/model_options.hpp); throws
  /// OptionError on an unknown key or a value out of range.
  static EcpOptions parse(const ModelOptions& options);
};

class EcpModel final : public ContactModel {
 public:
  explicit EcpModel(EcpOptions options = {});
  /// The number of Newton runs (starts) a step may take before it is reported as Failed.
  static constexpr int kRuns = 5;

  std::string_view name() const override { return "ecp"; }
  std::unique_ptr<ContactWorkspace> make_workspace() const override;
  using ContactModel::solve;
  void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const override;
  const EcpOptions& options() const { return options_; }
  /// The factory's entry (contact/factory.cpp): EcpOptions::parse, then the model.
  static std::unique_ptr<ContactModel> create(const ModelOptions& options);

 private:
  /// The buffers of the solves of one island structure: what the model object must not hold.
  struct Buffers {
    explicit Buffers(const EcpOptions& options);
    ecp::EcpSystem system_;
    SemismoothNewton newton_;
    Eigen::VectorXd z_;
    HullPlaneProblem no_pairs_;   // stands for the extension of a problem that has none
  };
  /// The workspace (ContactWorkspace): Buffers per island structure (contact/workspace_by_structure.hpp;
  /// the structure includes the pairs' hulls), so that islands of different sizes solved in turn do not
  /// resize the Newton system's buffers.
  struct Workspace final : ContactWorkspace {
    explicit Workspace(const EcpOptions& options) : by_structure(options) {}
    ByStructure<Buffers, EcpOptions> by_structure;
    std::unique_ptr<ContactWorkspace> point_fallback_;   // point_fallback_'s buffers
  };
  /// One attempt from `start`; returns the solver's result and leaves its z in z_.
  SemismoothNewtonResult attempt(Buffers& ws, const ContactProblem& problem, const HullPlaneProblem& pairs,
                                 ecp::EcpSystem::Start start, bool all_faces, double smoothing) const;

  EcpOptions options_;
  /// The last fallback: the island as point contacts under maximum dissipation, which has no failure mode
  /// (contact/max_dissipation/max_dissipation.hpp (MD3)) and adds no kinetic energy (MD8).
  MaxDissipationModel point_fallback_;
};

}  // namespace impetus
