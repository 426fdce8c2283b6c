// The normal LCP of a velocity projection formed densely and solved by Lemke's method
// (contact/solvers/lemke.hpp): the fallback of the principal pivoting method, and the reference it
// is tested against. This is the paper's (9)–(10) route, O(n²·nv + n³) — what Algorithm 1 avoids.
//
// With the equality rows G in the factor (D = G W⁻¹ Gᵀ = L Lᵀ), X = W⁻¹ Uᵀ (nv×n) and
// P = W⁻¹ − W⁻¹Gᵀ D⁻¹ G W⁻¹ (notes §2.8):
//     F = U P Uᵀ = U X − Zᵀ Z,   Z = L⁻¹ G X                                                   (PL1)
//     e = U v_G + b,   v_G = v_f + W⁻¹Gᵀ λ_G⁰,   λ_G⁰ = D⁻¹(t_G − G v_f)                       (PL2)
//     z = Lemke(F, e);   λ_G = λ_G⁰ − D⁻¹ G X z;   v⁺ = v_f + W⁻¹Gᵀλ_G + X z                  (PL3)
// F is symmetric PSD (P0, copositive-plus), so Lemke finds a solution whenever (PP1) is feasible.
#pragma once

#include "contact/solvers/delassus_factor.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/solvers/unilateral_rows.hpp"

namespace impetus {

class ProjectionLemke {
 public:
  /// `factor` must hold exactly the equality rows G. Writes z (n), w = U v⁺ + b (n), v⁺ (nv) and
  /// λ_G (k_G). Never throws.
  LemkeResult solve(const InertiaOperator& W, const DelassusFactor& factor, const UnilateralRows& U,
                    const Eigen::Ref<const Eigen::VectorXd>& v_f, LemkeSolver& lemke, Eigen::VectorXd& z, Eigen::VectorXd& w,
                    Eigen::VectorXd& v_plus, Eigen::VectorXd& lambda_G);

 private:
  Eigen::MatrixXd X_;     // (nv×n) W⁻¹Uᵀ
  Eigen::MatrixXd Z_;     // (k_G×n) L⁻¹ G X
  Eigen::MatrixXd F_;     // (n×n)
  Eigen::VectorXd e_;     // (n)
  Eigen::VectorXd v_G_;   // (nv)
  Eigen::VectorXd Xz_;    // (nv) X z
  Eigen::VectorXd t_;     // (k_G) scratch
};

}  // namespace impetus
