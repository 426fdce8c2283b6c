// Viscous model (viscous_model.hpp, V1–V4).
#include "contact/viscous/viscous_model.hpp"

#include <algorithm>
#include <numeric>

#include "contact/free_motion.hpp"

namespace impetus {
namespace {

/// out += M_b x_b, block by block (M from the block, or L Lᵀ from its factor).
void add_M_times(const ContactProblem& problem, const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> out) {
  for (const SystemBlock& s : problem.systems) {
    if (s.size == 0) continue;
    const auto xb = x.segment(s.offset, s.size);
    auto ob = out.segment(s.offset, s.size);
    if (s.M != nullptr) {
      ob.noalias() += *s.M * xb;
    } else {
      const auto& LLT = s.M_llt->matrixLLT();
      ob.noalias() += LLT.triangularView<Eigen::Lower>() * (LLT.triangularView<Eigen::Lower>().transpose() * xb);
    }
  }
}

/// W += dt·μ cᵀc for a sparse row c, restricted to columns [lo, lo + size) and shifted by lo.
template <class Matrix>
void add_outer(Matrix& W, const SparseRows& R, int row, double weight, int lo, int size) {
  for (SparseRows::InnerIterator a(R, row); a; ++a) {
    const int i = static_cast<int>(a.col()) - lo;
    if (i < 0 || i >= size) continue;
    for (SparseRows::InnerIterator b(R, row); b; ++b) {
      const int j = static_cast<int>(b.col()) - lo;
      if (j < 0 || j >= size) continue;
      W(i, j) += weight * a.value() * b.value();
    }
  }
}

/// (V1)'s friction impulses p_S = −dt μ̃ S v⁺, p_T = −dt μ̃ T v⁺ of the result's v⁺, and their power.
void friction_impulses(const ContactProblem& problem, const Eigen::Ref<const Eigen::VectorXd>& mu,
                       ContactResult& result, ViscousReport& report) {
  const int nc = problem.nc;
  const double dt = problem.dt;
  result.p_S.resize(nc);
  result.p_T.resize(nc);
  double power = 0;
  for (int i = 0; i < nc; ++i) {
    const double s = row_dot({&problem.S, i}, result.v_plus), t = row_dot({&problem.T, i}, result.v_plus);
    result.p_S[i] = -dt * mu[i] * s;
    result.p_T[i] = -dt * mu[i] * t;
    power += (result.p_S[i] * s + result.p_T[i] * t) / dt;
  }
  report.friction_power = power;
}

}  // namespace

ViscousOptions ViscousOptions::parse(const ModelOptions& options) {
  OptionReader read("viscous", options);
  ViscousOptions o;
  o.projection = ProjectionOptions::parse(read);
  o.distribution = read.choice("mu_viscous_per", o.distribution,
                               {{"pair", ViscousDistribution::Pair}, {"point", ViscousDistribution::Point}});
  read.finish();
  return o;
}

void ViscousModel::distribute_coefficients(Workspace& ws, const ContactProblem& problem) const {
  const int nc = problem.nc;
  // μ̃ ≥ 0: a negative coefficient would make W indefinite and friction a motor.
  grow(ws.mu_, ws.mu_storage_, nc);
  if (problem.mu_viscous.size() == nc) ws.mu_ = problem.mu_viscous.cwiseMax(0.0);
  else ws.mu_.setZero();
  if (options_.distribution == ViscousDistribution::Point || nc == 0) return;
  // Pairs: contacts with the same unordered pair of geometries share their pair's coefficient.
  auto pair_of = [&](int i) {
    if (static_cast<int>(problem.keys.size()) != nc) return std::pair<int, int>{0, 0};   // one pair
    const ContactKey& k = problem.keys[i];
    return std::pair<int, int>{std::min(k.geom_a, k.geom_b), std::max(k.geom_a, k.geom_b)};
  };
  ws.order_.resize(nc);
  std::iota(ws.order_.begin(), ws.order_.end(), 0);
  std::sort(ws.order_.begin(), ws.order_.end(), [&](int a, int b) { return pair_of(a) < pair_of(b); });
  for (int first = 0; first < nc;) {
    int last = first + 1;
    while (last < nc && pair_of(ws.order_[last]) == pair_of(ws.order_[first])) ++last;
    const double count = last - first;
    for (int r = first; r < last; ++r) ws.mu_[ws.order_[r]] /= count;
    first = last;
  }
}

bool ViscousModel::build_metric(Workspace& ws, const ContactProblem& problem, ViscousReport& report) const {
  const int nc = problem.nc, nv = problem.nv, nb = static_cast<int>(problem.systems.size());
  const double dt = problem.dt;
  ws.block_of_column_.assign(nv, -1);
  for (int b = 0; b < nb; ++b)
    for (int j = 0; j < problem.systems[b].size; ++j) ws.block_of_column_[problem.systems[b].offset + j] = b;

  // Does a viscous row touch two systems? Then K couples them and W is factored densely.
  ws.block_has_friction_.assign(nb, 0);
  bool coupled = false;
  for (int i = 0; i < nc && !coupled; ++i) {
    if (!(ws.mu_[i] > 0)) continue;
    for (const SparseRows* R : {&problem.S, &problem.T}) {
      int first = -1;
      for (SparseRows::InnerIterator it(*R, i); it; ++it) {
        const int b = ws.block_of_column_[it.col()];
        if (b < 0) continue;
        if (first < 0) first = b;
        else if (b != first) coupled = true;
      }
      if (first >= 0) ws.block_has_friction_[first] = 1;
    }
  }
  report.dense_metric = coupled;

  if (coupled) {
    ws.W_dense_.setZero(nv, nv);
    for (const SystemBlock& s : problem.systems) {
      if (s.size == 0) continue;
      if (s.M != nullptr) {
        ws.W_dense_.block(s.offset, s.offset, s.size, s.size) = *s.M;
      } else {
        ws.W_dense_.block(s.offset, s.offset, s.size, s.size) = s.M_llt->reconstructedMatrix();
      }
    }
    for (int i = 0; i < nc; ++i) {
      if (!(ws.mu_[i] > 0)) continue;
      add_outer(ws.W_dense_, problem.S, i, dt * ws.mu_[i], 0, nv);
      add_outer(ws.W_dense_, problem.T, i, dt * ws.mu_[i], 0, nv);
    }
    ws.W_ = &ws.W_full_;
    return ws.W_full_.factor(ws.W_dense_);
  }

  // Block diagonal: W_b = M_b + dt K_b where block b has viscous rows, else M_b's own factor.
  if (static_cast<int>(ws.W_block_.size()) < nb) {
    ws.W_block_.resize(nb);
    ws.W_block_llt_.resize(nb);
  }
  ws.factors_.resize(nb);
  bool ok = true;
  for (int b = 0; b < nb; ++b) {
    const SystemBlock& s = problem.systems[b];
    if (!ws.block_has_friction_[b] && s.M_llt != nullptr) {
      ws.factors_[b] = s.M_llt;
      continue;
    }
    Eigen::MatrixXd& Wb = ws.W_block_[b];
    if (s.M != nullptr) {
      Wb = *s.M;
    } else {
      Wb = s.M_llt->reconstructedMatrix();
    }
    for (int i = 0; i < nc; ++i) {
      if (!(ws.mu_[i] > 0)) continue;
      add_outer(Wb, problem.S, i, dt * ws.mu_[i], s.offset, s.size);
      add_outer(Wb, problem.T, i, dt * ws.mu_[i], s.offset, s.size);
    }
    ws.W_block_llt_[b].compute(Wb);
    ok = ok && ws.W_block_llt_[b].info() == Eigen::Success;
    ws.factors_[b] = &ws.W_block_llt_[b];
  }
  ws.W_blocks_.reset(nv, problem.systems, ws.factors_);
  ws.W_ = &ws.W_blocks_;
  return ok;
}

std::unique_ptr<ContactWorkspace> ViscousModel::make_workspace() const {
  return std::make_unique<Workspace>();
}

void ViscousModel::solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const {
  Workspace& ws = static_cast<Workspace&>(workspace);
  ViscousReport& report = result.report_slot<ViscousReport>();
  report = {};
  const int nc = problem.nc, nl = problem.nl, nv = problem.nv;

  distribute_coefficients(ws, problem);
  if (options_.single_contact_closed_form &&
      options_.projection.solver == ProjectionSolver::PrincipalPivoting && nc == 1 && nl == 0 &&
      ws.single_.solve(problem, ws.mu_[0], options_.projection, result.v_plus)) {
    take_single_contact(problem, ws, result, report);
    return;
  }
  if (options_.free_motion && options_.projection.solver == ProjectionSolver::PrincipalPivoting &&
      take_free_motion(problem, ws, result, report))
    return;
  const bool factored = build_metric(ws, problem, report);

  // v_f = W⁻¹ M v*  (V3).
  grow(ws.v_f_, ws.v_f_storage_, nv);
  ws.v_f_.setZero();
  add_M_times(problem, problem.v_star, ws.v_f_);
  ws.W_->solve_in_place(ws.v_f_);
  ws.factor_.reset(*ws.W_, ws.v_f_);

  ws.U_.set(problem);
  grow(ws.guess_, ws.guess_storage_, nc + nl);
  unilateral_guess(problem, ws.guess_);
  grow(ws.z_, ws.z_storage_, nc + nl);
  grow(ws.lambda_G_, ws.lambda_G_storage_, ws.factor_.size());
  ws.projection_.solve(*ws.W_, ws.factor_, ws.U_, ws.v_f_, ws.guess_, options_.projection, ws.z_, result.v_plus,
                       ws.lambda_G_, result.stats);
  report.projection = ws.projection_.report();
  if (!factored) {
    result.stats.status = SolveStatus::Failed;
    result.stats.message = "M + dt·K is not numerically positive definite; " + result.stats.message;
  }

  result.p_N = ws.z_.head(nc);
  result.p_L = ws.z_.tail(nl);
  result.clear_implicit();
  friction_impulses(problem, ws.mu_, result, report);
}

bool ViscousModel::take_free_motion(const ContactProblem& problem, Workspace& ws, ContactResult& result,
                                    ViscousReport& report) const {
  // (FM1), and (FM2) on the contacts with μ̃ > 0: v_f of (V3) is v* but for a slip below the certificate's resolution,
  // and violates no row: v⁺ = v*, p_N = p_L = 0, W never built.
  if (!every_row_separates(problem)) return false;
  ws.slip_charged_.resize(problem.nc);
  for (int i = 0; i < problem.nc; ++i) ws.slip_charged_[i] = ws.mu_[i] > 0;
  const double s_v = free_motion_velocity_scale(problem);
  if (!(largest_free_slip(problem, ws.slip_charged_) <= options_.projection.certificate_tolerance * s_v)) return false;
  result.v_plus = problem.v_star;
  result.p_N.setZero(problem.nc);
  result.p_L.setZero(problem.nl);
  result.clear_implicit();
  friction_impulses(problem, ws.mu_, result, report);
  solved_by_free_motion(s_v, result.stats, report.projection);
  report.dense_metric = false;
  return true;
}

void ViscousModel::take_single_contact(const ContactProblem& problem, const Workspace& ws, ContactResult& result,
                                       ViscousReport& report) const {
  // The result and report the general path gives for an answer taken without a pivot: one solve of (D2), the
  // normal row active when p_N > 0, W never factored (dense_metric false).
  const ViscousSingleContact& single = ws.single_;
  result.p_N.resize(1);
  result.p_N[0] = single.p_N;
  result.p_L.resize(0);
  result.clear_implicit();
  friction_impulses(problem, ws.mu_, result, report);
  solved_without_pivot(single.residual, single.velocity_scale, single.p_N > 0 ? 1 : 0, result.stats, report.projection);
  report.dense_metric = false;
}

}  // namespace impetus
