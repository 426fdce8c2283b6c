// A small dense strictly convex QP solved through its dual, the monotone LCP Lemke handles (seed 004
// footnote 1: the QPs of §6 are solved as LCPs by LEMKE). No longer on a Stage II's path: id_qp's (QP3)
// is solved by the primal active set (inequality_least_squares.hpp, id_qp.hpp QP10), whose iterates stay
// feasible, because this dual could end on a ray on degenerate faces; id_lcp_noslip's least-‖τ‖ choice
// solves its (LT2) in the coordinates' space (least_torque.hpp).
//
//   minimise  ½ wᵀQ w + rᵀw   s.t.  C w + d ≥ 0,   Q symmetric positive definite              (DQ1)
// Its KKT conditions Q w + r = Cᵀλ, λ ≥ 0 ⊥ C w + d ≥ 0 give w = Q⁻¹(Cᵀλ − r) and the dual LCP
//   λ ≥ 0  ⊥  C Q⁻¹Cᵀ λ + (d − C Q⁻¹ r) ≥ 0                                                   (DQ2)
// C Q⁻¹Cᵀ is PSD, so Lemke solves (DQ2) whenever (DQ1) is feasible (CPS §3.8, §4.4). The minimiser w of
// (DQ1) is unique and a continuous function of (Q, r, C, d) where the feasible set has an interior.
#pragma once

#include <Eigen/Dense>

#include "contact/solvers/lemke.hpp"

namespace impetus {

class DualQp {
 public:
  /// Solves (DQ1) through (DQ2); w (dim Q) is the minimiser when the result is solved. No rows (C
  /// empty): the unconstrained minimiser −Q⁻¹r, status Solved with 0 pivots.
  LemkeResult solve(const Eigen::MatrixXd& Q, const Eigen::VectorXd& r, const Eigen::MatrixXd& C,
                    const Eigen::VectorXd& d, Eigen::VectorXd& w);

 private:
  LemkeSolver lemke_;
  Eigen::LLT<Eigen::MatrixXd> Q_llt_;
  Eigen::MatrixXd QinvCt_, D_;
  Eigen::VectorXd Qinv_r_, q_, lambda_;
};

}  // namespace impetus
