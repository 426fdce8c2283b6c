// The Newton (KKT) system of the interior-point method for a ConeProgram (cone_program.hpp), as one
// sparse symmetric quasi-definite system in the impulses and the multipliers, factored by LDLᵀ.
//
// Glossary (the program's symbols are in cone_program.hpp; all quantities are in the solver's scaled
// units, interior_point.hpp IP2)
//   symbol  size           meaning                                                  code
//   ------  -------------  -------------------------------------------------------  -----------------
//   x       nv+np          primal unknowns (v, p)                                    —
//   y       nv             multiplier of the equation of motion (CP2)               —
//   z, s    m              multipliers and slacks of the cone constraints            —
//   G, h    m×(nv+np), m   cone constraints written G x + s = h, s ∈ 𝒞:            multiply_G
//                           R rows: G = [−R 0], h = r;  group rows: G = [0 −F_g], h = f_g
//                           (F_g: a group's aᵀ rows, then its cone's F);  budget rows: G = [0 eᵀ], h = κ
//   W       m×m            Nesterov–Todd scaling, block diagonal (LP: √(s/z); SOC: second_order_cone.hpp)
//   K       nK×nK          the augmented matrix (IP5), nK = np + nv + m
//   δ_s     1              static regularization of K's diagonal (IP6)             kStaticRegularization
//
// The Newton system of a primal-dual method with scaling W (CVXOPT's coneqp, Vandenberghe 2010 §5):
//
//   ⎡ P   Aᵀ  Gᵀ  ⎤ ⎡Δx⎤   ⎡d_x⎤        P = diag(M, 0),   A = [M  −𝐉ᵀ]                        (IP3)
//   ⎢ A   0   0   ⎥ ⎢Δy⎥ = ⎢d_y⎥
//   ⎣ G   0  −W²  ⎦ ⎣Δz⎦   ⎣d_z⎦
//
// Only Δv is eliminated, through M (block diagonal and constant, so the elimination is exact and
// well conditioned): Δv = M⁻¹(d_v + RᵀΔz_R) − Δy. What remains is, in (Δp, Δy, Δz):
//
//   ⎡ 0      −𝐉     −F_gᵀ   e       0               ⎤ ⎡Δp  ⎤   ⎡ d_p               ⎤           (IP5)
//   ⎢ −𝐉ᵀ    −M      0      0       Rᵀ              ⎥ ⎢Δy  ⎥   ⎢ d_y − d_v         ⎥
//   ⎢ −F_g    0     −W_g²   0       0               ⎥ ⎢Δz_g⎥ = ⎢ d_g               ⎥
//   ⎢ eᵀ      0      0     −W_κ²    0               ⎥ ⎢Δz_κ⎥   ⎢ d_κ               ⎥
//   ⎣ 0       R      0      0    −(R M⁻¹Rᵀ + W_R²)  ⎦ ⎣Δz_R⎦   ⎣ d_R + R M⁻¹ d_v   ⎦
//
// (rows of the groups, the budgets and the velocity rows drawn apart; in K they follow the layout of
// z). K is quasi-definite once δ_s is added to the p block and subtracted from the others: the
// (y, z) block is negative definite because its Schur complement on −M is −W² [VD]. So an LDLᵀ in
// any fill-reducing order exists without pivoting (quasidefinite_ldlt.hpp). This form is chosen over
// eliminating the cones as well (normal equations in y alone): near the solution a sliding
// contact's W_g² spans ~10²⁰, and the normal equations add its inverse to M, where rounding swamps
// M; K holds W_g² itself and never inverts it.
//
// Regularization (IP6): K̃ = K + δ_s·diag(+1 on p, −1 on y, z), δ_s = 1e-9 in scaled units, plus the
// dynamic pivot regularization of quasidefinite_ldlt.hpp; iterative refinement on the unregularized
// (IP3) removes both. The pattern of K is fixed for one solve: analysed once, factored every
// iteration with no allocation; the next solve reuses the analysis when K's pattern is unchanged.
#pragma once

#include <string>
#include <vector>

#include "contact/solvers/cone_program.hpp"
#include "contact/solvers/quasidefinite_ldlt.hpp"
#include "contact/solvers/second_order_cone.hpp"

namespace impetus {

/// The scaling W of the current iterate.
struct ConeScaling {
  Eigen::VectorXd lp_w2;                 // (number of LP rows) s/z: W² of each linear row
  std::vector<soc::NtScaling> soc;       // (number of cones)
};

/// Layout of the cone-constraint vector z, s (m entries): linear rows first, then the cones.
struct ConeLayout {
  int nr = 0;            // velocity rows: [0, nr)
  int nlin = 0;          // group linear rows: [nr, nr + nlin)
  int nbud = 0;          // budgets: [nr + nlin, n_lp)
  int ncone = 0;         // cones: 3 entries each from n_lp
  int n_lp() const { return nr + nlin + nbud; }
  int m() const { return n_lp() + 3 * ncone; }
  int lin(int k) const { return nr + k; }
  int budget(int j) const { return nr + nlin + j; }
  int cone(int c) const { return n_lp() + 3 * c; }
  int degree() const { return n_lp() + ncone; }   // barrier parameter count: 1 per LP row and per cone
};

class InteriorPointKkt {
 public:
  using SparseCol = Eigen::SparseMatrix<double>;
  /// Takes the program for products and solves with M̃ = M / mass_scale (the multiply_* and solve_M
  /// below). Returns false (and says why in `error`) when the program breaks a requirement of
  /// cone_program.hpp.
  bool setup(const ConeProgram& program, double mass_scale, std::string& error);
  /// The pattern of K and its constant entries (𝐉, F, R, M̃, R M̃⁻¹ Rᵀ), and its symbolic analysis: what
  /// factor() and solve() need, apart from setup() so that a solve that never factors (a certified
  /// candidate, interior_point.hpp IP10) does not build K.
  void assemble();

