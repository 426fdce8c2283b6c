// Building the phase I and phase II cone programs (phase_programs.hpp; max_dissipation.hpp MD2–MD7).
#include "contact/max_dissipation/phase_programs.hpp"

#include <cmath>

#include "contact/solvers/inertia_operator.hpp"
#include "contact/sparse_fill.hpp"

namespace impetus {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

void copy_row(const SparseRows& X, int row, int to, Triplets& out) {
  for (SparseRows::InnerIterator it(X, row); it; ++it) out.emplace_back(to, static_cast<int>(it.col()), it.value());
}

void copy_velocity_space(const ContactProblem& problem, ConeProgram& program) {
  program.nv = problem.nv;
  program.systems = problem.systems;
  program.v_star = problem.v_star;
}

/// p ≥ 0 as a one-coordinate group (and p ≤ ρ when ρ > 0).
void add_nonnegative_group(int offset, double upper, ConeProgram& program) {
  ImpulseGroup g;
  g.offset = offset;
  g.size = 1;
  g.first_linear = static_cast<int>(program.linear.size());
  GroupLinear lower;
  lower.a = Eigen::Vector3d::UnitX();
  program.linear.push_back(lower);                 // p ≥ 0
  g.num_linear = 1;
  if (upper > 0) {
    GroupLinear bound;
    bound.a = -Eigen::Vector3d::UnitX();
    bound.b = upper;
    program.linear.push_back(bound);               // ρ − p ≥ 0
    g.num_linear = 2;
  }
  program.groups.push_back(g);
}

/// Whether velocity row `row` of X (with offset r = φ/dt) holds for every v with ½vᵀMv ≤ E (MD10):
/// |X_i v| ≤ √(X_i M⁻¹ X_iᵀ) · √(2E) by Cauchy–Schwarz in the M inner product.
class RowsThatCannotBind {
 public:
  RowsThatCannotBind(const ContactProblem& problem, double energy_ceiling, PhaseProgramScratch& scratch)
      : problem_(problem),
        speed2_(2 * energy_ceiling),
        block_of_(scratch.block_of),
        segment_(scratch.segment),
        solved_(scratch.solved) {
    if (!std::isfinite(speed2_)) return;
    block_of_.assign(problem.nv, -1);
    for (std::size_t b = 0; b < problem.systems.size(); ++b)
      for (int j = 0; j < problem.systems[b].size; ++j) block_of_[problem.systems[b].offset + j] = static_cast<int>(b);
  }

  bool cannot_bind(const SparseRows& X, int row, double r) const {
    // A margin of 2 on the bound covers the interior-point method's tolerance on KE(v⁺_II) ≤ KE(v⁺_I).
    constexpr double kMargin = 2.0;
    if (!std::isfinite(speed2_) || !(r > 0)) return false;
    return r * r > kMargin * kMargin * speed2_ * inverse_inertia_norm2(X, row);
  }

 private:
  /// X_i M⁻¹ X_iᵀ, block by block.
  double inverse_inertia_norm2(const SparseRows& X, int row) const {
    double sum = 0;
    int done = -1;
    for (SparseRows::InnerIterator it(X, row); it; ++it) {
      const int b = block_of_[it.col()];
      if (b < 0 || b == done) continue;
      const SystemBlock& s = problem_.systems[b];
      segment_.setZero(s.size);
      for (SparseRows::InnerIterator jt(X, row); jt; ++jt)
        if (block_of_[jt.col()] == b) segment_[jt.col() - s.offset] = jt.value();
      solved_ = s.M_llt->solve(segment_);
      sum += segment_.dot(solved_);
      done = b;   // a row's entries come by column, so a block's are contiguous
    }
    return sum;
  }

  const ContactProblem& problem_;
  double speed2_;
  std::vector<int>& block_of_;           // the caller's buffers (PhaseProgramScratch)
  Eigen::VectorXd &segment_, &solved_;
};

}  // namespace

void build_phase_one(const ContactProblem& problem, double elastic_bound, ConeProgram& program, ImpulseLayout& layout,
                     PhaseProgramScratch& scratch) {
  Triplets& J = scratch.J;
  J.clear();
  copy_velocity_space(problem, program);
  const int nc = problem.nc, nl = problem.nl;
  program.np = nc + nl;
  program.c.resize(nc + nl);
  program.groups.clear();
  program.linear.clear();
  program.cones.clear();
  program.budgets.clear();
  layout.contact_offset.resize(nc);
  layout.has_friction.assign(nc, 0);
  layout.normal_index.resize(nc);
  for (int i = 0; i < nc; ++i) {
    copy_row(problem.N, i, i, J);
    program.c[i] = problem.phi[i] / problem.dt;    // (MD2): the gap enters as a cost on p_N
    add_nonnegative_group(i, elastic_bound, program);
    layout.contact_offset[i] = layout.normal_index[i] = i;
  }
  layout.limit_index.resize(nl);
  for (int k = 0; k < nl; ++k) {
    layout.limit_index[k] = nc + k;
    copy_row(problem.L, k, nc + k, J);
    program.c[nc + k] = problem.phi_L[k] / problem.dt;
    add_nonnegative_group(nc + k, elastic_bound, program);
  }
  set_from_triplets_in_place(program.J, nc + nl, problem.nv, J, scratch.order);
  if (program.R.rows() != 0 || program.R.cols() != problem.nv) program.R.resize(0, problem.nv);   // Eigen reallocates
  program.r.resize(0);                                                                          // on every resize to 0 rows
}

