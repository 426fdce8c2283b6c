// The inverse-dynamics problem of one control call (seed 004 §4–§6), and the elimination of τ that every
// variant shares.
//
// Glossary (contact/problem.hpp has the shared notation; seed 004's names, notes 004 §1.1)
//   symbol  size      meaning                                                   code
//   ------  --------  --------------------------------------------------------  ----------------------------
//   P       na×nv     selection of the driven (actuated) coordinates            actuated (indices)
//   v*      nv        free velocity WITHOUT this controller's τ:                 problem.v_star
//                     (M + dt·D)⁻¹(M v⁻ + dt(τ_other − h)) — gravity, Coriolis,
//                     loads, other actuators: seed 004's −M⁻¹κ, κ ≜ −Δt f_ext − M v⁻
//   q̇_des   na        desired velocity at the end of the step, q̇ + Δt q̈_des    qd_des
//                     (seed 004 Eqs. 38–39; no M⁻¹f_ext term, notes §6.3)
//   τ       na        actuator IMPULSE over the step (N·m·s or N·s); the         tau (÷ dt for N·m or N)
//                     torque applied is τ/dt
//   G       na×na     P M⁻¹ Pᵀ, the joint-space inverse inertia                  G_llt
//   K       nv×nv     M⁻¹ − M⁻¹PᵀG⁻¹PM⁻¹: the velocity block of X⁻¹,            (only K Jᵀ is formed)
//                     X = [[M, −Pᵀ]; [P, 0]] (seed 004 Eq. 63, sign of τ fixed)
//   v_c     nv        the velocity with the contact-free ID impulse τ_c          v_c
//   J       3nc×nv    [N; S; T], the contact rows of the island                 J
//   p       3nc       [p_N; p_S; p_T], contact impulses (N·s)
//
// Model (every variant; seed 004 Eq. 37 with ONE sign convention, notes §2 "derive your own"):
//   M v⁺ = M v* + Pᵀτ + Nᵀp_N + Sᵀp_S + Tᵀp_T,     P v⁺ = q̇_des                             (ID1)
// Errata corrected: Eqs. 37, 58, 73 print −Pᵀτ and Eqs. 42, 59, 64, 79 flip κ between ±; here τ
// enters with + like every contact impulse (as Eq. 8 and 50–51), and κ never appears: M v* = −κ + (other
// applied impulses). A positive τ accelerates its joint positively, as the simulator's <actuator>.
//
// Eliminating τ (the Schur complement of X, seed 004 Eqs. 63 and 79):
//   τ   = G⁻¹(q̇_des − P v* − P M⁻¹ Jᵀ p) = τ_c + T_τ p,   T_τ = −G⁻¹ P M⁻¹ Jᵀ                (ID2)
//   v⁺  = v_c + K Jᵀ p,   v_c = v* + M⁻¹Pᵀ τ_c,   τ_c = G⁻¹(q̇_des − P v*)                    (ID3)
// P K = 0, so P v⁺ = q̇_des for every p: the contact problem of an ID call is the forward problem of
// the same step with M⁻¹ replaced by K and v* by v_c. K is PSD of rank nv − na: a fully actuated robot
// touching only static geometry has K Jᵀ = 0 and contact impulses that are indeterminate (notes §6.14).
//
// Joint-limit rows (problem.L) do not enter the ID variants: a driven joint is prescribed by P v⁺ =
// q̇_des, and the trajectory is expected to stay inside its limits.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

struct InverseDynamicsProblem {
  const ContactProblem* contact = nullptr;   // the island of the driven tree, assembled as stage 5 will see it
  std::vector<int> actuated;                 // (na) island velocity index of each driven coordinate (P)
  Eigen::VectorXd qd_des;                    // (na) q̇_des
  Eigen::VectorXd sensed;                    // (3nc) or empty: measured [p_N; p_S; p_T] (id_sensed only)
  Eigen::VectorXd effort;                    // (na) or empty: URDF effort limit |τ_a|/Δt ≤ effort_a (N·m or
                                             // N), 0: none; honoured by EffortLimits (effort_limits.hpp)
};

