// The interior point's Newton matrices K̃ (interior_point_kkt.hpp IP5–IP6), taken from real pile programs,
// factored by our supernodal LDLᵀ (quasidefinite_ldlt.hpp), Eigen's SimplicialLDLT and CHOLMOD. Not a test.
//
//   bench_kkt_factorization DUMP.icp... [Google Benchmark flags, e.g. --benchmark_filter=factor]
//
// Each dump (`impetus run … --dump-problems DIR`, contact/dump/) is solved once by max_dissipation with its
// dumped options and a KktObserver (interior_point.hpp) on its largest island; of each phase's solve the
// first K̃ (the initial point's, W = I) and the last (the scaling near the optimum, W² spread ~10²⁰) are kept.
// Phase I's K̃ (MD2) has bound rows only; phase II's (MD4–MD5) has the cones and the budget's dense row.
//
// Solvers, each timed in its three stages (analyse = ordering + symbolic, factor, solve of one right-hand side):
//   ours              QuasidefiniteLdlt on K̃ with the interior point's signs σ and rows `last`: AMD, postorder,
//                     supernodes (analyse); multifrontal LDLᵀ with (QD1) (factor).
//   eigen_P           Eigen::SimplicialLDLT (up-looking, no pivoting) on P K̃ Pᵀ with our P (NaturalOrdering), so
//                     the fill is ours; it knows no expected sign: the −δ_s I and −W² blocks give negative pivots,
//                     which an LDLᵀ without pivoting takes as they come, and only an exact zero fails.
//   eigen_amd         the same with Eigen's AMD on K̃ (budget rows not held back).
//   cholmod_ldl_P     CHOLMOD simplicial LDLᵀ (cholmod_l_analyze_p, CHOLMOD_GIVEN = our P, final_ll false): also no
//                     pivoting and no expected sign, valid on a quasi-definite K̃ (quasidefinite_ldlt.hpp [VD]; it stops only at a zero D).
//   cholmod_ldl_amd   the same with CHOLMOD's AMD.
//   cholmod_super_P   CHOLMOD supernodal with our P: LLᵀ only (CHOLMOD has no supernodal LDLᵀ), so on K̃ it stops
//                     at the first negative pivot (reported as an error). Its kernels are compared with ours on
//                     spd(K̃): |K̃| with a dominant diagonal, K̃'s pattern, the same fill and flops, where both apply.
// Every answer is checked by its componentwise backward error (residual() below), b fixed pseudo-random, before
// the timings (a table), and as the counter `residual` of each solve benchmark.
//
// Built only where CHOLMOD is found (Debian's libsuitesparse-dev; tools/CMakeLists.txt):
//   ninja -C BUILD bench_kkt_factorization && BUILD/bench/bench_kkt_factorization DUMPS...
#include <benchmark/benchmark.h>
#include <cholmod.h>

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "contact/dump/problem_dump.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/solvers/quasidefinite_ldlt.hpp"

