// ID(t_i)_LCP,μ — inverse dynamics with the Stewart–Trinkle / Anitescu–Potra friction pyramid (seed 004
// §5), `id_lcp_coulomb`, solved by Lemke's method.
//
// Model (seed 004 Eqs. 54–58 with id_problem.hpp's signs; friction_edges.hpp FE1 for the pyramid):
//   M v⁺ = M v* + Pᵀτ + Nᵀp_N + Fᵀp_F,   P v⁺ = q̇_des                                        (LC1)
//   0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0,   0 ≤ p_F ⊥ F v⁺ + E λ ≥ 0,   0 ≤ λ ⊥ μ p_N − Eᵀp_F ≥ 0        (LC2)
// Eliminating τ and v⁺ by (ID2)–(ID3), v⁺ = v_c + K Jᵀ B z, gives the LCP of the forward model
// (stewart_trinkle.hpp ST6) with M⁻¹ → K and v* → v_c, balanced as its ST7 (λ = a λ̂):
//        ⎡ N K Nᵀ   N K Fᵀ   0  ⎤        ⎡ N v_c + φ/dt ⎤
//   A =  ⎢ F K Nᵀ   F K Fᵀ   aE ⎥,  q =  ⎢ F v_c        ⎥                                    (LC3)
//        ⎣ a μ     −a Eᵀ     0  ⎦        ⎣ 0            ⎦
// Errata corrected (notes 004 §2.2): Eq. 64 as printed puts E in the p_N row, swaps the blocks of the
// last row, and uses M⁻¹ where the elimination of τ gives the velocity block K of X⁻¹; its q uses −κ
// with the opposite sign of Eq. 42. (LC3) follows the MLCP (59) with τ eliminated.
//
// A is copositive (Eq. 68 with K PSD), and Lemke with the lexicographic rule solves it — the paper's
// proof that a right inverse exists. τ = τ_c + T_τ B z (ID2).
//
// Right inverse: the forward stewart_trinkle step with τ applied is LCP (ST6) with v* + M⁻¹Pᵀτ; every
// solution z of (LC3) satisfies (ST6)'s complementarity with the same v⁺ (the two equations of motion
// agree once τ is fixed), so it is a solution of the forward LCP. When that LCP has several solutions
// (redundant contacts, indeterminate friction) Lemke may pick another in the forward step.
//
// No warm start (seed 004 §5.3: none is known for Lemke); expect torque chatter where contact is
// indeterminate. Tikhonov retries (lemke.hpp L7) count as fallbacks.
#pragma once

#include "contact/solvers/lemke.hpp"
#include "control/inverse_dynamics/friction_edges.hpp"
#include "control/inverse_dynamics/id_solver.hpp"

namespace impetus {

struct IdLcpCoulombOptions {
  int friction_edges = 4;     // k, as stewart_trinkle's friction_edges (even, 4 … 64)
  LemkeOptions lemke;         // lemke.hpp defaults
};

class IdLcpCoulomb final : public InverseDynamicsSolver {
 public:
  explicit IdLcpCoulomb(IdLcpCoulombOptions options = {}) : options_(options), lemke_(options.lemke) {}
  std::string_view name() const override { return "id_lcp_coulomb"; }
  void solve(const InverseDynamicsProblem& problem, InverseDynamicsSolution& solution) override;

 private:
  IdLcpCoulombOptions options_;
  LemkeSolver lemke_;
  ActuatedElimination elimination_;
  FrictionEdges edges_;
  Eigen::MatrixXd A_, DB_, BtDB_;
  Eigen::VectorXd q_, z_, p_, Jv_c_, BtJv_c_;   // BtDB_, Jv_c_, BtJv_c_: products evaluated apart, as temporaries
  // Each at the other sizes met (a trot's held contacts): solve() fits them to the call's sizes.
  ParkedBySize<Eigen::MatrixXd> A_parked_, DB_parked_, BtDB_parked_;
  ParkedBySize<Eigen::VectorXd> q_parked_, z_parked_, p_parked_, Jv_c_parked_, BtJv_c_parked_;
};

}  // namespace impetus
