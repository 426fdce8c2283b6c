// (ST13): the Stewart–Trinkle LCP of a large island, sparse, by semismooth Newton (sparse_newton.hpp).
#include "contact/stewart_trinkle/sparse_newton.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "contact/solvers/lcp_certificate.hpp"

namespace impetus {
namespace {

// Armijo constant γ of the search (the usual 1e-4) and its smallest step: below it the direction is
// useless and the method stops.
constexpr double kArmijo = 1e-4;
constexpr double kMinStep = 1e-8;
// δ of a singular H, relative to its largest diagonal entry: 10⁴ roundoffs, far below the tolerance of
// the certificate, which the step must still meet.
constexpr double kSingularShift = 1e-10;
// Stage 2's progress test: Ψ must halve within kStallWindow Newton steps, or the method stops ("stalled").
// Near a solution semismooth Newton converges superlinearly (Ψ falls by orders a step); each step is a sparse
// LU of the whole H, ~0.7 s CPU at granular's landing (14 000 unknowns), where the fallback's whole solve is
// ~1 s. Measured on the 1582 problems of granular_small with max_lemke_size 1: certified
// 1357 with the old test (Ψ down by 1 % in 5), 1344 with this one.
constexpr double kStallRatio = 0.5;
constexpr int kStallWindow = 5;
// Stage 1's progress test: the number of unknowns whose side changes (the update of B) must fall below
// kChangeRatio of its smallest value so far within kChangeWindow rounds, and no basis may repeat (the
// update is deterministic: a repeated B repeats the cycle); else stage 1 stops. The update is not a
// convergent method on this non-P matrix: with a shifted A_BB granular's rest kept ~5000
// changes a round from round 6 on, its landing ~250 from round 15.
constexpr double kChangeRatio = 0.9;
constexpr int kChangeWindow = 3;

/// φ of (ST13) and its (α, β).
double fischer_burmeister(double x, double y, double& alpha, double& beta) {
  const double r = std::hypot(x, y);
  if (r == 0) {
    alpha = beta = 1 - 1 / std::sqrt(2.0);
    return 0;
  }
  alpha = 1 - x / r;
  beta = 1 - y / r;
  return x + y - r;
}

/// The system of each column of the island (−1 for none): J's rows are found on their systems through it, where
/// a pile has a thousand systems.
void index_systems(const ContactProblem& problem, std::vector<int>& system_of_column) {
  system_of_column.assign(problem.nv, -1);
  for (int b = 0; b < static_cast<int>(problem.systems.size()); ++b)
    for (int i = 0; i < problem.systems[b].size; ++i) system_of_column[problem.systems[b].offset + i] = b;
}

/// The systems row r of J touches (a contact's two bodies), in their order.
void systems_of_row(const SparseRows& J, int r, const std::vector<int>& system_of_column, std::vector<int>& touched) {
  touched.clear();
  for (SparseRows::InnerIterator it(J, r); it; ++it)
    if (system_of_column[it.col()] >= 0) touched.push_back(system_of_column[it.col()]);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
}

/// x = row r of J on system s's coordinates.
void row_on_system(const SparseRows& J, int r, const SystemBlock& s, Eigen::VectorXd& x) {
  x.setZero(s.size);
  for (SparseRows::InnerIterator it(J, r); it; ++it)
    if (it.col() >= s.offset && it.col() < s.offset + s.size) x[it.col() - s.offset] = it.value();
}

}  // namespace

void StewartTrinkleSparseNewton::assemble(const ContactProblem& problem, StewartTrinkleLcp& lcp) {
  const SparseRows& J = stack_stewart_trinkle_rows(problem, lcp);
  const int m = static_cast<int>(J.rows()), ng = lcp.ng, nl = lcp.nl, nu = ng + nl, k = lcp.k;

  // Y = W Jᵀ block by block: row r of J touches a few systems; M_b⁻¹ of its entries there.
  index_systems(problem, system_of_column);
  triplets.clear();
  Eigen::VectorXd x;
  for (int r = 0; r < m; ++r) {
    systems_of_row(J, r, system_of_column, touched);
    for (int b : touched) {
      const SystemBlock& s = problem.systems[b];
      row_on_system(J, r, s, x);
      x = s.M_llt->solve(x);
      for (int i = 0; i < s.size; ++i)
        if (x[i] != 0) triplets.emplace_back(s.offset + i, r, x[i]);
    }
  }
  Y.resize(problem.nv, m);
  Y.setFromTriplets(triplets.begin(), triplets.end());
  const SparseCols Jc = J;
  D = (Jc * Y).pruned();

  // (ST7): a = mean diag(N W Nᵀ).
  double a = 0;
  for (int g = 0; g < ng; ++g) a += D.coeff(g, g);
  a = ng > 0 ? a / ng : 1.0;
  if (!(a > 0) || !std::isfinite(a)) a = 1.0;
  lcp.balance = a;

  // Each row of D stands for the rows of (ST6) it enters: a U row for itself, S_g (T_g) for the k rows of
  // g's friction block with weights cos_j (sin_j). A = Σ over D's entries of w_r w_c D(r, c), then the
  // λ̂ blocks.
  std::vector<int> block_of_group(ng, -1);
  for (int f = 0; f < lcp.nf; ++f) block_of_group[lcp.friction_group[f]] = f;
  const auto expand = [&](int r, auto&& emit) {
    if (r < nu) return emit(r, 1.0);
    const bool is_S = r < nu + ng;
    const int g = is_S ? r - nu : r - nu - ng, f = block_of_group[g];
    if (f < 0) return;
    for (int j = 0; j < k; ++j) emit(lcp.offset_F + f * k + j, is_S ? lcp.cos_edge[j] : lcp.sin_edge[j]);
  };
  triplets.clear();
  for (int c = 0; c < m; ++c)
    for (SparseCols::InnerIterator it(D, c); it; ++it) {
      const double value = it.value();
      expand(static_cast<int>(it.row()), [&](int ar, double wr) {
        expand(c, [&](int ac, double wc) {
          const double entry = wr * wc * value;
          if (entry != 0) triplets.emplace_back(ar, ac, entry);
        });
      });
    }
  for (int f = 0; f < lcp.nf; ++f) {
    const int l = lcp.offset_lambda + f;
    for (int j = 0; j < k; ++j) {
      triplets.emplace_back(lcp.offset_F + f * k + j, l, a);
      triplets.emplace_back(l, lcp.offset_F + f * k + j, -a);
    }
    triplets.emplace_back(l, lcp.friction_group[f], a * lcp.mu[f]);
  }
  const int n = lcp.size;
  A.resize(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  // H has A's pattern plus the diagonal: the stored zeros keep one pattern for every iteration.
  for (int i = 0; i < n; ++i) triplets.emplace_back(i, i, 0.0);
  H.resize(n, n);
  H.setFromTriplets(triplets.begin(), triplets.end());
  diagonal.assign(n, -1);
  for (int c = 0; c < n; ++c)
    for (SparseCols::InnerIterator it(H, c); it; ++it)
      if (it.row() == c) diagonal[c] = static_cast<int>(&it.value() - H.valuePtr());

  assemble_q(problem, lcp, J);
}

// q = [U v* + [φ; φ_L]/dt; F v*; 0].
void StewartTrinkleSparseNewton::assemble_q(const ContactProblem& problem, const StewartTrinkleLcp& lcp,
                                            const SparseRows& J) {
  const int ng = lcp.ng, nl = lcp.nl, nu = ng + nl, k = lcp.k;
  const Eigen::VectorXd Jv = J * problem.v_star;
  q.setZero(lcp.size);
  for (int g = 0; g < ng; ++g) q[g] = Jv[g] + lcp.phi[g] / problem.dt;
  for (int l = 0; l < nl; ++l) q[ng + l] = Jv[ng + l] + problem.phi_L[l] / problem.dt;
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f];
    for (int j = 0; j < k; ++j)
      q[lcp.offset_F + f * k + j] = lcp.cos_edge[j] * Jv[nu + g] + lcp.sin_edge[j] * Jv[nu + ng + g];
  }
}