namespace impetus {
namespace {

using Matrix = Eigen::SparseMatrix<double>;

/// One captured K̃ with what its factorization needs.
struct Kkt {
  std::string label;
  Matrix K;                          // lower triangle
  std::vector<signed char> sign;     // σ: +1 on p, −1 on y and z
  std::vector<char> last;            // rows eliminated last (the budgets)
  Eigen::VectorXd b;                 // right-hand side of the checks and of the timed solves
};

/// Keeps the first and the last K̃ of each phase (phase II: the program with a budget row).
class Capture final : public KktObserver {
 public:
  void factored(const InteriorPointKkt& kkt) override {
    Phase& ph = phase_[kkt.layout().nbud > 0 ? 1 : 0];
    Kkt& slot = ph.count == 0 ? ph.first : ph.last;
    slot.K = kkt.matrix();
    slot.sign = kkt.signs();
    slot.last = kkt.last_rows();
    ++ph.count;
  }
  struct Phase {
    Kkt first, last;
    int count = 0;
  };
  Phase phase_[2];
};

/// |K̃| with every diagonal entry raised to its row's absolute sum + 1: SPD, K̃'s pattern.
Matrix spd_of(const Matrix& K) {
  Matrix A = K.cwiseAbs();
  Eigen::VectorXd row_sum = Eigen::VectorXd::Ones(K.rows());
  for (int j = 0; j < A.outerSize(); ++j)
    for (Matrix::InnerIterator it(A, j); it; ++it)
      if (it.row() != j) {
        row_sum[it.row()] += it.value();
        row_sum[j] += it.value();
      }
  for (int j = 0; j < A.outerSize(); ++j) A.coeffRef(j, j) = row_sum[j];
  return A;
}

/// Componentwise backward error (Oettli–Prager) of x for K̃x = b: max_i |K̃x − b|_i / (|K̃||x| + |b|)_i, the
/// smallest relative change of K̃'s entries and b's that makes x exact. Normwise measures say little here:
/// ‖K̃‖∞ is W²'s largest entry, up to 10²⁰ times the smallest near the optimum.
double residual(const Matrix& K, const Eigen::VectorXd& x, const Eigen::VectorXd& b) {
  const Eigen::VectorXd r = K.selfadjointView<Eigen::Lower>() * x - b;
  Eigen::VectorXd scale = b.cwiseAbs();
  for (int j = 0; j < K.outerSize(); ++j)
    for (Matrix::InnerIterator it(K, j); it; ++it) {
      scale[it.row()] += std::abs(it.value() * x[j]);
      if (it.row() != j) scale[j] += std::abs(it.value() * x[it.row()]);
    }
  double omega = 0;
  for (int i = 0; i < r.size(); ++i)
    if (scale[i] > 0) omega = std::max(omega, std::abs(r[i]) / scale[i]);
  return omega;
}

/// Rounds of iterative refinement on K̃ itself, as the interior point refines every Newton solve (it does so on the
/// unregularized IP3, interior_point_kkt.hpp; here K̃ is the system): x ← x + K̃⁻¹(b − K̃x).
constexpr int kRefinements = 2;

template <class Solve>
void refine(const Matrix& K, const Eigen::VectorXd& b, Eigen::VectorXd& x, Solve&& solve) {
  for (int round = 0; round < kRefinements; ++round) {
    Eigen::VectorXd r = b - K.selfadjointView<Eigen::Lower>() * x;
    solve(r);
    x += r;
  }
}

/// The interior point's (QD1) constants (interior_point_kkt.cpp), in its scaled units.
constexpr double kDynamicEpsilon = 1e-13, kDynamicDelta = 2e-7;

// ---- ours ------------------------------------------------------------------------------------------

struct Ours {
  QuasidefiniteLdlt ldlt;
  void analyse(const Kkt& k) { ldlt.analyse(k.K, k.last); }
  bool factor(const Kkt& k) { return ldlt.factor(k.K, k.sign, kDynamicEpsilon, kDynamicDelta); }
  void solve(Eigen::VectorXd& x) const { ldlt.solve_in_place(x); }
  long factor_nonzeros() const { return ldlt.factor_nonzeros(); }
};

/// P K̃ Pᵀ's lower triangle for our P (new index of each old index).
Matrix permuted(const Matrix& K, const std::vector<int>& perm) {
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(static_cast<int>(perm.size()));
  for (std::size_t i = 0; i < perm.size(); ++i) P.indices()[i] = perm[i];
  Matrix out(K.rows(), K.cols());
  out.selfadjointView<Eigen::Lower>() = K.selfadjointView<Eigen::Lower>().twistedBy(P);
  return out;
}

// ---- CHOLMOD -----------------------------------------------------------------------------------------

enum class CholmodKind { LdlGiven, LdlAmd, SupernodalGiven };

/// cholmod_l_* on one matrix: its copy in CHOLMOD's form, the factor and the solve's reused workspace.
class Cholmod {
 public:
  Cholmod(const Matrix& K, CholmodKind kind, const std::vector<int>& perm) : kind_(kind) {
    cholmod_l_start(&c_);
    c_.print = 0;
    c_.error_handler = nullptr;
    c_.supernodal = kind == CholmodKind::SupernodalGiven ? CHOLMOD_SUPERNODAL : CHOLMOD_SIMPLICIAL;
    c_.final_ll = 0;   // simplicial: LDLᵀ
    c_.nmethods = 1;
    c_.method[0].ordering = kind == CholmodKind::LdlAmd ? CHOLMOD_AMD : CHOLMOD_GIVEN;
    c_.postorder = 1;
    const long n = K.rows(), nnz = K.nonZeros();
    A_ = cholmod_l_allocate_sparse(n, n, nnz, 1, 1, -1, CHOLMOD_REAL, &c_);   // stype −1: lower triangle
    auto* Ap = static_cast<SuiteSparse_long*>(A_->p);
    auto* Ai = static_cast<SuiteSparse_long*>(A_->i);
    auto* Ax = static_cast<double*>(A_->x);
    for (long j = 0; j <= n; ++j) Ap[j] = K.outerIndexPtr()[j];
    for (long q = 0; q < nnz; ++q) {
      Ai[q] = K.innerIndexPtr()[q];
      Ax[q] = K.valuePtr()[q];
    }
    given_.resize(n);   // CHOLMOD's Perm: old index of each new index
    if (!perm.empty())
      for (long i = 0; i < n; ++i) given_[perm[i]] = i;
    B_ = cholmod_l_zeros(n, 1, CHOLMOD_REAL, &c_);
  }
  ~Cholmod() {
    if (L_) cholmod_l_free_factor(&L_, &c_);
    for (cholmod_dense** d : {&B_, &X_, &Y_, &E_})
      if (*d) cholmod_l_free_dense(d, &c_);
    cholmod_l_free_sparse(&A_, &c_);
    cholmod_l_finish(&c_);
  }
  Cholmod(const Cholmod&) = delete;
  Cholmod& operator=(const Cholmod&) = delete;

