// Benchmarks of the max_dissipation model (contact/max_dissipation/max_dissipation.hpp). Not a test.
//
//   bench_max_dissipation contacts [--max N] [--repeats R]
//       Phase I and phase II time against the number of contacts, on sphere piles built by hand (a
//       lattice of spheres, r = 0.04 m, each touching its lattice neighbours, the ground and the walls,
//       with gaps of 0 … 1 mm), resting (v = 0, gravity only) and moving (random velocities of 0.3 m/s).
//   bench_max_dissipation scene FILE [--model NAME] [--dt S] [--duration S] [--report S] [--max-wall S]
//                                    [--checkpoint PATH] [--resume PATH] [--out DIR] [--record-dt S]
//                                    [--dump-problems DIR]
//       Runs a scene with run_simulation (sim/simulation.hpp), writing the run folder of `impetus run`
//       (default runs/bench_max_dissipation/SCENE), and reports, every --report seconds of simulated
//       time, the contacts, the kinetic energy, the deepest penetration, the solver's fallbacks and
//       failures, and the wall time per simulated second; stops early after --max-wall seconds of
//       wall time.
//       --checkpoint writes a restart point (sim/restart_point.hpp: the state and the stepper's memory) at
//       every report; --resume continues from one, bit for bit under every model, so that a run of hours
//       can be split. --dump-problems writes every step's contact problems (contact/dump/) for
//       `impetus solve`, e.g. those of a resting pile resumed from a restart point.
//
// Times are wall-clock (steady_clock) and CPU time of the process; on a loaded machine the CPU time is
// the better measure of the work.
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/load_error.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "sim/restart_point.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"
#include "sim/stepper.hpp"

namespace {

using namespace impetus;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// A pile of n × n × layers spheres: contacts with lattice neighbours below and beside, the ground,
/// the four walls, and (at random) a diagonal neighbour below.
struct Pile {
  std::deque<Eigen::MatrixXd> M;
  std::deque<Eigen::LLT<Eigen::MatrixXd>> llt;
  ContactProblem problem;

