// Time per inverse-dynamics call against the number of contacts (seed 004 Fig. 19; issue 13), Google
// Benchmark:
//
//   build/bench/bench_inverse_dynamics                              every variant, n = 1, 2, 4, …, 128
//   build/bench/bench_inverse_dynamics --benchmark_filter=id_lcp_noslip   (with id_lcp_noslip_stage_one:
//                                                                          the same without Stage II)
//
// The problem: the quadruped of models/quadruped standing on its four feet (hips 0.8, knees 1.2, μ = 1),
// assembled by the simulator (one step of `no_slip`, whose island problem is taken as is; nv = 18, 12
// driven joints holding the pose). n < 4 keeps the first n feet; n ≥ 4 gives each foot n/4 copies of its
// contact ("contacts added per foot", Fig. 19) — exactly redundant rows, the degenerate case
// FIND-INDICES, principal pivoting and Lemke's regularisation exist for. Each iteration is one call of
// the variant's solver on that problem (warm starts carry over between calls, as from step to step: for
// id_qp_* the last call's settled set and (QP6) basis, id_qp.hpp QP19, which on the repeated problem is the
// answer; id_qp_*_cold are the same with IdQpOptions::warm_start = false, every call from the start).
// Reported: the mean (Google Benchmark's time) and, as counters, the median and 95th percentile of the
// per-call wall time in µs, and the solver status of the last call.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "control/inverse_dynamics/id_lcp_coulomb.hpp"
#include "control/inverse_dynamics/id_lcp_noslip.hpp"
#include "control/inverse_dynamics/id_qp.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"

namespace {

using namespace impetus;

const std::string kScene = std::string(IMPETUS_SOURCE_DIR) + "/scenes/id_bench.xml";   // never written

/// The standing quadruped's island after one step, and its driven coordinates.
struct Standing {
  World world;
  ContactProblem problem;
  std::vector<int> actuated;

  Standing()
      : world(load_scene_string(R"(<scene name="bench"><physics dt="0.001" contact_model="no_slip" mu="1"/><ground/>
  <model name="quad" urdf=")" + std::string(IMPETUS_SOURCE_DIR) + R"(/models/quadruped/quadruped.urdf" base="floating">
    <origin xyz="0 0 0.16116616"/>
    <joint name="LF_Y_2" position="0.8"/><joint name="RF_Y_2" position="0.8"/><joint name="LH_Y_2" position="0.8"/>
    <joint name="RH_Y_2" position="0.8"/><joint name="LF_Y_3" position="1.2"/><joint name="RF_Y_3" position="1.2"/>
    <joint name="LH_Y_3" position="1.2"/><joint name="RH_Y_3" position="1.2"/>
  </model></scene>)",
                                kScene)) {
    stepper_ = std::make_unique<Stepper>(world.model, "no_slip", 1e-3);
    State state = world.initial;
    stepper_->step(state);
    problem = stepper_->data().problems.at(0);
    const MultibodyModel& mb = world.model.multibody;
    for (const Link& link : mb.links)
      if (joint_nv(link.joint.type) == 1) actuated.push_back(link.joint.v_index - mb.trees[link.tree].v_offset);
  }

  /// The problem with n contacts (see the file comment).
  ContactProblem with_contacts(int n) const {
    const int feet = problem.nc;
    std::vector<int> rows;
    if (n < feet)
      for (int i = 0; i < n; ++i) rows.push_back(i);
    else
      for (int i = 0; i < feet; ++i)
        for (int c = 0; c < n / feet; ++c) rows.push_back(i);
    ContactProblem p = problem;
    const int m = static_cast<int>(rows.size());
    auto pick = [&](const SparseRows& X) {
      SparseRows Y(m, X.cols());
      for (int r = 0; r < m; ++r)
        for (SparseRows::InnerIterator it(X, rows[r]); it; ++it) Y.insert(r, it.col()) = it.value();
      Y.makeCompressed();
      return Y;
    };
    p.nc = m;
    p.N = pick(problem.N);
    p.S = pick(problem.S);
    p.T = pick(problem.T);
    auto pick_vector = [&](const Eigen::VectorXd& x) {
      Eigen::VectorXd y(m);
      for (int r = 0; r < m; ++r) y[r] = x.size() ? x[rows[r]] : 0.0;
      return y;
    };
    p.phi = pick_vector(problem.phi);
    p.mu = pick_vector(problem.mu);
    p.mu_viscous = pick_vector(problem.mu_viscous);
    p.p_N_guess = p.p_S_guess = p.p_T_guess = Eigen::VectorXd::Zero(m);
    p.keys.clear();
    for (int r = 0; r < m; ++r) p.keys.push_back(ContactKey{problem.keys[rows[r]].geom_a, problem.keys[rows[r]].geom_b, r});
    p.extension.reset();   // a point-contact problem: no hull–plane part
    return p;
  }