  void analyse() {
    if (L_) cholmod_l_free_factor(&L_, &c_);
    L_ = cholmod_l_analyze_p(A_, kind_ == CholmodKind::LdlAmd ? nullptr : given_.data(), nullptr, 0, &c_);
  }
  /// False, and why in `error`, when CHOLMOD stops short (a zero pivot; a non-positive one for LLᵀ).
  bool factor(std::string& error) {
    cholmod_l_factorize(A_, L_, &c_);
    if (c_.status == CHOLMOD_OK && L_->minor == L_->n) return true;
    error = "CHOLMOD status " + std::to_string(c_.status) + ": stopped at column " + std::to_string(L_->minor) +
            " of " + std::to_string(L_->n) + (c_.status == CHOLMOD_NOT_POSDEF ? " (not positive definite)" : "");
    return false;
  }
  void solve(Eigen::VectorXd& x) {
    std::copy(x.data(), x.data() + x.size(), static_cast<double*>(B_->x));
    cholmod_l_solve2(CHOLMOD_A, L_, B_, nullptr, &X_, nullptr, &Y_, &E_, &c_);
    std::copy(static_cast<double*>(X_->x), static_cast<double*>(X_->x) + x.size(), x.data());
  }
  /// Entries of L (with D on its diagonal for LDLᵀ), as CHOLMOD stores them.
  long factor_nonzeros() const {
    if (L_->is_super) return static_cast<long>(L_->xsize);
    const auto* nz = static_cast<const SuiteSparse_long*>(L_->nz);
    long total = 0;
    for (std::size_t j = 0; j < L_->n; ++j) total += nz[j];
    return total;
  }