  Pile(int n, int layers, bool moving, unsigned seed) {
    const double r = 0.04, m = 0.268, I = 0.4 * m * r * r, dt = 0.001, mu = 0.5;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    const int bodies = n * n * layers, nv = 6 * bodies;
    ContactProblem& P = problem;
    P.dt = dt;
    P.nv = nv;
    for (int b = 0; b < bodies; ++b) {
      Eigen::MatrixXd Mb = Eigen::MatrixXd::Zero(6, 6);
      Mb.diagonal() << m, m, m, I, I, I;
      M.push_back(Mb);
      llt.emplace_back(M.back());
      P.systems.push_back(SystemBlock{6 * b, 6, &M.back(), &llt.back()});
    }
    std::vector<Eigen::Triplet<double>> tN, tS, tT;
    std::vector<double> phi;
    int nc = 0;
    auto add = [&](int a, int b, const Eigen::Vector3d& normal) {
      const Eigen::Vector3d t1 = normal.unitOrthogonal(), t2 = normal.cross(t1);
      auto side = [&](std::vector<Eigen::Triplet<double>>& out, const Eigen::Vector3d& d, int body, double sign,
                      const Eigen::Vector3d& arm) {
        const Eigen::Vector3d w = arm.cross(d);
        for (int c = 0; c < 3; ++c) out.emplace_back(nc, 6 * body + c, sign * d[c]);
        for (int c = 0; c < 3; ++c) out.emplace_back(nc, 6 * body + 3 + c, sign * w[c]);
      };
      for (auto [out, d] : {std::pair{&tN, normal}, std::pair{&tS, t1}, std::pair{&tT, t2}}) {
        side(*out, d, a, 1, -r * normal);
        if (b >= 0) side(*out, d, b, -1, r * normal);
      }
      phi.push_back(0.0005 * (1 + u(rng)));
      ++nc;
    };
    auto id = [&](int i, int j, int k) { return (k * n + j) * n + i; };
    for (int k = 0; k < layers; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const int a = id(i, j, k);
          add(a, k == 0 ? -1 : id(i, j, k - 1), Eigen::Vector3d::UnitZ());
          add(a, i == 0 ? -1 : id(i - 1, j, k), Eigen::Vector3d::UnitX());
          add(a, j == 0 ? -1 : id(i, j - 1, k), Eigen::Vector3d::UnitY());
          if (i == n - 1) add(a, -1, -Eigen::Vector3d::UnitX());
          if (j == n - 1) add(a, -1, -Eigen::Vector3d::UnitY());
          if (k > 0 && i > 0 && u(rng) > 0) add(a, id(i - 1, j, k - 1), Eigen::Vector3d(1, 0, 1).normalized());
          if (k > 0 && j > 0 && u(rng) > 0) add(a, id(i, j - 1, k - 1), Eigen::Vector3d(0, 1, 1).normalized());
        }
    P.nc = nc;
    P.N.resize(nc, nv);
    P.S.resize(nc, nv);
    P.T.resize(nc, nv);
    P.N.setFromTriplets(tN.begin(), tN.end());
    P.S.setFromTriplets(tS.begin(), tS.end());
    P.T.setFromTriplets(tT.begin(), tT.end());
    P.v = moving ? Eigen::VectorXd(Eigen::VectorXd::NullaryExpr(nv, [&] { return 0.3 * u(rng); }))
                 : Eigen::VectorXd(Eigen::VectorXd::Zero(nv));
    P.v_star = P.v;
    for (int b = 0; b < bodies; ++b) P.v_star[6 * b + 2] -= 9.81 * dt;
    P.phi = Eigen::Map<Eigen::VectorXd>(phi.data(), nc);
    P.mu = Eigen::VectorXd::Constant(nc, mu);
    P.mu_viscous = Eigen::VectorXd::Zero(nc);
    P.keys.assign(nc, ContactKey{});
    P.nl = 0;
    P.L.resize(0, nv);
    P.phi_L.resize(0);
    P.p_N_guess = P.p_S_guess = P.p_T_guess = Eigen::VectorXd::Zero(nc);
    P.p_L_guess.resize(0);
  }
};

const char* status_name(SolveStatus s) {
  return s == SolveStatus::Solved ? "solved" : s == SolveStatus::Fallback ? "fallback" : "failed";
}

int contacts_benchmark(int max_contacts, int repeats) {
  // (n, layers) chosen for ≈ 10, 30, 100, 300, 1000, 3000, 5000 contacts.
  const int sizes[][2] = {{1, 2}, {2, 2}, {3, 3}, {5, 3}, {8, 4}, {12, 6}, {15, 6}};
  std::printf("# phase I / phase II of max_dissipation on sphere piles; times per solve (ms), best of %d\n", repeats);
  std::printf("%-8s %8s %6s %6s | %10s %10s %6s | %10s %10s %6s | %s\n", "state", "contacts", "bodies", "nv",
              "I wall", "I cpu", "I it", "II wall", "II cpu", "II it", "status");
  for (bool moving : {false, true})
    for (const auto& size : sizes) {
      Pile pile(size[0], size[1], moving, 7);
      if (pile.problem.nc > max_contacts * 1.2) break;
      double w1 = 1e30, w2 = 1e30, c_total = 1e30;
      int it1 = 0, it2 = 0;
      SolveStatus status = SolveStatus::Solved;
      MaxDissipationOptions timed;
      timed.timing = true;   // the phases' wall times in the report
      for (int rep = 0; rep < repeats; ++rep) {
        const MaxDissipationModel model(timed);
        const std::unique_ptr<ContactWorkspace> workspace = model.make_workspace();
        ContactResult result;
        const double c0 = cpu_seconds();
        model.solve(pile.problem, result, *workspace);
        const double c = cpu_seconds() - c0;
        const MaxDissipationReport& r = result.report_as<MaxDissipationReport>();
        if (r.phase_one_seconds + r.phase_two_seconds < w1 + w2) {
          w1 = r.phase_one_seconds;
          w2 = r.phase_two_seconds;
        }
        c_total = std::min(c_total, c);
        it1 = r.phase_one_iterations;
        it2 = r.phase_two_iterations;
        status = result.stats.status;
      }
      // CPU time split between the phases in the proportion of their wall times.
      const double c1 = c_total * w1 / (w1 + w2), c2 = c_total * w2 / (w1 + w2);
      std::printf("%-8s %8d %6d %6d | %10.3f %10.3f %6d | %10.3f %10.3f %6d | %s\n", moving ? "moving" : "resting",
                  pile.problem.nc, pile.problem.nv / 6, pile.problem.nv, 1e3 * w1, 1e3 * c1, it1, 1e3 * w2, 1e3 * c2,
                  it2, status_name(status));
      std::fflush(stdout);
    }
  return 0;
}

struct SceneOptions {
  std::string file, model, out, checkpoint, resume, dump_problems;
  double dt = 0, duration = -1, record_dt = 0.01, report = 0.1, max_wall = 1e30;
};

/// The scene through run_simulation (the run folder as `impetus run` writes it), with a report line
/// every `report` seconds of simulated time from its per-step hook, and restart points.
int scene_benchmark(const SceneOptions& o) {
  const World world = load_scene(o.file);
  RunOptions run;
  run.contact_model = o.model;
  run.dt = o.dt;
  run.duration = o.duration;
  run.record_dt = o.record_dt;
  run.out_dir = o.out;
  run.dump_problems_dir = o.dump_problems;
  const std::string name = o.model.empty() ? world.model.physics.contact_model : o.model;
  const double step = o.dt > 0 ? o.dt : world.model.physics.dt;
  const int every = std::max(1, static_cast<int>(std::lround(o.report / step)));
  const long last_step = std::lround((o.duration >= 0 ? o.duration : world.model.physics.duration) / step);
  std::printf("# %s, model %s, dt %g s, %g s; %zu links; run folder %s\n", o.file.c_str(), name.c_str(), step,
              o.duration >= 0 ? o.duration : world.model.physics.duration, world.model.multibody.links.size(),
              o.out.c_str());

  // A restart point is read before the run, so that a bad one starts nothing.
  RestartPoint restart{world.initial, {}};
  if (!o.resume.empty()) {
    try {
      restart = read_restart_point(o.resume, world.model);
    } catch (const LoadError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  const double t0 = restart.state.t;
  if (!o.resume.empty()) {
    run.before_first_step = [&](State& state, Stepper& stepper) {
      state = restart.state;
      stepper.restore(restart.memory);
    };
    std::printf("# resuming from %s at t = %g s\n", o.resume.c_str(), t0);
  }

  // The report window: what the run's totals (summary.json) do not say per 0.1 s.
  StageTimes window;
  long fallbacks = 0, failures = 0, steps = 0;
  int max_iterations = 0;
  double max_penetration = 0;
  const double wall0 = wall_seconds(), cpu0 = cpu_seconds();
  double window_cpu = cpu0;
  run.after_step = [&](const State& state, const Stepper& stepper) -> std::string {
    const StepData& d = stepper.data();
    window += d.times;
    fallbacks += d.stats.solver_fallbacks;
    failures += d.stats.solver_failures;
    max_iterations = std::max(max_iterations, d.stats.solver_max_iterations);
    max_penetration = std::max(max_penetration, d.stats.max_penetration);
    if (++steps % every != 0 && std::lround(state.t / step) != last_step) return wall_seconds() - wall0 > o.max_wall ? "the wall-time limit (--max-wall)" : "";
    const double sim = every * step;
    const double cpu_now = cpu_seconds();
    double ke = 0;   // ½ v⁺ᵀ M v⁺ with the step's M(q)
    for (std::size_t t = 0; t < world.model.multibody.trees.size(); ++t) {
      const Tree& tree = world.model.multibody.trees[t];
      if (tree.nv == 0) continue;
      const auto v = state.v.segment(tree.v_offset, tree.nv);
      ke += 0.5 * v.dot(d.multibody.M[t] * v);
    }
    std::printf("%8.3f %8d %8d %12.5g %10.4f %6ld %6ld %8d %10.3f %10.3f %10.3f\n", state.t, d.stats.contacts,
                d.stats.islands, ke, 1e3 * max_penetration, fallbacks, failures, max_iterations,
                window.stepping() / sim, (cpu_now - window_cpu) / sim, window.contact / sim);
    std::fflush(stdout);
    if (!o.checkpoint.empty()) {
      try {
        write_restart_point(o.checkpoint, {state, stepper.memory()});
      } catch (const std::runtime_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
      }
    }
    window = StageTimes{};
    window_cpu = cpu_now;
    return wall_seconds() - wall0 > o.max_wall ? "the wall-time limit (--max-wall)" : "";
  };

  std::printf("%8s %8s %8s %12s %10s %6s %6s %8s %10s %10s %10s\n", "t", "contacts", "islands", "KE (J)",
              "pen (mm)", "fallbk", "failed", "max it", "wall/sim", "cpu/sim", "contact/s");
  const RunReport report = run_simulation(world, run);
  const RunTotals& total = report.totals;
  const double simulated = total.steps * report.dt;
  std::printf("# %s: simulated %g s (from t = %g s) in %ld steps: stepping %.1f s wall (%.2f s per simulated s), "
              "%.1f s cpu; contact stage %.1f s, collision %.1f s\n",
              report.status.c_str(), simulated, t0, total.steps, total.times.stepping(),
              total.times.stepping() / simulated, cpu_seconds() - cpu0, total.times.contact, total.times.collision);
  std::printf("# solver: %ld fallbacks, %ld failures, at most %d iterations; deepest penetration %.3f mm; largest "
              "kinetic-energy gain of a contact stage %.3g J\n",
              total.solver_fallbacks, total.solver_failures, total.solver_max_iterations, 1e3 * total.max_penetration,
              total.contact_max_gain);
  return report.status == "ok" || report.status.rfind("stopped: the wall-time", 0) == 0 ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Benchmarks of the max_dissipation model (not a test)"};
  app.require_subcommand(1);
  int max_contacts = 5000, repeats = 3;
  CLI::App* contacts = app.add_subcommand("contacts", "phase I and phase II time against the number of contacts");
  contacts->add_option("--max", max_contacts, "largest pile (contacts)")->check(CLI::PositiveNumber);
  contacts->add_option("--repeats", repeats, "solves per pile, the best one reported")->check(CLI::PositiveNumber);
  SceneOptions o;
  CLI::App* scene = app.add_subcommand("scene", "a scene through the whole pipeline (run_simulation)");
  scene->add_option("file", o.file, "scene file")->required()->check(CLI::ExistingFile);
  scene->add_option("--model", o.model, "contact model (default: the scene's)");
  scene->add_option("--dt", o.dt, "time step, s (default: the scene's)")->check(CLI::NonNegativeNumber);
  scene->add_option("--duration", o.duration, "simulated time, s (default: the scene's)");
  scene->add_option("--report", o.report, "simulated seconds between report lines")->check(CLI::PositiveNumber);
  scene->add_option("--max-wall", o.max_wall, "stop after this many seconds of wall time")->check(CLI::PositiveNumber);
  scene->add_option("--checkpoint", o.checkpoint, "write a restart point at every report line");
  scene->add_option("--resume", o.resume, "continue from a restart point")->check(CLI::ExistingFile);
  scene->add_option("--dump-problems", o.dump_problems,
                    "write every step's contact problems into this folder (for `impetus solve`)");
  scene->add_option("--out", o.out, "run folder (default: runs/bench_max_dissipation/SCENE)");
  scene->add_option("--record-dt", o.record_dt, "recording interval of the run folder, s (0: every step)")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  if (*contacts) return contacts_benchmark(max_contacts, repeats);
  if (o.out.empty()) o.out = "runs/bench_max_dissipation/" + std::filesystem::path(o.file).stem().string();
  try {
    return scene_benchmark(o);
  } catch (const LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