/// The dense quantities of (ID2)–(ID3) for one problem. Dense: na, nv ≤ a few dozen, nc ≤ a few hundred.
class ActuatedElimination {
 public:
  /// Forms G, τ_c, v_c, J, K Jᵀ, T_τ and D = J K Jᵀ. False when G is not positive definite (a driven
  /// coordinate without inertia).
  bool build(const InverseDynamicsProblem& problem);

  int nv() const { return s_.nv; }
  int na() const { return s_.na; }
  int nc() const { return s_.nc; }
  const Eigen::VectorXd& tau_c() const { return s_.tau_c; }   // (na) impulse
  const Eigen::VectorXd& v_c() const { return s_.v_c; }       // (nv)
  const Eigen::MatrixXd& KJt() const { return s_.KJt; }       // (nv×3nc) K Jᵀ, columns N, S, T
  const Eigen::MatrixXd& T_tau() const { return s_.T_tau; }   // (na×3nc)
  const Eigen::MatrixXd& D() const { return s_.D; }           // (3nc×3nc) J K Jᵀ, symmetric PSD
  const Eigen::MatrixXd& J() const { return s_.J; }           // (3nc×nv)
  const Eigen::MatrixXd& Minv_Jt() const { return s_.Y; }     // (nv×3nc) M⁻¹ Jᵀ
  const Eigen::MatrixXd& Minv_Pt() const { return s_.Minv_Pt; }   // (nv×na) M⁻¹ Pᵀ

  /// τ = τ_c + T_τ p and v⁺ = v_c + K Jᵀ p (p = [p_N; p_S; p_T], 3nc).
  void torque(const Eigen::VectorXd& p, Eigen::VectorXd& tau) const;
  void velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v_plus) const;

 private:
  // Every buffer is sized by (nv, na, nc), and a trot's held contacts (and the effort limits' driven sets,
  // effort_limits.hpp) change these from call to call, where Eigen reallocates at every change of size: the
  // buffers of each shape met (at most kMaxParked shapes) are kept, and build() swaps in those of its shape
  // (use_shape). build() writes every entry it reads, so which set serves a call does not change its result.
  struct Sized {
    int nv = 0, na = 0, nc = 0;
    Eigen::MatrixXd Minv_Pt, J, Y, KJt, T_tau, D;
    Eigen::LLT<Eigen::MatrixXd> G_llt;
    Eigen::VectorXd tau_c, v_c, col;
    // build()'s scratch: a unit vector and a row of J (nv), G, P v* − q̇_des's residual, P Y, and the
    // products M⁻¹Pᵀτ_c (nv) and M⁻¹Pᵀ T_τ, each evaluated apart and then added, as the temporaries they
    // replace (so the same bits).
    Eigen::VectorXd unit, row, residual, Minv_Pt_tau;
    Eigen::MatrixXd G, PY, Minv_Pt_T;
  };
  // 13 driven sets' sizes (LINKS' 12 joints held one by one) times a stance's contact counts (0 to 8 and
  // more when it falls, park_shapes_up_to) exceed 128; a set at 10 contacts and 18 coordinates is ~32 kB.
  static constexpr std::size_t kMaxParked = 256;
  void use_shape(int nv, int na, int nc);
  /// Parks a set of every shape (nv, a, c) with a ≤ na, c ≤ nc not parked yet, each buffer at the size build()
  /// gives it: a shape below the most driven coordinates and contacts met then allocates nothing when first met
  /// (issue 16: the effort limits' rounds drop driven joints one by one, and a stance's contacts come and go).
  /// For the nv of the call that raised the most; an island of another nv parks its shapes as it meets them.
  void park_shapes_up_to(int nv, int na, int nc);
  static void size_for_shape(Sized& s, int nv, int na, int nc);
  Sized s_;
  std::vector<Sized> parked_;
  int most_na_ = -1, most_nc_ = -1;   // the most driven coordinates and contacts met, or −1
};

}  // namespace impetus
