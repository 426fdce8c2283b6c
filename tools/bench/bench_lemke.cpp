// Lemke's time per solve against the number of contacts, on Stewart–Trinkle problems (k = 4).
//
//   spheres/n  n spheres (r = 0.1 m, 1 kg) resting on the ground, one contact each, with random
//              tangential velocities of 0 … 2·μ g dt (half of them stick, half slide): n independent
//              6-DoF blocks, the shape of a pile of objects on a table.
//   box/n      one 1 kg box (0.4 m side) resting on the ground on n coplanar contact points on a grid
//              under it (a contact manifold): one 6-DoF block, N W Nᵀ of rank 3, the degenerate case.
//
// Lemke/* times LemkeSolver::solve on the assembled LCP (ST6); StewartTrinkleModel/* times the whole model
// (assembly, Delassus, Lemke, recovery of v⁺). Counters: LCP size, pivots, attempts.
//
//   ninja -C BUILD bench_lemke && BUILD/bench/bench_lemke
#include <benchmark/benchmark.h>

#include <cmath>
#include <deque>
#include <random>

#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {
namespace {

constexpr double kDt = 1e-3, kG = 9.81, kMu = 0.5;

/// A ContactProblem with the inertia blocks it points to.
struct Scene {
  std::deque<Eigen::MatrixXd> M;
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt;
  ContactProblem problem;
};

/// [dᵀ, (r × d)ᵀ] at column `offset`: a row along d at point r of a body with v = (v_W, ω_W).
void add_row(std::vector<Eigen::Triplet<double>>& t, int row, int offset, const Eigen::Vector3d& r,
             const Eigen::Vector3d& d) {
  const Eigen::Vector3d m = r.cross(d);
  for (int i = 0; i < 3; ++i) {
    if (d[i] != 0) t.emplace_back(row, offset + i, d[i]);
    if (m[i] != 0) t.emplace_back(row, offset + 3 + i, m[i]);
  }
}

void finish(Scene& s, int nc, const std::vector<Eigen::Triplet<double>> (&rows)[3]) {
  ContactProblem& p = s.problem;
  p.dt = kDt;
  p.nc = nc;
  SparseRows* targets[3] = {&p.N, &p.S, &p.T};
  for (int i = 0; i < 3; ++i) {
    targets[i]->resize(nc, p.nv);
    targets[i]->setFromTriplets(rows[i].begin(), rows[i].end());
  }
  p.phi.setZero(nc);
  p.mu.setConstant(nc, kMu);
  p.mu_viscous.setZero(nc);
  p.keys.assign(nc, ContactKey{});
  p.L.resize(0, p.nv);
  p.phi_L.resize(0);
}

void spheres(int n, Scene& s) {
  const double m = 1.0, r = 0.1, I = 0.4 * m * r * r;
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> speed(0, 2 * kMu * kG * kDt), angle(0, 2 * M_PI);
  ContactProblem& p = s.problem;
  p.nv = 6 * n;
  p.v.setZero(p.nv);
  std::vector<Eigen::Triplet<double>> rows[3];
  for (int i = 0; i < n; ++i) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Identity(6, 6) * m;
    M.bottomRightCorner(3, 3) *= I / m;
    s.M.push_back(M);
    s.llt.emplace_back(s.M.back());
    p.systems.push_back({6 * i, 6, &s.M.back(), &s.llt.back()});
    const double u = speed(rng), a = angle(rng);
    p.v.segment<3>(6 * i) << u * std::cos(a), u * std::sin(a), 0;
    const Eigen::Vector3d below(0, 0, -r);
    add_row(rows[0], i, 6 * i, below, Eigen::Vector3d::UnitZ());
    add_row(rows[1], i, 6 * i, below, Eigen::Vector3d::UnitX());
    add_row(rows[2], i, 6 * i, below, Eigen::Vector3d::UnitY());
  }
  p.v_star = p.v;
  for (int i = 0; i < n; ++i) p.v_star[6 * i + 2] -= kG * kDt;
  finish(s, n, rows);
}

void box(int n, Scene& s) {
  const double m = 1.0, h = 0.2, I = m * (2 * h) * (2 * h) / 6;
  ContactProblem& p = s.problem;
  p.nv = 6;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(6, 6) * m;
  M.bottomRightCorner(3, 3) *= I / m;
  s.M.push_back(M);
  s.llt.emplace_back(s.M.back());
  p.systems.push_back({0, 6, &s.M.back(), &s.llt.back()});
  p.v.setZero(6);
  p.v_star = p.v;
  p.v_star[2] -= kG * kDt;
  std::vector<Eigen::Triplet<double>> rows[3];
  const int side = static_cast<int>(std::ceil(std::sqrt(n)));
  for (int i = 0; i < n; ++i) {
    const double x = side == 1 ? 0 : -h + 2 * h * (i % side) / (side - 1);
    const double y = side == 1 ? 0 : -h + 2 * h * (i / side) / (side - 1);
    const Eigen::Vector3d r(x, y, -h);
    add_row(rows[0], i, 0, r, Eigen::Vector3d::UnitZ());
    add_row(rows[1], i, 0, r, Eigen::Vector3d::UnitX());
    add_row(rows[2], i, 0, r, Eigen::Vector3d::UnitY());
  }
  finish(s, n, rows);
}

template <void (*Make)(int, Scene&)>
void BM_Lemke(benchmark::State& state) {
  Scene scene;
  Make(static_cast<int>(state.range(0)), scene);
  StewartTrinkleLcp lcp;
  assemble_stewart_trinkle_lcp(scene.problem, 4, StewartTrinkleOptions{}.merge_tolerance, lcp);
  LemkeSolver lemke;
  Eigen::VectorXd z;
  LemkeResult r;
  for (auto _ : state) {
    r = lemke.solve(lcp.A, lcp.q, z);
    benchmark::DoNotOptimize(z.data());
  }
  state.counters["lcp_size"] = lcp.size;
  state.counters["pivots"] = r.pivots;
  state.counters["attempts"] = r.attempts;
  state.counters["solved"] = r.solved();
}

template <void (*Make)(int, Scene&)>
void BM_StewartTrinkle(benchmark::State& state) {
  Scene scene;
  Make(static_cast<int>(state.range(0)), scene);
  StewartTrinkleModel model;
  const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
  ContactResult result;
  for (auto _ : state) {
    model.solve(scene.problem, result, *workspace);
    benchmark::DoNotOptimize(result.v_plus.data());
  }
  state.counters["pivots"] = result.stats.iterations;
  state.counters["solved"] = result.stats.status == SolveStatus::Solved;
}

#define CONTACT_COUNTS ->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_Lemke<spheres>)->Name("Lemke/spheres") CONTACT_COUNTS;
BENCHMARK(BM_Lemke<box>)->Name("Lemke/box") CONTACT_COUNTS;
BENCHMARK(BM_StewartTrinkle<spheres>)->Name("StewartTrinkleModel/spheres") CONTACT_COUNTS;
BENCHMARK(BM_StewartTrinkle<box>)->Name("StewartTrinkleModel/box") CONTACT_COUNTS;

}  // namespace
}  // namespace impetus

BENCHMARK_MAIN();
