// Least-‖τ‖ choice among indeterminate contact impulses at a fixed v⁺ (the no-slip analogue of seed 004
// §6.2.4's Stage II), used by id_lcp_noslip.
//
// Once v⁺ is known, the impulse balance of the step (id_problem.hpp ID1) is
//   Pᵀτ + Jᵀp = r,   r = M(v⁺ − v*)                                                          (LT1)
// Its driven rows give τ = P(r − Jᵀp); the others (the floating base, free bodies, undriven joints;
// U selects them) are conditions on p alone: U Jᵀ p = U r. So every p′ = p + δ with δ ∈ ker(U Jᵀ)
// (over the impulse components allowed to change), τ′ = τ − P Jᵀ δ, gives the same v⁺:
// M Δv = PᵀΔτ + JᵀΔp = (I − PᵀP) Jᵀδ = Uᵀ U Jᵀδ = 0. Where that kernel is not trivial the impulses
// are indeterminate (four feet down; three feet with twelve driven joints) and principal pivoting
// returns a vertex of the polytope p_N ≥ 0: a foot carrying nothing while touching, whose next
// round-off lifts it, and a τ that jumps when the vertex changes. The choice here, with A = P Jᵀ and
// E = U Jᵀ:
//   minimise  ½‖τ − A δ‖² + ½ε‖δ‖²   s.t.  E δ = 0,  p_N + δ_N ≥ 0 on the binding normal rows     (LT2)
// strictly convex (ε > 0), so the choice is unique and continuous in the problem's data. Normal rows
// that are not binding (N v⁺ + φ/dt > 0) keep p_N = 0 and are not variables; tangent rows are free
// (no-slip: no friction bound).
//
// Solved in the coordinates' space, not the impulses' [mine]: with W the bounded rows held at p′ = 0
// and F the others, stationarity of (LT2) reads εδ_F = A_Fᵀ τ′ − E_Fᵀ μ, so δ_F ∈ range(B_Fᵀ), B = Jᵀ
// (nv×m): at most nv dimensions whatever the number of contacts m. With the Gram matrix factored as
// B_F B_Fᵀ = C Cᵀ (C: nv×r, r = rank B_F, from a pivoted Cholesky factorisation), B_F = C Vᵀ for an orthonormal basis V
// (m×r) of that range, so A_F V = C_A and E_F V = C_E (the rows of C at driven and undriven
// coordinates), and (LT2) on F is the nv-sized
//   minimise  ½‖τ + A_W x_W − C_A y‖² + ½ε‖y‖²   s.t.  C_E y = E_W x_W,   δ_F = V y              (LT3)
// solved on the null space of its constraint. W is found by the primal–dual active-set method
// (Hintermüller, Ito & Kunisch 2002, the semismooth Newton method on p′_k = max(0, p′_k − λ_k)): W
// gets the rows (LT3) drives below 0 and loses those whose multiplier
//   λ_k = −a_kᵀτ′ + e_kᵀμ − εx_k   (k ∈ W; a_k, e_k the driven and undriven parts of B's column)     (LT4)
// is negative; it stops when W repeats, which is then the KKT point of (LT2). Each pass costs O(m nv²)
// (the Gram matrix) + O(nv³): linear in the contacts. (The previous solver went through Z = ker E,
// m × (m − rank E), and Lemke on the m×m dual: O(m³); 800 µs at 128 contacts.)
//
// Right inverse: (τ′, p′) meets (LT1) with the same v⁺ and p′_N ≥ 0 only on binding rows, so it is a
// KKT point of the forward no-slip projection under τ′; that projection is strictly convex, so the
// forward step reproduces v⁺, and where the forward model's impulses are unique (J of full row rank)
// they are p′.
#pragma once

#include <Eigen/Dense>
#include <Eigen/QR>
#include <vector>

#include "contact/solvers/grow_only.hpp"
#include "control/inverse_dynamics/by_shape.hpp"
#include "control/inverse_dynamics/pivoted_qr.hpp"