bool StewartTrinkleSparseNewton::solve_separating(const ContactProblem& problem, StewartTrinkleLcp& lcp,
                                                  double tolerance, SparseNewtonReport& report) {
  start(problem, lcp);
  if (!z.isZero(0)) return false;   // an impulse guessed: stage 1 starts from it
  const SparseRows& J = stack_stewart_trinkle_rows(problem, lcp);
  assemble_q(problem, lcp, J);
  const int ng = lcp.ng, nu = ng + lcp.nl, k = lcp.k;
  for (int i = 0; i < nu; ++i)
    if (!(q[i] >= 0)) return false;
  index_systems(problem, system_of_column);
  double a = 0;
  Eigen::VectorXd x;
  for (int g = 0; g < ng; ++g) {
    systems_of_row(J, g, system_of_column, touched);
    for (int b : touched) {   // n_b M_b⁻¹ n_bᵀ = ‖L_b⁻¹ n_bᵀ‖²
      row_on_system(J, g, problem.systems[b], x);
      problem.systems[b].M_llt->matrixL().solveInPlace(x);
      a += x.squaredNorm();
    }
  }
  a = ng > 0 ? a / ng : 1.0;
  if (!(a > 0) || !std::isfinite(a)) a = 1.0;
  lcp.balance = a;
  w = q;
  for (int f = 0; f < lcp.nf; ++f) {
    const double speed = -w.segment(lcp.offset_F + f * k, k).minCoeff() / a;
    if (!(speed > 0)) continue;
    z[lcp.offset_lambda + f] = speed;
    w.segment(lcp.offset_F + f * k, k).array() += a * speed;
  }
  report.residual = certificate_rho(q, z, w, (w - q).lpNorm<Eigen::Infinity>());
  report.certified = report.residual <= tolerance;
  return report.certified;
}

