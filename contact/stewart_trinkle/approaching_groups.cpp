// (ST11): Lemke on the groups that can carry an impulse (approaching_groups.hpp).
#include "contact/stewart_trinkle/approaching_groups.hpp"
#include "contact/solvers/lcp_certificate.hpp"

#include <algorithm>
#include <cassert>

namespace impetus {

// The (ST6) blocks of `lcp` restricted to G: D over the rows [N_G; L; S_G; T_G], q over the same
// unknowns, the friction blocks of G's groups with μ > 0. The balance a stays the whole problem's
// (any a > 0 maps solutions to solutions, ST7).
void ApproachingGroups::restrict(const StewartTrinkleLcp& lcp) {
  const int ng = lcp.ng, nl = lcp.nl, k = lcp.k, nu = ng + nl;
  const int mg = static_cast<int>(groups.size()), mu_ = mg + nl;
  sub.nc = 0;
  sub.ng = mg;
  sub.nl = nl;
  sub.k = k;
  sub.balance = lcp.balance;
  sub.cos_edge = lcp.cos_edge;
  sub.sin_edge = lcp.sin_edge;
  sub.friction_group.clear();
  sub.mu.clear();
  for (int s = 0; s < mg; ++s) {
    const int f = block_of_group[groups[s]];
    if (f < 0) continue;
    sub.friction_group.push_back(s);
    sub.mu.push_back(lcp.mu[f]);
  }
  const int mf = static_cast<int>(sub.friction_group.size());
  sub.nf = mf;
  sub.lay_out_blocks();

  // Row s of the restricted D is row index(s) of the whole one.
  const auto index = [&](int s) {
    if (s < mg) return groups[s];                             // N
    if (s < mu_) return ng + (s - mg);                        // L
    if (s < mu_ + mg) return nu + groups[s - mu_];            // S
    return nu + ng + groups[s - mu_ - mg];                    // T
  };
  const int m = 3 * mg + nl;
  grow(sub.D, sub.D_storage, m, m);
  for (int c = 0; c < m; ++c) {
    const int jc = index(c);
    for (int r = 0; r < m; ++r) sub.D(r, c) = lcp.D(index(r), jc);
  }

  grow(sub.q, sub.q_storage, sub.size);
  sub.q.setZero();
  for (int s = 0; s < mg; ++s) sub.q[s] = lcp.q[groups[s]];
  sub.q.segment(mg, nl) = lcp.q.segment(ng, nl);
  for (int f = 0; f < mf; ++f) {
    const int whole = block_of_group[groups[sub.friction_group[f]]];
    sub.q.segment(sub.offset_F + f * k, k) = lcp.q.segment(lcp.offset_F + whole * k, k);
  }
}

// z of the whole LCP from the restricted one, with p = 0 and the λ̂ of (ST11) for the groups not in G;
// Az and w = A z + q of the whole problem.
void ApproachingGroups::expand(const StewartTrinkleLcp& lcp, Eigen::Ref<Eigen::VectorXd> z) {
  const int ng = lcp.ng, nl = lcp.nl, k = lcp.k;
  const int mg = sub.ng;
  assert(z.size() == lcp.size);
  z.setZero();
  for (int s = 0; s < mg; ++s) z[groups[s]] = z_sub[s];
  z.segment(ng, nl) = z_sub.segment(mg, nl);
  for (int f = 0; f < sub.nf; ++f) {
    const int whole = block_of_group[groups[sub.friction_group[f]]];
    z.segment(lcp.offset_F + whole * k, k) = z_sub.segment(sub.offset_F + f * k, k);
    z[lcp.offset_lambda + whole] = z_sub[sub.offset_lambda + f];
  }
  grow(Az, Az_storage, lcp.size);
  grow(w, w_storage, lcp.size);
  grow(p_J, p_J_storage, lcp.D.rows());
  grow(Dp, Dp_storage, lcp.D.rows());
  lcp.times(z, Az, p_J, Dp);
  w = Az + lcp.q;
  for (int f = 0; f < lcp.nf; ++f) {
    if (in_G[lcp.friction_group[f]]) continue;
    const auto w_F = w.segment(lcp.offset_F + f * k, k);
    const double speed = -w_F.minCoeff() / lcp.balance;
    if (!(speed > 0)) continue;
    z[lcp.offset_lambda + f] = speed;   // its column of A: a in the block's own friction rows (ST6)
    Az.segment(lcp.offset_F + f * k, k).array() += lcp.balance * speed;
    w.segment(lcp.offset_F + f * k, k).array() += lcp.balance * speed;
  }
}

bool ApproachingGroups::solve(const ContactProblem& problem, StewartTrinkleLcp& lcp, LemkeSolver& lemke,
                              double tolerance, int max_size, int& pivots_left, Eigen::Ref<Eigen::VectorXd> z,
                              LemkeResult& result) {
  const int ng = lcp.ng;
  in_G.assign(ng, 0);
  for (int g = 0; g < ng; ++g) in_G[g] = lcp.q[g] <= 0;
  if (problem.p_N_guess.size() == problem.nc)
    for (int c = 0; c < problem.nc; ++c)
      if (problem.p_N_guess[c] > 0) in_G[lcp.group[c]] = 1;
  block_of_group.assign(ng, -1);
  for (int f = 0; f < lcp.nf; ++f) block_of_group[lcp.friction_group[f]] = f;

  int pivots = 0;
  for (;;) {
    groups.clear();
    for (int g = 0; g < ng; ++g)
      if (in_G[g]) groups.push_back(g);
    if (static_cast<int>(groups.size()) == ng) return false;   // the whole LCP: the caller's solve
    // The restriction reads D over G's rows and the limits', and z (zero elsewhere) acts through them only.
    columns.assign(lcp.D.rows(), 0);
    for (int g : groups) columns[g] = columns[ng + lcp.nl + g] = columns[2 * ng + lcp.nl + g] = 1;
    for (int l = 0; l < lcp.nl; ++l) columns[ng + l] = 1;
    lcp.need_D(columns);
    restrict(lcp);
    if (sub.size > max_size || pivots_left <= 0) return false;
    assemble_stewart_trinkle_matrix(sub);
    grow(z_sub, z_sub_storage, sub.size);
    lemke.options().pivot_budget = pivots_left;
    LemkeResult round = lemke.solve(sub.A, sub.q, z_sub);
    pivots += round.pivots;
    pivots_left -= round.pivots;
    if (!round.solved()) return false;
    expand(lcp, z);
    const double rho = certificate_rho(lcp.q, z, w, Az.lpNorm<Eigen::Infinity>());
    if (rho <= tolerance) {
      result = round;
      result.pivots = pivots;
      result.residual = rho;
      return true;
    }
    // (ST2) of the omitted groups is the only row the restriction can miss: those pushed in join G.
    int joined = 0;
    for (int g = 0; g < ng; ++g)
      if (!in_G[g] && w[g] < 0) {
        in_G[g] = 1;
        ++joined;
      }
    if (joined == 0) return false;
  }
}

}  // namespace impetus