 private:
  std::unique_ptr<Stepper> stepper_;
};

const Standing& standing() {
  static const Standing s;
  return s;
}

std::unique_ptr<InverseDynamicsSolver> make(int variant) {
  switch (variant) {
    case 0: return std::make_unique<IdLcpNoSlip>();
    case 1: return std::make_unique<IdLcpCoulomb>();
    case 2: return std::make_unique<IdQp>();
    case 4: {
      IdLcpNoSlipOptions o;
      o.stage_two = false;
      return std::make_unique<IdLcpNoSlip>(o);
    }
    case 5: {
      IdQpOptions o;
      o.warm_start = false;
      return std::make_unique<IdQp>(o);
    }
    case 6: {
      IdQpOptions o;
      o.unbounded_friction = true;
      o.warm_start = false;
      return std::make_unique<IdQp>(o);
    }
    default: {
      IdQpOptions o;
      o.unbounded_friction = true;
      return std::make_unique<IdQp>(o);
    }
  }
}

void BM_InverseDynamics(benchmark::State& state, int variant) {
  const ContactProblem problem = standing().with_contacts(static_cast<int>(state.range(0)));
  InverseDynamicsProblem id;
  id.contact = &problem;
  id.actuated = standing().actuated;
  id.qd_des = Eigen::VectorXd::Zero(static_cast<int>(id.actuated.size()));
  auto solver = make(variant);
  InverseDynamicsSolution solution;
  std::vector<double> us;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    solver->solve(id, solution);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    benchmark::DoNotOptimize(solution.tau.data());
  }
  std::sort(us.begin(), us.end());
  state.counters["median_us"] = us[us.size() / 2];
  state.counters["p95_us"] = us[std::min(us.size() - 1, us.size() * 95 / 100)];
  state.counters["status"] = static_cast<double>(solution.stats.status);   // 0 Solved, 1 Fallback, 2 Failed
  state.counters["contacts"] = problem.nc;
  state.counters["iterations"] = solution.stats.iterations;   // of the last call: pivots, passes
}

// 100 contacts (25 per foot): the goal's point (issue 13: linear, under 100 µs).
BENCHMARK_CAPTURE(BM_InverseDynamics, id_lcp_noslip, 0)->RangeMultiplier(2)->Range(1, 128)->Arg(100)->Unit(benchmark::kMicrosecond);
// Stage I alone (principal pivoting's vertex, no least-‖τ‖ choice): the cost of Stage II in the same run.
BENCHMARK_CAPTURE(BM_InverseDynamics, id_lcp_noslip_stage_one, 4)->RangeMultiplier(2)->Range(1, 128)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_InverseDynamics, id_lcp_coulomb, 1)->RangeMultiplier(2)->Range(1, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_InverseDynamics, id_qp_coulomb, 2)->RangeMultiplier(2)->Range(1, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_InverseDynamics, id_qp_noslip, 3)->RangeMultiplier(2)->Range(1, 128)->Unit(benchmark::kMicrosecond);
// The same without the warm start (QP19): the cost of a call whose last basis is not the answer.
BENCHMARK_CAPTURE(BM_InverseDynamics, id_qp_coulomb_cold, 5)->RangeMultiplier(2)->Range(1, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_InverseDynamics, id_qp_noslip_cold, 6)->RangeMultiplier(2)->Range(1, 128)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
