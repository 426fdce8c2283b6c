// Elimination of τ, (ID2)–(ID3) of id_problem.hpp.
#include "control/inverse_dynamics/id_problem.hpp"

#include <algorithm>
#include <utility>

namespace impetus {

void ActuatedElimination::use_shape(int nv, int na, int nc) {
  if (s_.nv == nv && s_.na == na && s_.nc == nc) return;
  if (na > most_na_ || nc > most_nc_) {
    most_na_ = std::max(na, most_na_);
    most_nc_ = std::max(nc, most_nc_);
    park_shapes_up_to(nv, most_na_, most_nc_);
  }
  for (Sized& p : parked_)
    if (p.nv == nv && p.na == na && p.nc == nc) {
      std::swap(s_, p);
      return;
    }
  if (parked_.size() < kMaxParked) {
    if (parked_.capacity() == 0) parked_.reserve(kMaxParked);   // parked sets never move
    parked_.push_back(std::move(s_));
    s_ = Sized{};
  }
  s_.nv = nv;
  s_.na = na;
  s_.nc = nc;
}

void ActuatedElimination::park_shapes_up_to(int nv, int na, int nc) {
  auto met = [&](int a, int c) {
    if (s_.nv == nv && s_.na == a && s_.nc == c) return true;
    for (const Sized& p : parked_)
      if (p.nv == nv && p.na == a && p.nc == c) return true;
    return false;
  };
  if (parked_.capacity() == 0) parked_.reserve(kMaxParked);   // parked sets never move
  // The current set keeps its slot: the shapes are added to the parked ones, up to the cap (beyond it a new
  // shape allocates when met, as before).
  for (int c = 0; c <= nc; ++c)
    for (int a = 0; a <= na; ++a) {
      if (met(a, c)) continue;
      if (parked_.size() + 1 >= kMaxParked) return;   // one slot left for use_shape's swap of a new shape
      parked_.emplace_back();
      size_for_shape(parked_.back(), nv, a, c);
    }
}

void ActuatedElimination::size_for_shape(Sized& s, int nv, int na, int nc) {
  s.nv = nv;
  s.na = na;
  s.nc = nc;
  // Each buffer at the shape build() gives it, so that build() on this set resizes nothing.
  s.Minv_Pt.resize(nv, na);
  s.J.resize(3 * nc, nv);
  s.Y.resize(nv, 3 * nc);
  s.KJt.resize(nv, 3 * nc);
  s.T_tau.resize(na, 3 * nc);
  s.D.resize(3 * nc, 3 * nc);
  s.G_llt = Eigen::LLT<Eigen::MatrixXd>(na);
  s.tau_c.resize(na);
  s.v_c.resize(nv);
  s.col.resize(nv);
  s.unit.resize(nv);
  s.row.resize(nv);
  s.residual.resize(na);
  s.Minv_Pt_tau.resize(na > 0 ? nv : 0);
  s.G.resize(na, na);
  s.PY.resize(na, 3 * nc);
  s.Minv_Pt_T.resize(na > 0 ? nv : 0, na > 0 ? 3 * nc : 0);
}

bool ActuatedElimination::build(const InverseDynamicsProblem& problem) {
  const ContactProblem& cp = *problem.contact;
  const int nv = cp.nv, na = static_cast<int>(problem.actuated.size()), nc = cp.nc;
  use_shape(nv, na, nc);

  // M⁻¹Pᵀ: the columns of M⁻¹ at the driven coordinates.
  s_.Minv_Pt.setZero(nv, na);
  s_.col.resize(nv);
  s_.unit.resize(nv);
  for (int a = 0; a < na; ++a) {
    s_.unit.setZero();
    s_.unit[problem.actuated[a]] = 1;
    cp.solve_M(s_.unit, s_.col);
    s_.Minv_Pt.col(a) = s_.col;
  }
  s_.G.resize(na, na);
  for (int a = 0; a < na; ++a)
    for (int b = 0; b < na; ++b) s_.G(a, b) = s_.Minv_Pt(problem.actuated[a], b);
  s_.G_llt.compute(s_.G);
  if (na > 0 && s_.G_llt.info() != Eigen::Success) return false;

  // τ_c = G⁻¹(q̇_des − P v*), v_c = v* + M⁻¹Pᵀ τ_c  (ID3).
  s_.residual.resize(na);
  for (int a = 0; a < na; ++a) s_.residual[a] = problem.qd_des[a] - cp.v_star[problem.actuated[a]];
  if (na > 0)
    s_.tau_c = s_.G_llt.solve(s_.residual);
  else
    s_.tau_c.resize(0);
  s_.v_c = cp.v_star;
  if (na > 0) {
    s_.Minv_Pt_tau.noalias() = s_.Minv_Pt * s_.tau_c;
    s_.v_c += s_.Minv_Pt_tau;
  }

  // J = [N; S; T] dense, Y = M⁻¹Jᵀ, K Jᵀ = Y − M⁻¹Pᵀ G⁻¹ P Y, T_τ = −G⁻¹ P Y  (ID2).
  s_.J.setZero(3 * nc, nv);
  const SparseRows* blocks[3] = {&cp.N, &cp.S, &cp.T};
  for (int b = 0; b < 3; ++b)
    for (int r = 0; r < nc; ++r)
      for (SparseRows::InnerIterator it(*blocks[b], r); it; ++it) s_.J(b * nc + r, it.col()) = it.value();
  s_.Y.resize(nv, 3 * nc);
  s_.row.resize(nv);
  for (int r = 0; r < 3 * nc; ++r) {
    s_.row = s_.J.row(r).transpose();
    cp.solve_M(s_.row, s_.col);
    s_.Y.col(r) = s_.col;
  }
  s_.PY.resize(na, 3 * nc);
  for (int a = 0; a < na; ++a) s_.PY.row(a) = s_.Y.row(problem.actuated[a]);
  if (na > 0) {
    s_.T_tau = s_.G_llt.solve(s_.PY);
    s_.T_tau = -s_.T_tau;
  } else {
    s_.T_tau.setZero(0, 3 * nc);
  }
  s_.KJt = s_.Y;
  if (na > 0) {
    s_.Minv_Pt_T.noalias() = s_.Minv_Pt * s_.T_tau;
    s_.KJt += s_.Minv_Pt_T;
  }
  s_.D.noalias() = s_.J * s_.KJt;
  for (int j = 0; j < s_.D.cols(); ++j)   // symmetric up to roundoff: ½(D + Dᵀ)
    for (int i = 0; i <= j; ++i) s_.D(i, j) = s_.D(j, i) = 0.5 * (s_.D(i, j) + s_.D(j, i));
  return true;
}

void ActuatedElimination::torque(const Eigen::VectorXd& p, Eigen::VectorXd& tau) const {
  tau = s_.tau_c;
  if (s_.nc > 0 && s_.na > 0) tau.noalias() += s_.T_tau * p;
}

void ActuatedElimination::velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v_plus) const {
  v_plus = s_.v_c;
  if (s_.nc > 0) v_plus.noalias() += s_.KJt * p;
}

}  // namespace impetus