  /// Builds and factors K̃ for the scaling W. Returns false when a pivot is not finite.
  bool factor(const ConeScaling& W);

  /// Solves (IP3) for (Δv, Δp, Δy, Δz) given the right-hand side (d_v, d_p, d_y, d_z), with up to
  /// `refinements` rounds of iterative refinement. Uses the scaling of the last factor(). Returns the
  /// residual ‖·‖∞ of (IP3) the last round measured (before its correction, if it made one); NaN
  /// without refinement.
  double solve(const Eigen::VectorXd& rv, const Eigen::VectorXd& rp, const Eigen::VectorXd& ry,
             const Eigen::VectorXd& rz, Eigen::VectorXd& dv, Eigen::VectorXd& dp, Eigen::VectorXd& dy,
             Eigen::VectorXd& dz, int refinements);

  /// (IP3) applied to (dv, dp, dy, dz), with the scaling of the last factor().
  void apply(const Eigen::VectorXd& dv, const Eigen::VectorXd& dp, const Eigen::VectorXd& dy,
             const Eigen::VectorXd& dz, Eigen::VectorXd& ov, Eigen::VectorXd& op, Eigen::VectorXd& oy,
             Eigen::VectorXd& oz) const;

  const ConeLayout& layout() const { return layout_; }
  /// x ← M̃⁻¹ x;  out = M̃ x (nv).
  void solve_M(Eigen::Ref<Eigen::VectorXd> x) const;
  void multiply_M(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;
  /// out_z = G (v, p);  (out_v, out_p) = Gᵀ z;  out = W² z.
  void multiply_G(const Eigen::VectorXd& v, const Eigen::VectorXd& p, Eigen::VectorXd& out_z) const;
  void multiply_Gt(const Eigen::VectorXd& z, Eigen::VectorXd& out_v, Eigen::VectorXd& out_p) const;
  void multiply_W2(const Eigen::VectorXd& z, Eigen::VectorXd& out) const;

  /// Pivots the last factor() had to regularize dynamically, and the factor's nonzeros.
  int regularized_pivots() const { return ldlt_.regularized_pivots(); }
  long factor_nonzeros() const { return ldlt_.factor_nonzeros(); }
  /// K̃ of the last factor() (lower triangle, column-major), its pivot signs σ (+1 on p, −1 on y and z)
  /// and the rows eliminated last: what QuasidefiniteLdlt factored, for programs that study the
  /// factorization (KktObserver, interior_point.hpp).
  const SparseCol& matrix() const { return K_; }
  const std::vector<signed char>& signs() const { return sign_; }
  const std::vector<char>& last_rows() const { return last_; }
  /// Order and nonzeros of K̃, and the operations of one factorization (for the solver trace).
  int size() const { return nK_; }
  long nonzeros() const { return static_cast<long>(K_.nonZeros()); }
  double factor_flops() const { return ldlt_.flops(); }

 private:
  void reduced_solve(const Eigen::VectorXd& rv, const Eigen::VectorXd& rp, const Eigen::VectorXd& ry,
                     const Eigen::VectorXd& rz, Eigen::VectorXd& dv, Eigen::VectorXd& dp, Eigen::VectorXd& dy,
                     Eigen::VectorXd& dz);
  int position(int row, int col) const;   // index into K's value array of (row ≥ col)

  const ConeProgram* program_ = nullptr;
  double mass_scale_ = 1;
  ConeLayout layout_;
  int nK_ = 0, oy_ = 0, oz_ = 0;          // K's blocks: p at 0, y at oy_, z at oz_

  SparseCol K_;                           // lower triangle, column-major
  std::vector<double> base_values_;       // the constant entries of K
  std::vector<int> diag_pos_;             // (nK)
  std::vector<int> w2_pos_;               // positions of −W²'s lower entries: LP rows, then each cone's 6
  std::vector<signed char> sign_;         // (nK) +1 on p, −1 on y and z
  QuasidefiniteLdlt ldlt_;                // analysed again only when K's pattern or last_ changes
  std::vector<char> last_;                // the rows eliminated last: the budgets' dense rows

  Eigen::VectorXd lp_w2_;                 // W² of the linear rows, last factor()
  std::vector<Eigen::Matrix3d> W2_cone_;  // W² of the cones, last factor()

  // scratch
  std::vector<int> block_;                          // assemble(): system block of each column
  std::vector<std::vector<int>> rows_of_block_;     // assemble(): velocity rows touching each block
  std::vector<Eigen::MatrixXd> RMR_;                // assemble(): R_b M̃_b⁻¹ R_bᵀ per block
  std::vector<Eigen::MatrixXd> Rb_;                 // assemble(): R_b per block
  // assemble(): M̃_b⁻¹ R_bᵀ per block, row-major as LLT::solve(R_bᵀ) returns it (the plain type of a
  // transpose): the product with R_b then takes the same kernel, so the same bits.
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<RowMajorMatrix> M_inv_Rt_;
  std::vector<Eigen::Triplet<double>> entries_;     // assemble(): K's lower triangle
  std::vector<int> order_;                          // assemble(): entries_ sorted by column, row
  Eigen::VectorXd rhs_, tmp_v_;
  Eigen::VectorXd ev_, ep_, ey_, ez_, cv_, cp_, cy_, cz_;
  mutable Eigen::VectorXd apply_v_, apply_v2_, apply_z_;
};

}  // namespace impetus