// The previous step's impulses in the layout of z (as ST10's guess): p_N, p_L, and (p_S, p_T) split onto
// the two pyramid edges whose cone holds it; λ̂ from the sliding speed the guess implies is unknown, 0.
void StewartTrinkleSparseNewton::start(const ContactProblem& problem, const StewartTrinkleLcp& lcp) {
  const int nc = problem.nc, k = lcp.k;
  z.setZero(lcp.size);
  const bool has_N = problem.p_N_guess.size() == nc, has_F = has_N && problem.p_S_guess.size() == nc &&
                                                             problem.p_T_guess.size() == nc;
  if (problem.p_L_guess.size() == lcp.nl) z.segment(lcp.offset_L, lcp.nl) = problem.p_L_guess.cwiseMax(0.0);
  if (!has_N) return;
  guess_s.setZero(lcp.ng);
  guess_t.setZero(lcp.ng);
  for (int c = 0; c < nc; ++c) {
    const int g = lcp.group[c];
    z[g] += std::max(problem.p_N_guess[c], 0.0);
    if (has_F) {
      guess_s[g] += problem.p_S_guess[c];
      guess_t[g] += problem.p_T_guess[c];
    }
  }
  const double sector = 2 * M_PI / k;
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f];
    if (guess_s[g] == 0 && guess_t[g] == 0) continue;
    double angle = std::atan2(guess_t[g], guess_s[g]);
    if (angle < 0) angle += 2 * M_PI;
    const int j = std::min(static_cast<int>(angle / sector), k - 1), j1 = (j + 1) % k;
    const double det = lcp.cos_edge[j] * lcp.sin_edge[j1] - lcp.sin_edge[j] * lcp.cos_edge[j1];
    z[lcp.offset_F + f * k + j] = std::max((guess_s[g] * lcp.sin_edge[j1] - guess_t[g] * lcp.cos_edge[j1]) / det, 0.0);
    z[lcp.offset_F + f * k + j1] = std::max((lcp.cos_edge[j] * guess_t[g] - lcp.sin_edge[j] * guess_s[g]) / det, 0.0);
  }
}