void build_phase_two(const ContactProblem& problem, FrictionCone cone, int edges, double kappa,
                     const Eigen::VectorXd& limit_budget, ConeProgram& program, ImpulseLayout& layout,
                     PhaseProgramScratch& scratch, double energy_ceiling, const std::vector<char>* kept) {
  Triplets &J = scratch.J, &R = scratch.R;
  std::vector<double>& r = scratch.r;
  J.clear();
  R.clear();
  r.clear();
  const RowsThatCannotBind slack(problem, energy_ceiling, scratch);
  auto velocity_row = [&](const SparseRows& X, int row, double offset) {
    if (slack.cannot_bind(X, row, offset)) return;
    copy_row(X, row, static_cast<int>(r.size()), R);
    r.push_back(offset);
  };
  copy_velocity_space(problem, program);
  const int nc = problem.nc, nl = problem.nl;
  program.groups.clear();
  program.linear.clear();
  program.cones.clear();
  program.budgets.resize(1);                       // a fresh budget in the last one's buffer
  program.budgets[0].index.clear();
  program.budgets[0].bound = 0;
  layout.contact_offset.resize(nc);
  layout.has_friction.assign(nc, 0);
  layout.normal_index.resize(nc);

  int np = 0;
  for (int i = 0; i < nc; ++i) {
    if (kept != nullptr && !(*kept)[i]) {          // (MD16) left out
      layout.contact_offset[i] = layout.normal_index[i] = -1;
      continue;
    }
    const double mu = std::max(problem.mu[i], 0.0);
    // (MD7) the viscous term: dt·μ_v‖b_T‖ with b_T = (S_i v*, T_i v*), the pre-contact slip.
    double viscous = 0;
    if (cone == FrictionCone::Viscous && problem.mu_viscous.size() == nc && problem.mu_viscous[i] > 0)
      viscous = problem.dt * problem.mu_viscous[i] *
                std::hypot(row_dot({&problem.S, i}, problem.v_star), row_dot({&problem.T, i}, problem.v_star));
    const bool friction = mu > 0 || viscous > 0;
    layout.contact_offset[i] = layout.normal_index[i] = np;
    layout.has_friction[i] = friction;
    copy_row(problem.N, i, np, J);
    velocity_row(problem.N, i, problem.phi[i] / problem.dt);   // (MD4) N v + φ/dt ≥ 0
    program.budgets[0].index.push_back(np);        // (MD5) Σ p_N ≤ κ
    if (!friction) {
      add_nonnegative_group(np, 0, program);       // p_N ≥ 0
      ++np;
      continue;
    }
    copy_row(problem.S, i, np + 1, J);
    copy_row(problem.T, i, np + 2, J);
    ImpulseGroup g;
    g.offset = np;
    g.size = 3;
    g.first_linear = static_cast<int>(program.linear.size());
    if (cone == FrictionCone::Pyramid) {
      // (MD6) facet j of the k-gon with vertices μp_N(cos 2πj/k, sin 2πj/k): its outward normal is at
      // angle θ_j = (2j + 1)π/k and its distance from the axis μ p_N cos(π/k).
      for (int j = 0; j < edges; ++j) {
        const double theta = (2 * j + 1) * M_PI / edges;
        GroupLinear facet;
        facet.a = Eigen::Vector3d(mu * std::cos(M_PI / edges), -std::cos(theta), -std::sin(theta));
        program.linear.push_back(facet);
      }
      g.num_linear = edges;
    } else {
      // (MD5)/(MD7): (μ p_N + c, p_S, p_T) ∈ Q³, c = 0 for the Coulomb cone.
      GroupCone q;
      q.F = Eigen::Vector3d(mu, 1, 1).asDiagonal();
      q.f = Eigen::Vector3d(viscous, 0, 0);
      g.cone = static_cast<int>(program.cones.size());
      program.cones.push_back(q);
      if (cone == FrictionCone::Viscous) {
        // With c > 0 the set no longer implies p_N ≥ 0: say it.
        GroupLinear compressive;
        compressive.a = Eigen::Vector3d::UnitX();
        program.linear.push_back(compressive);
        g.num_linear = 1;
      }
    }
    program.groups.push_back(g);
    np += 3;
  }
  // Limits are frictionless, so phase II has nothing to buy with more limit impulse but dissipation
  // against a limit still φ_L away: each keeps at most its phase I impulse (its own budget, in its
  // own units, N·s or N·m·s), and one that phase I left at zero keeps only its velocity row.
  layout.limit_index.assign(nl, -1);
  for (int k = 0; k < nl; ++k) {
    velocity_row(problem.L, k, problem.phi_L[k] / problem.dt);
    const double budget = limit_budget.size() == nl ? limit_budget[k] : 0.0;
    if (!(budget > 0)) continue;
    copy_row(problem.L, k, np, J);
    add_nonnegative_group(np, budget, program);
    layout.limit_index[k] = np;
    ++np;
  }
  program.np = np;
  program.c.resize(0);
  set_from_triplets_in_place(program.J, np, problem.nv, J, scratch.order);
  set_from_triplets_in_place(program.R, static_cast<int>(r.size()), problem.nv, R, scratch.order);
  program.r = Eigen::Map<const Eigen::VectorXd>(r.data(), static_cast<int>(r.size()));
  program.budgets[0].bound = kappa;
  if (program.budgets[0].index.empty()) program.budgets.clear();   // no contact in the program
}

}  // namespace impetus
