// Effort limits inside the inverse dynamics, for every variant (id_solver.hpp): the τ a call returns is
// within the URDF limits |τ_a| ≤ τ̄_a = effort_a·Δt (impulses) AND its predicted contact impulses are those
// of the τ it returns — the control stage's clamp after the fact (sim/control_stage.hpp) would apply a τ
// whose impulses were never predicted (measured on links_trot: knees asked 1.6× their 2.6 N·m limit in the
// two-foot phases, the clamped τ let the base sag and LINKS fell at 0.70 s).
//
// A joint held at its limit is not driven: its τ is fixed at s_a τ̄_a (s_a = ±1) and the rest of the
// problem is the ID problem of (ID1) (id_problem.hpp) over the free joints ℱ, with its impulse moved into
// the free velocity:
//   M v⁺ = M v* + P_𝒮ᵀ s τ̄_𝒮 + P_ℱᵀ τ_ℱ + Jᵀ p,   P_ℱ v⁺ = q̇_des,ℱ
//   ⇔ (ID1) with P → P_ℱ, q̇_des → q̇_des,ℱ and v* → v* + M⁻¹ P_𝒮ᵀ s τ̄_𝒮                          (EL1)
// so any variant solves it unchanged, and its p is the twin forward model's under the full τ = (τ_ℱ, s τ̄_𝒮).
//
// Which joints: with p fixed (id_no_contact, id_sensed, or a contact set that does not change) P v⁺ =
// P v* + G τ + P M⁻¹Jᵀp, and the τ in the box |τ| ≤ τ̄ that misses q̇_des least in the kinetic-energy metric
// (G = P M⁻¹ Pᵀ, as id_lcp_noslip's §4.5 target) is the strictly convex box QP
//   min ½ (P v⁺ − q̇_des)ᵀ G⁻¹ (P v⁺ − q̇_des)  over |τ_a| ≤ τ̄_a,   gradient  P v⁺ − q̇_des          (EL2)
// whose KKT conditions are, per driven joint a:
//   free          |τ_a| ≤ τ̄_a  and  (P v⁺)_a = q̇_des,a          (what (EL1) gives every free joint)
//   at +τ̄_a      (P v⁺)_a ≤ q̇_des,a   (the limit cannot reach the target: more τ would be wanted)
//   at −τ̄_a      (P v⁺)_a ≥ q̇_des,a                                                               (EL3)
// Solved by principal pivoting with Murty's least-index rule (Murty 1974, a Bard-type method: finite for an
// LCP with a P-matrix, here G): solve (EL1), then the FIRST driven joint that breaks (EL3) changes state —
// a free joint over its limit is held at that limit, a held joint whose velocity passes its target in the
// direction its limit pushes (it needs less than its limit) is driven again — and (EL1) is solved again;
// stop when every joint meets (EL3). With contact, p moves with τ (the variant's model) and the rule has no
// finiteness proof: at most kMaxRoundsPerJoint·na re-solves, then the last round within the limits is
// returned (its τ is within them and its p is its own; only a return is missed), or, when no round was,
// the last one clamped, status Fallback (its prediction is then that of the unclamped τ, as before).
// A call whose first solution is within the limits is that solution, bit for bit (no second solve).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"
#include "control/inverse_dynamics/id_solver.hpp"

namespace impetus {

/// Reused storage of the limited solve (one per controller).
class EffortLimits {
 public:
  /// `solver` on `problem` under problem.effort (empty: no limit; see the header). solution.saturated
  /// (na): +1 / −1 for a joint held at its upper / lower limit, 0 for a driven one; solution.tau holds
  /// exactly ±effort·Δt there. Statistics: the last solve's status and message, iterations and fallbacks
  /// summed over the solves, solution.effort_rounds the number of solves. `contact` is *problem.contact,
  /// writable: each re-solve lends it the v* of (EL1) and gives the caller's v* back (the same object), so
  /// no copy of the problem is made.
  void solve(InverseDynamicsSolver& solver, const InverseDynamicsProblem& problem, ContactProblem& contact,
             InverseDynamicsSolution& solution);
  /// Sizes the re-solves' buffers up front for na driven joints, nv coordinates and up to `most_contacts`
  /// contacts (the most the model can make): a driven set or contact count first met once warm then
  /// allocates nothing here (issue 16). Optional: without it the buffers are sized as met.
  void reserve(int na, int nv, int most_contacts);

 private:
  /// `lent` swapped into `slot` for the scope and back when it ends, exception or not: the caller's vector
  /// (the same object) is always returned.
  class Lent {
   public:
    Lent(Eigen::VectorXd& slot, Eigen::VectorXd& lent) : slot_(slot), lent_(lent) { slot_.swap(lent_); }
    ~Lent() { slot_.swap(lent_); }
    Lent(const Lent&) = delete;
    Lent& operator=(const Lent&) = delete;

   private:
    Eigen::VectorXd& slot_;
    Eigen::VectorXd& lent_;
  };

  void solve_round(InverseDynamicsSolver& solver, const InverseDynamicsProblem& problem, ContactProblem& contact);

  // The re-solves' problem is problem.contact with v* of (EL1) swapped in (v_star_) and out again, not a copy:
  // a copy of its sparse rows to another contact count reallocates, and one copy kept per count met allocated
  // whenever the trot's feet first made a count once warm (issue 16).
  Eigen::VectorXd v_star_;                 // (nv) v* of (EL1) during a re-solve; the caller's v* between them
  std::vector<Eigen::VectorXd> qd_des_by_size_;   // q̇_des,ℱ, one per |ℱ| (0…na)
  InverseDynamicsProblem reduced_;         // P_ℱ, q̇_des,ℱ
  BySize<InverseDynamicsSolution> round_by_size_;   // the solves over ℱ, one per |ℱ| met
  InverseDynamicsSolution* round_ = nullptr;        // the last of them
  InverseDynamicsSolution kept_;                    // the last round within the limits (full)
  Eigen::VectorXi state_;                  // (na) 0 free, ±1 held at ±τ̄
  Eigen::VectorXd bound_, impulse_, shift_;   // (na) τ̄; (nv) P_𝒮ᵀ s τ̄_𝒮 and M⁻¹ of it
  std::vector<int> seen_;                  // the held sets solved so far, na each; reserved to the round cap
};

/// Re-solves allowed per driven joint before the limited solve stops (see the header): a safety bound for
/// the problems with contact, where the rule has no finiteness proof (Murty's rule changes one joint per
/// round, so na rounds hold every joint once; three times that lets each be held, returned and held again).
constexpr int kMaxRoundsPerJoint = 3;

/// A held joint returns when its velocity passes its target by more than this fraction of what its limit
/// impulse alone changes it by (τ̄_a G_aa, rad/s or m/s): the variants meet P v⁺ = q̇_des to their
/// certificates (Lemke's ρ ≤ 1e-6 relative, lemke.hpp L6), so a smaller miss is the solve's rounding at a
/// degenerate point where (EL3) holds both ways, and returning the joint would only bring it back over its
/// limit. Erring high keeps a joint at its limit that wants marginally less: τ within the limits, p its own.
constexpr double kReturnMiss = 1e-6;

}  // namespace impetus