 private:
  CholmodKind kind_;
  cholmod_common c_{};
  cholmod_sparse* A_ = nullptr;
  cholmod_factor* L_ = nullptr;
  cholmod_dense *B_ = nullptr, *X_ = nullptr, *Y_ = nullptr, *E_ = nullptr;
  std::vector<SuiteSparse_long> given_;
};

// ---- the matrices and the benchmarks -----------------------------------------------------------------

std::vector<std::unique_ptr<Kkt>> g_kkts;

/// The largest island of the dump, solved with the capture; its captured matrices into g_kkts.
void capture(const std::string& file) {
  const ProblemDump dump = read_problem_dump(file);
  if (dump.model != "max_dissipation") {
    std::fprintf(stderr, "%s: dumped under %s, not max_dissipation: skipped\n", file.c_str(), dump.model.c_str());
    return;
  }
  if (dump.problems.empty()) return;
  std::size_t largest = 0;
  for (std::size_t k = 1; k < dump.problems.size(); ++k)
    if (dump.problems[k]->problem.nc > dump.problems[largest]->problem.nc) largest = k;
  Capture seen;
  MaxDissipationOptions options = MaxDissipationOptions::parse(dump.options);
  options.kkt_observer = &seen;
  const MaxDissipationModel model(options);
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  ContactResult result;
  const ContactProblem& problem = dump.problems[largest]->problem;
  model.solve(problem, result, *workspace);
  const MaxDissipationReport& r = result.report_as<MaxDissipationReport>();
  const std::string name = std::filesystem::path(file).stem().string();
  std::printf("# %s: island %zu of %zu, nv %d, nc %d; phase I %d iterations%s, phase II %d%s; factorizations %d, %d\n",
              file.c_str(), largest, dump.problems.size(), problem.nv, problem.nc, r.phase_one_iterations,
              r.phase_one_certified ? " (certified)" : "", r.phase_two_iterations,
              r.phase_two_certified ? " (certified)" : "", seen.phase_[0].count, seen.phase_[1].count);
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int ph = 0; ph < 2; ++ph)
    for (int which = 0; which < 2; ++which) {
      const Capture::Phase& p = seen.phase_[ph];
      if (p.count <= which) continue;
      auto k = std::make_unique<Kkt>(which == 0 ? p.first : p.last);
      k->label = name + (ph == 0 ? "/I" : "/II") + (which == 0 ? "/first" : "/last");
      k->b = Eigen::VectorXd::NullaryExpr(k->K.rows(), [&] { return u(rng); });
      g_kkts.push_back(std::move(k));
    }
}

/// Analyse, factor and solve once by every method; a table of sizes, fill and backward errors (of the solve, and
/// after kRefinements rounds of refinement).
void check_all() {
  std::printf("# %-28s %7s %8s | %-15s %9s %3s %10s %10s  %s\n", "matrix", "n", "nnz(K)", "method", "nnz(L)", "reg",
              "residual", "refined", "status");
  for (const auto& kp : g_kkts) {
    const Kkt& k = *kp;
    // One row: x = K̃⁻¹b by `solve`, its backward error, and that after refinement with the same solve.
    auto line = [&](const Kkt& m, const char* method, long fill, int reg, const std::string& status,
                    const std::function<void(Eigen::VectorXd&)>& solve) {
      double res = NAN, refined = NAN;
      if (status == "ok") {
        Eigen::VectorXd x = m.b;
        solve(x);
        res = residual(m.K, x, m.b);
        refine(m.K, m.b, x, solve);
        refined = residual(m.K, x, m.b);
      }
      std::printf("  %-28s %7ld %8ld | %-15s %9ld %3d %10.2e %10.2e  %s\n", m.label.c_str(),
                  static_cast<long>(m.K.rows()), static_cast<long>(m.K.nonZeros()), method, fill, reg, res, refined,
                  status.c_str());
    };
    Ours ours;
    ours.analyse(k);
    const bool ok = ours.factor(k);
    line(k, "ours", ours.factor_nonzeros(), ours.ldlt.regularized_pivots(), ok ? "ok" : "non-finite pivot",
         [&](Eigen::VectorXd& x) { ours.solve(x); });
    const std::vector<int> perm = ours.ldlt.permutation();
    {
      const Matrix Kp = permuted(k.K, perm);
      Eigen::SimplicialLDLT<Matrix, Eigen::Lower, Eigen::NaturalOrdering<int>> eig(Kp);
      line(k, "eigen_P", eig.matrixL().nestedExpression().nonZeros(), 0,
           eig.info() == Eigen::Success ? "ok" : "zero pivot", [&](Eigen::VectorXd& x) {
             Eigen::VectorXd xp(x.size());
             for (int i = 0; i < x.size(); ++i) xp[perm[i]] = x[i];
             xp = eig.solve(xp);
             for (int i = 0; i < x.size(); ++i) x[i] = xp[perm[i]];
           });
    }
    {
      Eigen::SimplicialLDLT<Matrix, Eigen::Lower, Eigen::AMDOrdering<int>> eig(k.K);
      line(k, "eigen_amd", eig.matrixL().nestedExpression().nonZeros(), 0,
           eig.info() == Eigen::Success ? "ok" : "zero pivot", [&](Eigen::VectorXd& x) { x = eig.solve(x).eval(); });
    }
    for (CholmodKind kind : {CholmodKind::LdlGiven, CholmodKind::LdlAmd, CholmodKind::SupernodalGiven}) {
      Cholmod ch(k.K, kind, perm);
      ch.analyse();
      std::string error;
      const bool factored = ch.factor(error);
      const char* name = kind == CholmodKind::LdlGiven  ? "cholmod_ldl_P"
                         : kind == CholmodKind::LdlAmd ? "cholmod_ldl_amd"
                                                       : "cholmod_super_P";
      line(k, name, ch.factor_nonzeros(), 0, factored ? "ok" : error, [&](Eigen::VectorXd& x) { ch.solve(x); });
    }
    {   // spd(K̃): ours (every σ = +1) and CHOLMOD supernodal, same P
      const Kkt s{k.label, spd_of(k.K), std::vector<signed char>(k.sign.size(), 1), k.last, k.b};
      Ours o;
      o.analyse(s);
      const bool spd_ok = o.factor(s);
      line(s, "spd: ours", o.factor_nonzeros(), o.ldlt.regularized_pivots(), spd_ok ? "ok" : "non-finite pivot",
           [&](Eigen::VectorXd& x) { o.solve(x); });
      Cholmod ch(s.K, CholmodKind::SupernodalGiven, perm);
      ch.analyse();
      std::string error;
      const bool factored = ch.factor(error);
      line(s, "spd: cm_super_P", ch.factor_nonzeros(), 0, factored ? "ok" : error,
           [&](Eigen::VectorXd& x) { ch.solve(x); });
    }
  }
  std::fflush(stdout);
}

enum class Stage { Analyse, Factor, Solve };
const char* stage_name(Stage s) { return s == Stage::Analyse ? "analyse" : s == Stage::Factor ? "factor" : "solve"; }

void bench_ours(benchmark::State& state, const Kkt* k, Stage stage) {
  Ours ours;
  ours.analyse(*k);
  ours.factor(*k);
  Eigen::VectorXd x(k->b.size());
  for (auto _ : state) {
    if (stage == Stage::Analyse) ours.analyse(*k);
    if (stage == Stage::Factor) ours.factor(*k);
    if (stage == Stage::Solve) {
      x = k->b;
      ours.solve(x);
    }
    benchmark::ClobberMemory();
  }
  state.counters["n"] = static_cast<double>(k->K.rows());
  state.counters["nnzL"] = static_cast<double>(ours.factor_nonzeros());
  if (stage == Stage::Solve) state.counters["residual"] = residual(k->K, x, k->b);
}

template <class Ordering>
void bench_eigen(benchmark::State& state, const Kkt* k, Stage stage) {
  // With NaturalOrdering the matrix is P K̃ Pᵀ for our P (permuting K̃'s values each step is not timed).
  constexpr bool given = std::is_same_v<Ordering, Eigen::NaturalOrdering<int>>;
  Ours ours;
  ours.analyse(*k);
  const std::vector<int>& perm = ours.ldlt.permutation();
  const Matrix A = given ? permuted(k->K, perm) : k->K;
  Eigen::VectorXd b = k->b;
  if (given)
    for (int i = 0; i < b.size(); ++i) b[perm[i]] = k->b[i];
  Eigen::SimplicialLDLT<Matrix, Eigen::Lower, Ordering> eig;
  eig.analyzePattern(A);
  eig.factorize(A);
  if (eig.info() != Eigen::Success) state.SkipWithError("SimplicialLDLT: zero pivot");
  Eigen::VectorXd x(b.size());
  for (auto _ : state) {
    if (stage == Stage::Analyse) eig.analyzePattern(A);
    if (stage == Stage::Factor) eig.factorize(A);
    if (stage == Stage::Solve) x = eig.solve(b);
    benchmark::ClobberMemory();
  }
  state.counters["n"] = static_cast<double>(A.rows());
  state.counters["nnzL"] = static_cast<double>(eig.matrixL().nestedExpression().nonZeros());
  if (stage == Stage::Solve) {
    Eigen::VectorXd xo(x.size());
    for (int i = 0; i < x.size(); ++i) xo[i] = given ? x[perm[i]] : x[i];
    state.counters["residual"] = residual(k->K, xo, k->b);
  }
}

void bench_cholmod(benchmark::State& state, const Kkt* k, Stage stage, CholmodKind kind) {
  Ours ours;
  ours.analyse(*k);
  Cholmod ch(k->K, kind, ours.ldlt.permutation());
  ch.analyse();
  std::string error;
  if (!ch.factor(error)) {
    state.SkipWithError(error.c_str());
    for (auto _ : state) {
    }
    return;
  }
  Eigen::VectorXd x(k->b.size());
  for (auto _ : state) {
    if (stage == Stage::Analyse) ch.analyse();
    if (stage == Stage::Factor) ch.factor(error);
    if (stage == Stage::Solve) {
      x = k->b;
      ch.solve(x);
    }
    benchmark::ClobberMemory();
  }
  if (stage == Stage::Analyse) ch.factor(error);   // the analysis alone leaves a symbolic factor
  state.counters["n"] = static_cast<double>(k->K.rows());
  state.counters["nnzL"] = static_cast<double>(ch.factor_nonzeros());
  if (stage == Stage::Solve) state.counters["residual"] = residual(k->K, x, k->b);
}

std::vector<std::unique_ptr<Kkt>> g_spd;   // spd(K̃) of each captured K̃

void register_all() {
  for (const auto& kp : g_kkts) {
    const Kkt* k = kp.get();
    g_spd.push_back(std::make_unique<Kkt>(
        Kkt{k->label, spd_of(k->K), std::vector<signed char>(k->sign.size(), 1), k->last, k->b}));
    const Kkt* s = g_spd.back().get();
    for (Stage st : {Stage::Analyse, Stage::Factor, Stage::Solve}) {
      const std::string tail = k->label + "/" + stage_name(st);
      benchmark::RegisterBenchmark(("ours/" + tail).c_str(), bench_ours, k, st)->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("eigen_P/" + tail).c_str(), bench_eigen<Eigen::NaturalOrdering<int>>, k, st)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("eigen_amd/" + tail).c_str(), bench_eigen<Eigen::AMDOrdering<int>>, k, st)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("cholmod_ldl_P/" + tail).c_str(), bench_cholmod, k, st, CholmodKind::LdlGiven)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("cholmod_ldl_amd/" + tail).c_str(), bench_cholmod, k, st, CholmodKind::LdlAmd)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("spd_ours/" + tail).c_str(), bench_ours, s, st)->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("spd_cholmod_super_P/" + tail).c_str(), bench_cholmod, s, st,
                                   CholmodKind::SupernodalGiven)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace impetus

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);   // leaves the dump files in argv
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DUMP.icp... [benchmark flags]\n", argv[0]);
    return 1;
  }
  try {
    for (int i = 1; i < argc; ++i) impetus::capture(argv[i]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  impetus::check_all();
  impetus::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