SparseNewtonReport StewartTrinkleSparseNewton::solve(const ContactProblem& problem, StewartTrinkleLcp& lcp,
                                                     double tolerance, int max_iterations, int newton_size,
                                                     Eigen::Ref<Eigen::VectorXd> z_out) {
  SparseNewtonReport report;
  if (solve_separating(problem, lcp, tolerance, report)) {
    z_out = z;
    return report;
  }
  assemble(problem, lcp);
  start(problem, lcp);
  const int n = lcp.size;
  const double a = lcp.balance;
  report = SparseNewtonReport{};
  const auto certificate = [&](const Eigen::VectorXd& zz, const Eigen::VectorXd& ww) {
    return certificate_rho(q, zz, ww, (ww - q).lpNorm<Eigen::Infinity>());
  };

  // Values of H = D_α a + D_β A on its fixed pattern: row i of A scaled by β_i, plus α_i a on the diagonal.
  Eigen::VectorXd alpha(n), beta(n);
  const auto jacobian = [&]() {
    for (int i = 0; i < n; ++i) phi[i] = fischer_burmeister(a * z[i], w[i], alpha[i], beta[i]);
    std::fill(H.valuePtr(), H.valuePtr() + H.nonZeros(), 0.0);
    for (int c = 0; c < n; ++c) {
      SparseCols::InnerIterator h(H, c);
      for (SparseCols::InnerIterator it(A, c); it; ++it) {
        while (h.row() != it.row()) ++h;
        h.valueRef() = beta[it.row()] * it.value();
      }
    }
    for (int i = 0; i < n; ++i) H.valuePtr()[diagonal[i]] += alpha[i] * a;
  };
  const auto merit = [&](const Eigen::VectorXd& zz, Eigen::VectorXd& ww, Eigen::VectorXd& ph) {
    ww.noalias() = A * zz;
    ww += q;
    ph.resize(n);
    double unused_a, unused_b;
    for (int i = 0; i < n; ++i) ph[i] = fischer_burmeister(a * zz[i], ww[i], unused_a, unused_b);
    return 0.5 * ph.squaredNorm();
  };

  // Stage 1, active sets: w_B = 0 with z_N = 0 on a guessed basis B, B updated by the signs of z_B and w_N
  // (the semismooth Newton step of min(z, w) at full length: at rest the previous step's B is the answer
  // and one sparse solve certifies it, as ST10 does densely).
  std::vector<char> in_B(n, 0), next(n, 0);
  const int k = lcp.k;
  for (int i = 0; i < lcp.offset_lambda; ++i) in_B[i] = z[i] > 0;
  for (int f = 0; f < lcp.nf; ++f) {
    const int g = lcp.friction_group[f];
    const double friction = z.segment(lcp.offset_F + f * k, k).sum();
    in_B[lcp.offset_lambda + f] = z[g] > 0 && friction > 0 && lcp.mu[f] * z[g] - friction <= tolerance * z[g];
  }
  std::vector<int> position(n, -1), basis;
  Eigen::VectorXd best_z = z;
  double best_rho = std::numeric_limits<double>::infinity();
  visited.clear();
  int fewest_changes = std::numeric_limits<int>::max(), since_fewest = 0;
  for (int round = 0; round < max_iterations; ++round) {
    basis.clear();
    std::uint64_t signature = 1469598103934665603ull;   // FNV-1a of B, to recognise a repeated basis
    for (int i = 0; i < n; ++i) {
      position[i] = in_B[i] ? static_cast<int>(basis.size()) : -1;
      if (in_B[i]) {
        basis.push_back(i);
        signature = (signature ^ static_cast<std::uint64_t>(i)) * 1099511628211ull;
      }
    }
    if (std::find(visited.begin(), visited.end(), signature) != visited.end()) {
      report.basis_stop = "a repeated basis";
      break;
    }
    visited.push_back(signature);
    const int nb = static_cast<int>(basis.size());
    z.setZero(n);
    if (nb > 0) {
      triplets.clear();
      for (int c : basis)
        for (SparseCols::InnerIterator it(A, c); it; ++it)
          if (position[it.row()] >= 0) triplets.emplace_back(position[it.row()], position[c], it.value());
      A_BB.resize(nb, nb);
      A_BB.setFromTriplets(triplets.begin(), triplets.end());
      rhs.resize(nb);
      for (int r = 0; r < nb; ++r) rhs[r] = -q[basis[r]];
      basis_lu.compute(A_BB);
      ++report.iterations;
      if (basis_lu.info() != Eigen::Success) {
        report.basis_stop = "a singular basis";
        break;
      }
      d = basis_lu.solve(rhs);
      if (!d.allFinite()) {
        report.basis_stop = "a singular basis";
        break;
      }
      for (int r = 0; r < nb; ++r) z[basis[r]] = d[r];
    }
    w.noalias() = A * z;
    w += q;
    // An unloaded group's λ̂ is its sliding speed (ST11's extension): w_F ≥ 0 with p = 0.
    for (int f = 0; f < lcp.nf; ++f) {
      const int g = lcp.friction_group[f], l = lcp.offset_lambda + f;
      if (in_B[g] || in_B[l]) continue;
      const double speed = -w.segment(lcp.offset_F + f * k, k).minCoeff() / a;
      if (!(speed > 0)) continue;
      z[l] = speed;
      w.segment(lcp.offset_F + f * k, k).array() += a * speed;
    }
    const double rho = certificate(z, w);
    if (rho < best_rho) {
      best_rho = rho;
      best_z = z;
    }
    if (rho <= tolerance) break;
    int changes = 0;
    for (int i = 0; i < n; ++i) {
      next[i] = in_B[i] ? z[i] > 0 : w[i] < 0;
      if (i >= lcp.offset_F && i < lcp.offset_lambda && !in_B[i] && next[i]) {
        const int g = lcp.friction_group[(i - lcp.offset_F) / k];
        if (!(in_B[g] && z[g] > 0)) next[i] = 0;   // no friction without a normal impulse: λ̂ above
      }
      changes += next[i] != in_B[i];
    }
    if (changes == 0) break;
    if (changes < kChangeRatio * fewest_changes) {
      fewest_changes = changes;
      since_fewest = 0;
    } else if (++since_fewest >= kChangeWindow) {
      report.basis_stop = "no progress of the active sets";
      break;
    }
    in_B.swap(next);
  }
  z = best_z;

  double psi = merit(z, w, phi);
  report.residual = certificate(z, w);
  bool analysed = false;
  std::vector<double> history;
  while (report.residual > tolerance) {
    if (n > newton_size) {
      report.stop = "no Newton step above newton_size";
      break;
    }
    if (report.iterations >= max_iterations) {
      report.stop = "iteration budget spent";
      break;
    }
    jacobian();
    if (!analysed) {
      lu.analyzePattern(H);
      analysed = true;
    }
    lu.factorize(H);
    if (lu.info() != Eigen::Success) {
      double largest = 0;
      for (int i = 0; i < n; ++i) largest = std::max(largest, std::abs(H.valuePtr()[diagonal[i]]));
      for (int i = 0; i < n; ++i) H.valuePtr()[diagonal[i]] += kSingularShift * std::max(largest, a);
      lu.factorize(H);
      if (lu.info() != Eigen::Success) {
        report.stop = "singular Newton matrix";
        break;
      }
    }
    d = lu.solve(-phi);
    ++report.iterations;
    if (!d.allFinite()) {
      report.stop = "non-finite Newton step";
      break;
    }
    double t = 1;
    bool accepted = false;
    while (t >= kMinStep) {
      trial_z = z + t * d;
      const double trial_psi = merit(trial_z, trial_w, trial_phi);
      if (trial_psi <= (1 - 2 * kArmijo * t) * psi) {
        z.swap(trial_z);
        w.swap(trial_w);
        phi.swap(trial_phi);
        psi = trial_psi;
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) {
      report.stop = "line search failed";
      break;
    }
    report.residual = certificate(z, w);
    history.push_back(psi);
    const int h = static_cast<int>(history.size());
    if (h > kStallWindow && history[h - 1] > kStallRatio * history[h - 1 - kStallWindow]) {
      report.stop = "stalled";
      break;
    }
  }
  report.certified = report.residual <= tolerance;
  if (report.certified) report.stop = "";
  z_out = z;
  return report;
}

}  // namespace impetus
