// Least squares under linear inequalities by a primal active-set method (Nocedal & Wright, Numerical
// Optimization, 2nd ed., Alg. 16.3; Lawson & Hanson 1974, ch. 23, for the least-squares form). Used by
// id_qp's Stage II (id_qp.hpp QP3), whose dual LCP (dual_qp.hpp) Lemke could end on a ray: a face of
// 22 rows on 6 dimensions is a very degenerate dual, and duplicated contacts make it singular.
//
//   minimise  ½‖A w − b‖²   s.t.  C w + d ≥ 0,   from the feasible point w = 0 (d ≥ 0)            (ILS1)
//
// The iterates stay feasible, so the method cannot end on a ray; what degeneracy costs is iterations.
// With the working set W (rows held as equalities), each iteration solves
//   s = N u,   u = the least-norm minimiser of ‖A N u − (b − A w)‖,   N: orthonormal basis of ker C_W  (ILS2)
// by orthogonal factorisations that find the ranks themselves (column-pivoted QR of C_Wᵀ, complete
// orthogonal decomposition of A N): rows of C that depend on others (copies of one contact) and an A
// without full column rank are rank deficiencies, not failures. It steps to the first row that s would
// cross (that row joins W) or takes the whole step; at the minimiser on W, the multipliers
//   C_Wᵀ λ = Aᵀ(A w − b)                                                                            (ILS3)
// (least squares on the same QR) decide: all λ ≥ 0, w is the KKT point of (ILS1); else the most
// negative leaves W. A row joins W only if s crosses it by more than round-off, so W stays independent.
//
// Certificate (returned, checked by the caller): the KKT residuals of (ILS1) at w — feasibility
// min(C w + d), stationarity ‖Aᵀ(A w − b) − C_Wᵀλ‖ and the most negative λ, the last two relative to
// ‖A‖_F ‖b‖ (the size of the gradient at w = 0).
#pragma once

#include <Eigen/Dense>
#include <Eigen/QR>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace impetus {

struct InequalityLeastSquaresResult {
  bool solved = false;          // the certificate below holds within the solver's tolerances
  int iterations = 0;
  int working_rows = 0;         // |W| at the end
  double min_slack = 0;         // min(C w + d), same units as d
  double stationarity = 0;      // ‖Aᵀ(A w − b) − C_Wᵀλ‖ / (‖A‖_F ‖b‖)
  double min_multiplier = 0;    // min λ / (‖A‖_F ‖b‖) (0 when W is empty)
  std::string reason;           // why not solved
};

class InequalityLeastSquares {
 public:
  /// Solves (ILS1); d ≥ 0 (w = 0 feasible) is required, else not solved. w (C.cols()) on output.
  InequalityLeastSquaresResult solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::MatrixXd& C,
                                     const Eigen::VectorXd& d, Eigen::VectorXd& w);

 private:
  // Buffers by shape (issue 16): W changes by one row per iteration, and an Eigen object resized to another
  // shape reallocates; each shape keeps its own, made for every working set when the problem's shape is first
  // met (make_working_shapes), so a solve of a problem shape met before allocates nothing.
  struct WorkingFactor {   // C_Wᵀ (n×|W|), its column-pivoted QR, Q, λ (ILS3); keyed by (n, |W|)
    Eigen::MatrixXd CWt, Q;
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
    Eigen::VectorXd workspace, c, lambda, scaled;   // scaled: τ·v of apply_q_adjoint
  };
  struct Projected {   // N (n×(n − r)), A N and its complete orthogonal decomposition (ILS2); keyed by (rows of A, n, n − r)
    Eigen::MatrixXd N, AN;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    Eigen::VectorXd c, y, u, temp, scaled;
  };

  /// The buffers of every |W| ≤ min(n, m) and every n − r ≤ n, made when a problem's shape (rows of A, n, m)
  /// is first met: a working set first reached later (other data, or another build's rounding) allocates nothing.
  void make_working_shapes(int rows, int n, int m);
  /// The step s of (ILS2) on W from w; false when W spans everything (s = 0).
  void equality_step(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::MatrixXd& C,
                     const Eigen::VectorXd& w);
  /// λ of (ILS3) (|W|) and the stationarity residual's norm.
  double multipliers(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::VectorXd& w);

  struct Vectors {   // s, Aᵀ(A w − b) and the stationarity residual (n), A w and A w − b (rows), C w + d (m);
    Eigen::VectorXd s, gradient, residual, Aw, r, slack;   // keyed by (rows of A, n, m)
  };

  std::vector<int> working_;
  std::vector<char> held_;   // held_[i]: row i in W
  std::map<std::pair<int, int>, WorkingFactor> factors_;
  std::map<std::array<int, 3>, Projected> projections_;
  std::map<std::array<int, 3>, Vectors> vectors_;
  WorkingFactor* factor_ = nullptr;   // current for W (equality_step)
  Vectors* v_ = nullptr;              // the problem's (solve)
};

}  // namespace impetus
