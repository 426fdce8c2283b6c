// The reduced KKT system (IP5) of interior_point_kkt.hpp: assembly, factorization, solve.
#include "contact/solvers/interior_point_kkt.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/sparse_fill.hpp"

namespace impetus {
namespace {

/// Static regularization δ_s of (IP6), scaled units (K's entries are O(1) there): small enough that
/// two refinement rounds remove it, large enough that the zero p block has pivots of its sign.
constexpr double kStaticRegularization = 1e-9;
/// Dynamic regularization (quasidefinite_ldlt.hpp QD1): pivots below ε_d take the size δ_d
/// (the values of ECOS and Clarabel, in scaled units).
constexpr double kDynamicEpsilon = 1e-13;
constexpr double kDynamicDelta = 2e-7;

/// Column → system block (−1 outside every block).
void block_of_columns(const ConeProgram& P, std::vector<int>& block) {
  block.assign(P.nv, -1);
  for (int b = 0; b < static_cast<int>(P.systems.size()); ++b)
    for (int j = 0; j < P.systems[b].size; ++j) block[P.systems[b].offset + j] = b;
}

/// A group's constraints pin its coordinates when the Gram matrix of its rows (its aᵀ rows and its
/// cone's F) is nonsingular; otherwise a coordinate would be free and K singular.
bool group_is_pinned(const ConeProgram& P, const ImpulseGroup& g) {
  Eigen::Matrix3d gram = Eigen::Matrix3d::Zero();
  for (int k = 0; k < g.num_linear; ++k) {
    const Eigen::Vector3d& a = P.linear[g.first_linear + k].a;
    gram += a * a.transpose();
  }
  if (g.cone >= 0) gram += P.cones[g.cone].F.transpose() * P.cones[g.cone].F;
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3>;   // on the stack: no allocation
  const Small top = gram.topLeftCorner(g.size, g.size);
  const Eigen::SelfAdjointEigenSolver<Small> eig(top);
  const double largest = eig.eigenvalues().cwiseAbs().maxCoeff();
  // Relative threshold: rows with O(1) entries whose Gram matrix has a smaller eigenvalue leave a
  // coordinate free up to rounding.
  constexpr double kPinnedRelative = 1e-12;
  return largest > 0 && eig.eigenvalues().minCoeff() > kPinnedRelative * largest;
}

}  // namespace

int InteriorPointKkt::position(int row, int col) const {
  const int* inner = K_.innerIndexPtr();
  const int begin = K_.outerIndexPtr()[col], end = K_.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(inner + begin, inner + end, row);
  return static_cast<int>(it - inner);
}

bool InteriorPointKkt::setup(const ConeProgram& P, double mass_scale, std::string& error) {
  program_ = &P;
  mass_scale_ = mass_scale;
  const int nv = P.nv, np = P.np, nr = P.nr();
  layout_.nr = nr;
  layout_.nlin = static_cast<int>(P.linear.size());
  layout_.nbud = static_cast<int>(P.budgets.size());
  layout_.ncone = static_cast<int>(P.cones.size());
  const int m = layout_.m();
  oy_ = np;
  oz_ = np + nv;
  nK_ = np + nv + m;

  // Groups cover [0, np) in order; each is pinned by its constraints; budgets name coordinates.
  int next = 0;
  for (int g = 0; g < static_cast<int>(P.groups.size()); ++g) {
    const ImpulseGroup& G = P.groups[g];
    if (G.offset != next || G.size < 1 || G.size > kMaxGroupSize || G.offset + G.size > np) {
      error = "group " + std::to_string(g) + " does not continue the impulse coordinates in order";
      return false;
    }
    if (!group_is_pinned(P, G)) {
      error = "the constraints of group " + std::to_string(g) + " leave one of its impulse coordinates free";
      return false;
    }
    next += G.size;
  }
  if (next != np) {
    error = "the groups cover " + std::to_string(next) + " of " + std::to_string(np) + " impulse coordinates";
    return false;
  }
  for (int j = 0; j < layout_.nbud; ++j)
    for (int i : P.budgets[j].index)
      if (i < 0 || i >= np) {
        error = "budget " + std::to_string(j) + " names impulse coordinate " + std::to_string(i) + " out of range";
        return false;
      }
  return true;
}

void InteriorPointKkt::assemble() {
  const ConeProgram& P = *program_;
  const int np = P.np, nr = P.nr();

  // The velocity rows touching each system block (for R M̃⁻¹ Rᵀ). Members, cleared, not made anew: their
  // capacity serves the next program (no allocation while the sizes repeat).
  std::vector<int>& block = block_;
  block_of_columns(P, block);
  const int nb = static_cast<int>(P.systems.size());
  std::vector<std::vector<int>>& rows_of_block = rows_of_block_;
  if (static_cast<int>(rows_of_block.size()) < nb) rows_of_block.resize(nb);
  for (int b = 0; b < nb; ++b) rows_of_block[b].clear();
  for (int k = 0; k < nr; ++k)
    for (SparseRows::InnerIterator it(P.R, k); it; ++it) {
      const int b = block[it.col()];
      if (b >= 0 && (rows_of_block[b].empty() || rows_of_block[b].back() != k)) rows_of_block[b].push_back(k);
    }
  // Per block, like RMR: blocks touched by different numbers of rows keep their own sizes (no allocation
  // while the program's structure repeats).
  std::vector<Eigen::MatrixXd>& RMR = RMR_;   // R_b M̃_b⁻¹ R_bᵀ over rows_of_block[b]
  if (static_cast<int>(RMR.size()) < nb) {
    RMR.resize(nb);
    Rb_.resize(nb);
    M_inv_Rt_.resize(nb);
  }
  for (int b = 0; b < nb; ++b) {
    const std::vector<int>& rows = rows_of_block[b];
    if (rows.empty()) continue;
    const SystemBlock& sb = P.systems[b];
    Eigen::MatrixXd& Rb = Rb_[b];
    Rb.setZero(static_cast<int>(rows.size()), sb.size);
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (SparseRows::InnerIterator it(P.R, rows[i]); it; ++it) {
        const int c = static_cast<int>(it.col()) - sb.offset;
        if (c >= 0 && c < sb.size) Rb(static_cast<int>(i), c) += it.value();
      }
    RowMajorMatrix& M_inv_Rt = M_inv_Rt_[b];
    M_inv_Rt = Rb.transpose();   // M̃_b⁻¹R_bᵀ as LLT::solve computes it: the right-hand side, solved in place
    sb.M_llt->solveInPlace(M_inv_Rt);
    RMR[b].noalias() = mass_scale_ * (Rb * M_inv_Rt);
  }

  // K's lower triangle (IP5) with its constant entries; the −W² entries are added by factor().
  std::vector<Eigen::Triplet<double>>& entries = entries_;
  entries.clear();
  for (int i = 0; i < nK_; ++i) entries.emplace_back(i, i, 0.0);
  for (int i = 0; i < np; ++i)                                      // (y, p): −𝐉ᵀ
    for (SparseRows::InnerIterator it(P.J, i); it; ++it) entries.emplace_back(oy_ + it.col(), i, -it.value());
  for (const ImpulseGroup& G : P.groups) {                          // (z_g, p): −F_g
    for (int k = 0; k < G.num_linear; ++k)
      for (int j = 0; j < G.size; ++j)
        entries.emplace_back(oz_ + layout_.lin(G.first_linear + k), G.offset + j, -P.linear[G.first_linear + k].a[j]);
    if (G.cone >= 0)
      for (int r = 0; r < 3; ++r)
        for (int j = 0; j < G.size; ++j)
          entries.emplace_back(oz_ + layout_.cone(G.cone) + r, G.offset + j, -P.cones[G.cone].F(r, j));
  }
  for (int j = 0; j < layout_.nbud; ++j)                            // (z_κ, p): eᵀ
    for (int i : P.budgets[j].index) entries.emplace_back(oz_ + layout_.budget(j), i, 1.0);
  for (const SystemBlock& sb : P.systems)                           // (y, y): −M̃
    for (int j = 0; j < sb.size; ++j)
      for (int i = j; i < sb.size; ++i) entries.emplace_back(oy_ + sb.offset + i, oy_ + sb.offset + j, -(*sb.M)(i, j) / mass_scale_);
  for (int k = 0; k < nr; ++k)                                      // (z_R, y): R
    for (SparseRows::InnerIterator it(P.R, k); it; ++it) entries.emplace_back(oz_ + k, oy_ + it.col(), it.value());
  for (int b = 0; b < nb; ++b)                                      // (z_R, z_R): −R M̃⁻¹ Rᵀ
    for (std::size_t i = 0; i < rows_of_block[b].size(); ++i)
      for (std::size_t j = 0; j <= i; ++j) {
        const int ri = rows_of_block[b][i], rj = rows_of_block[b][j];
        entries.emplace_back(oz_ + std::max(ri, rj), oz_ + std::min(ri, rj), -RMR[b](static_cast<int>(i), static_cast<int>(j)));
      }
  for (int c = 0; c < layout_.ncone; ++c)                           // cone blocks: −W² (lower 6)
    for (int j = 0; j < 3; ++j)
      for (int i = j; i < 3; ++i) entries.emplace_back(oz_ + layout_.cone(c) + i, oz_ + layout_.cone(c) + j, 0.0);
  set_from_triplets_in_place(K_, nK_, nK_, entries, order_);   // sums duplicates (e.g. repeated rows of R)
  base_values_.assign(K_.valuePtr(), K_.valuePtr() + K_.nonZeros());

  diag_pos_.resize(nK_);
  for (int i = 0; i < nK_; ++i) diag_pos_[i] = position(i, i);
  w2_pos_.clear();
  for (int i = 0; i < layout_.n_lp(); ++i) w2_pos_.push_back(diag_pos_[oz_ + i]);
  for (int c = 0; c < layout_.ncone; ++c)
    for (int j = 0; j < 3; ++j)
      for (int i = j; i < 3; ++i) w2_pos_.push_back(position(oz_ + layout_.cone(c) + i, oz_ + layout_.cone(c) + j));
  sign_.assign(nK_, -1);
  std::fill(sign_.begin(), sign_.begin() + np, 1);
  W2_cone_.assign(layout_.ncone, Eigen::Matrix3d::Identity());
  lp_w2_.setOnes(layout_.n_lp());
  last_.assign(nK_, 0);   // the budgets' dense rows go last
  for (int j = 0; j < layout_.nbud; ++j) last_[oz_ + layout_.budget(j)] = 1;
  // A program of the same structure as the last one analysed (a resting island, step after step) reuses
  // the symbolic analysis.
  ldlt_.analyse_if_changed(K_, last_);
}

bool InteriorPointKkt::factor(const ConeScaling& W) {
  double* values = K_.valuePtr();
  std::copy(base_values_.begin(), base_values_.end(), values);
  lp_w2_ = W.lp_w2;
  int q = 0;
  for (int i = 0; i < layout_.n_lp(); ++i) values[w2_pos_[q++]] -= lp_w2_[i];
  for (int c = 0; c < layout_.ncone; ++c) {
    W2_cone_[c] = W.soc[c].squared();
    for (int j = 0; j < 3; ++j)
      for (int i = j; i < 3; ++i) values[w2_pos_[q++]] -= W2_cone_[c](i, j);
  }
  for (int i = 0; i < nK_; ++i) values[diag_pos_[i]] += sign_[i] * kStaticRegularization;   // (IP6)
  return ldlt_.factor(K_, sign_, kDynamicEpsilon, kDynamicDelta);
}

void InteriorPointKkt::solve_M(Eigen::Ref<Eigen::VectorXd> x) const {
  for (const SystemBlock& s : program_->systems) {
    if (s.size == 0) continue;
    auto xb = x.segment(s.offset, s.size);
    s.M_llt->solveInPlace(xb);
    xb *= mass_scale_;
  }
}

void InteriorPointKkt::multiply_M(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  out.setZero(program_->nv);
  for (const SystemBlock& s : program_->systems)
    if (s.size > 0) {   // the product, then the division: (M x)/m̄ as one expression allocates a temporary
      auto out_s = out.segment(s.offset, s.size);
      out_s.noalias() = (*s.M) * x.segment(s.offset, s.size);
      out_s /= mass_scale_;
    }
}

void InteriorPointKkt::multiply_G(const Eigen::VectorXd& v, const Eigen::VectorXd& p, Eigen::VectorXd& out) const {
  const ConeProgram& P = *program_;
  out.resize(layout_.m());
  if (layout_.nr > 0) {   // −(R v) as R v, then negated: the negated product allocates a temporary
    out.head(layout_.nr).noalias() = P.R * v;
    out.head(layout_.nr) = -out.head(layout_.nr);
  }
  for (const ImpulseGroup& G : P.groups) {
    const auto pg = p.segment(G.offset, G.size);
    for (int k = 0; k < G.num_linear; ++k)
      out[layout_.lin(G.first_linear + k)] = -P.linear[G.first_linear + k].a.head(G.size).dot(pg);
    if (G.cone >= 0) out.segment<3>(layout_.cone(G.cone)).noalias() = -P.cones[G.cone].F.leftCols(G.size) * pg;
  }
  for (int j = 0; j < layout_.nbud; ++j) {
    double sum = 0;
    for (int i : P.budgets[j].index) sum += p[i];
    out[layout_.budget(j)] = sum;
  }
}

void InteriorPointKkt::multiply_Gt(const Eigen::VectorXd& z, Eigen::VectorXd& out_v, Eigen::VectorXd& out_p) const {
  const ConeProgram& P = *program_;
  if (layout_.nr > 0) {
    out_v.noalias() = P.R.transpose() * z.head(layout_.nr);   // then negated, as in multiply_G
    out_v = -out_v;
  } else {
    out_v.setZero(P.nv);
  }
  out_p.setZero(P.np);
  for (const ImpulseGroup& G : P.groups) {
    auto pg = out_p.segment(G.offset, G.size);
    for (int k = 0; k < G.num_linear; ++k)
      pg -= P.linear[G.first_linear + k].a.head(G.size) * z[layout_.lin(G.first_linear + k)];
    if (G.cone >= 0) pg.noalias() -= P.cones[G.cone].F.leftCols(G.size).transpose() * z.segment<3>(layout_.cone(G.cone));
  }
  for (int j = 0; j < layout_.nbud; ++j)
    for (int i : P.budgets[j].index) out_p[i] += z[layout_.budget(j)];
}

void InteriorPointKkt::multiply_W2(const Eigen::VectorXd& z, Eigen::VectorXd& out) const {
  out.resize(layout_.m());
  const int nlp = layout_.n_lp();
  out.head(nlp) = lp_w2_.cwiseProduct(z.head(nlp));
  for (int c = 0; c < layout_.ncone; ++c)
    out.segment<3>(layout_.cone(c)).noalias() = W2_cone_[c] * z.segment<3>(layout_.cone(c));
}

void InteriorPointKkt::apply(const Eigen::VectorXd& dv, const Eigen::VectorXd& dp, const Eigen::VectorXd& dy,
                             const Eigen::VectorXd& dz, Eigen::VectorXd& ov, Eigen::VectorXd& op,
                             Eigen::VectorXd& oy, Eigen::VectorXd& oz) const {
  // Row 1: P Δx + AᵀΔy + GᵀΔz, with AᵀΔy = (M̃Δy, −𝐉Δy).
  Eigen::VectorXd& Mdv = apply_v_;
  Eigen::VectorXd& Mdy = apply_v2_;
  multiply_M(dv, Mdv);
  multiply_M(dy, Mdy);
  multiply_Gt(dz, ov, op);
  ov += Mdv + Mdy;
  op.noalias() -= program_->J * dy;
  // Row 2: AΔx = M̃Δv − 𝐉ᵀΔp.
  oy = Mdv;
  oy.noalias() -= program_->J.transpose() * dp;
  // Row 3: GΔx − W²Δz.
  Eigen::VectorXd& W2dz = apply_z_;
  multiply_G(dv, dp, oz);
  multiply_W2(dz, W2dz);
  oz -= W2dz;
}

void InteriorPointKkt::reduced_solve(const Eigen::VectorXd& rv, const Eigen::VectorXd& rp, const Eigen::VectorXd& ry,
                                     const Eigen::VectorXd& rz, Eigen::VectorXd& dv, Eigen::VectorXd& dp,
                                     Eigen::VectorXd& dy, Eigen::VectorXd& dz) {
  const ConeProgram& P = *program_;
  const int nv = P.nv, np = P.np, nr = layout_.nr, m = layout_.m();
  // Right-hand side of (IP5): (d_p, d_y − d_v, d_z + [R M̃⁻¹ d_v; 0]).
  rhs_.resize(nK_);
  rhs_.head(np) = rp;
  rhs_.segment(oy_, nv) = ry - rv;
  rhs_.segment(oz_, m) = rz;
  if (nr > 0) {
    tmp_v_ = rv;
    solve_M(tmp_v_);
    rhs_.segment(oz_, nr).noalias() += P.R * tmp_v_;
  }
  ldlt_.solve_in_place(rhs_);
  dp = rhs_.head(np);
  dy = rhs_.segment(oy_, nv);
  dz = rhs_.segment(oz_, m);
  dv = rv;   // Δv = M̃⁻¹(d_v + RᵀΔz_R) − Δy
  if (nr > 0) dv.noalias() += P.R.transpose() * dz.head(nr);
  solve_M(dv);
  dv -= dy;
}

double InteriorPointKkt::solve(const Eigen::VectorXd& rv, const Eigen::VectorXd& rp, const Eigen::VectorXd& ry,
                             const Eigen::VectorXd& rz, Eigen::VectorXd& dv, Eigen::VectorXd& dp,
                             Eigen::VectorXd& dy, Eigen::VectorXd& dz, int refinements) {
  reduced_solve(rv, rp, ry, rz, dv, dp, dy, dz);
  const double scale = std::max({rv.lpNorm<Eigen::Infinity>(), rp.lpNorm<Eigen::Infinity>(),
                                 ry.lpNorm<Eigen::Infinity>(), rz.lpNorm<Eigen::Infinity>(), 1e-300});
  // Refinement stops at the rounding level of the right-hand side.
  constexpr double kRefinementFloor = 1e-14;
  double last_error = NAN;
  for (int round = 0; round < refinements; ++round) {
    apply(dv, dp, dy, dz, ev_, ep_, ey_, ez_);
    ev_ = rv - ev_;
    ep_ = rp - ep_;
    ey_ = ry - ey_;
    ez_ = rz - ez_;
    const double err = std::max({ev_.lpNorm<Eigen::Infinity>(), ep_.lpNorm<Eigen::Infinity>(),
                                 ey_.lpNorm<Eigen::Infinity>(), ez_.lpNorm<Eigen::Infinity>()});
    last_error = err;
    if (!(err > kRefinementFloor * scale)) break;
    reduced_solve(ev_, ep_, ey_, ez_, cv_, cp_, cy_, cz_);
    dv += cv_;
    dp += cp_;
    dy += cy_;
    dz += cz_;
  }
  return last_error;
}

}  // namespace impetus