namespace impetus {

struct LeastTorqueReport {
  int freedom = 0;        // dim ker E: the dimension of the indeterminate impulses
  int pivots = 0;         // active-set passes of (LT3)
  bool changed = false;   // τ moved (the input was not already the least-‖τ‖ choice)
};

/// Z: an orthonormal basis (m × dim) of ker(U Jᵀ) (LT1), U the rows of the coordinates no actuator
/// drives; Jt (nv×m) the columns Jᵀ of the impulse components that may change. From the pivoted QR of
/// (U Jᵀ)ᵀ: its trailing Householder columns. (id_qp's Stage II face; LeastTorqueSelection itself
/// never forms it.)
/// ws: the kernel's buffers, views of grow-only storage (issue 16: no allocation for a shape of the contacts or
/// of the driven set first met once the largest was met). Returns Z, a view into ws (valid until the next call).
struct UndrivenKernelWorkspace {
  std::vector<char> driven;
  MatrixView E{nullptr, 0, 0}, Q{nullptr, 0, 0}, Z{nullptr, 0, 0};   // U Jᵀ, the QR's Q, the kernel's basis
  Eigen::VectorXd E_storage, Q_storage, Z_storage;
  PivotedQr qr;   // of Eᵀ (m × (nv − na))
};
const MatrixView& undriven_impulse_kernel(const Eigen::MatrixXd& Jt, const std::vector<int>& actuated,
                                          UndrivenKernelWorkspace& ws);

class LeastTorqueSelection {
 public:
  /// Jt (nv×m): the columns Jᵀ of the m impulse components that may change; nonnegative (m): 1 for a
  /// binding normal row (p ≥ 0), 0 for a free (tangent) row; actuated (na): the driven coordinates.
  /// x (m) and tau (na) hold a solution of (LT1) on input and the least-‖τ‖ one on output. False (x,
  /// tau untouched) when the active-set method does not settle or ends off (LT1).
  bool select(const Eigen::Ref<const Eigen::MatrixXd>& Jt, const std::vector<char>& nonnegative,
              const std::vector<int>& actuated, Eigen::Ref<Eigen::VectorXd> x, Eigen::VectorXd& tau,
              LeastTorqueReport& report);
  /// Sizes the buffers of select() for up to most_columns impulse components on nv coordinates, na of them
  /// driven, and makes a decomposition of every shape it may meet there: then select() allocates nothing for any
  /// m ≤ most_columns, whatever the ranks r and q of (LT3) (issue 16: a trot's contact sets change m every few
  /// steps, and a set first met once warm reallocated every buffer and decomposition sized by m, r or q).
  /// select() calls it with its own m; a caller that knows a bound gives it once. (The buffers of the
  /// coordinates' sizes, nv and na, are sized by select() at the first call of each driven count.)
  void reserve(int nv, int na, int most_columns);

 private:
  /// (LT3) on the free set (held_ false): δ (m) and τ′ = τ − Aδ (na), μ (nu). Whether its constraint
  /// was met is checked by the caller (kBalanceTolerance).
  void solve_piece(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::VectorXd& tau);

  int nv_ = 0, na_ = 0, nu_ = 0, m_ = 0;
  double epsilon_ = 0;
  std::vector<int> driven_rows_, undriven_rows_;   // coordinate indices, in the order of A and E
  std::vector<char> held_;                         // (m) in W
  /// G_ = Πᵀ L Lᵀ Π to its numerical rank r (returned): L_ (nv×nv, first r columns), perm_ = Π.
  int factor_gram();

  std::vector<int> perm_;
  Eigen::MatrixXd G_all_, G_, S_, L_;
  Eigen::VectorXd tau_new_, mu_, eta_, b_, e_;
  // The temporaries of select() and solve_piece(), kept (no allocation once warm): Pᵀe, A y, b − A y, μ's
  // padded R⁻¹ solve, E δ.
  Eigen::VectorXd Pe_, Ay_, residual_, z_mu_, Edelta_;
  std::vector<char> driven_;
  // Those sized by m (the columns), r (the Gram matrix's rank) or q (the constraint's rank), as views of storage
  // at the most reserve() was given (grow_only.hpp: a view's arithmetic is a plain object's of that size, the
  // same bits): A, E, [A; E], Ã, Ẽ, Q of Ẽᵀ's QR and its Householder workspace, its null-space basis Z, AZ, H,
  // δ, x + δ, y, u, the right-hand side of H, Zᵀy, H⁻¹rhs, L⁻ᵀ y, Ãᵀτ′, Ãᵀτ′ − εy, Qᵀ(·).
  MatrixView A_{nullptr, 0, 0}, E_{nullptr, 0, 0}, B_{nullptr, 0, 0}, At_{nullptr, 0, 0}, Et_{nullptr, 0, 0},
      Qy_{nullptr, 0, 0}, Zy_{nullptr, 0, 0}, AZ_{nullptr, 0, 0}, H_{nullptr, 0, 0};
  Eigen::VectorXd A_storage_, E_storage_, B_storage_, At_storage_, Et_storage_, Qy_storage_, Zy_storage_,
      AZ_storage_, H_storage_;
  VectorView householder_{nullptr, 0}, delta_{nullptr, 0}, x_new_{nullptr, 0}, y_{nullptr, 0}, u_{nullptr, 0},
      rhs_{nullptr, 0}, Zty_{nullptr, 0}, step_{nullptr, 0}, z_{nullptr, 0}, Atau_{nullptr, 0},
      gradient_{nullptr, 0}, g_{nullptr, 0};
  Eigen::VectorXd householder_storage_, delta_storage_, x_new_storage_, y_storage_, u_storage_, rhs_storage_,
      Zty_storage_, step_storage_, z_storage_, Atau_storage_, gradient_storage_, g_storage_;
  // Eigen's decompositions reallocate at every change of size: one per shape, made by reserve() for every
  // shape below its bounds — the QRs of E (nu × m) and Ẽᵀ (r × nu), H's LLT (r − q).
  ByShape<Eigen::ColPivHouseholderQR<Eigen::MatrixXd>> qr_E_, qr_;
  ByShape<Eigen::LLT<Eigen::MatrixXd>> llt_;
  int reserved_nv_ = -1;
  std::vector<int> reserved_columns_;   // (nv + 1) by driven count: the most columns reserve() was given
  std::vector<char> ranks_parked_;      // (nv + 1) by driven count: Ẽᵀ's QRs and H's LLTs parked
};

}  // namespace impetus
