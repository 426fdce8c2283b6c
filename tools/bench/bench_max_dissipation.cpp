// Benchmarks of the max_dissipation model (contact/max_dissipation/max_dissipation.hpp). Not a test.
//
//   bench_max_dissipation contacts [--max N] [--repeats R]
//       Phase I and phase II time against the number of contacts, on sphere piles built by hand (a
//       lattice of spheres, r = 0.04 m, each touching its lattice neighbours, the ground and the walls,
//       with gaps of 0 … 1 mm), resting (v = 0, gravity only) and moving (random velocities of 0.3 m/s).
//   bench_max_dissipation scene FILE [--model NAME] [--dt S] [--duration S] [--report S] [--max-wall S]
//                                    [--checkpoint PATH] [--resume PATH]
//       Steps a scene through the whole pipeline and reports, every --report seconds of simulated time,
//       the contacts, the kinetic energy, the deepest penetration, the solver's fallbacks and failures,
//       and the wall time per simulated second; stops early after --max-wall seconds of wall time.
//       --checkpoint writes a restart point (t, q, v and the contact impulses that warm-start the next
//       step) at every report; --resume continues from one, so that a run of hours can be split. Not
//       for ecp, whose stage 4b warm-starts from the last step's results, which are not saved.
//
// Times are wall-clock (steady_clock) and CPU time of the process; on a loaded machine the CPU time is
// the better measure of the work.
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "contact/max_dissipation/max_dissipation.hpp"
#include "sim/scene/scene_loader.hpp"
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
      for (int rep = 0; rep < repeats; ++rep) {
        MaxDissipation model;
        ContactResult result;
        const double c0 = cpu_seconds();
        model.solve(pile.problem, result);
        const double c = cpu_seconds() - c0;
        const MaxDissipationReport& r = model.last_report();
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

/// A restart point as text: t; q; v; then one line per remembered contact (keys and impulse), all
/// printed with 17 significant digits so that a resumed run continues bit for bit.
void write_checkpoint(const std::string& path, const State& state, const ImpulseMemory& memory) {
  const std::string temporary = path + ".partial";
  FILE* f = std::fopen(temporary.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "%s: cannot write the checkpoint\n", temporary.c_str());
    return;
  }
  std::fprintf(f, "%.17g\n%ld", state.t, static_cast<long>(state.q.size()));
  for (double x : state.q) std::fprintf(f, " %.17g", x);
  std::fprintf(f, "\n%ld", static_cast<long>(state.v.size()));
  for (double x : state.v) std::fprintf(f, " %.17g", x);
  std::fprintf(f, "\n%zu\n", memory.size());
  for (const auto& [key, p] : memory)
    std::fprintf(f, "%d %d %d %.17g %.17g %.17g\n", key.geom_a, key.geom_b, key.feature, p[0], p[1], p[2]);
  // Written aside and renamed: a crash mid-write keeps the last checkpoint whole.
  if (std::fclose(f) != 0 || std::rename(temporary.c_str(), path.c_str()) != 0)
    std::fprintf(stderr, "%s: cannot write the checkpoint\n", path.c_str());
}

bool read_checkpoint(const std::string& path, State& state, ImpulseMemory& memory) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return false;
  long nq = 0, nv = 0;
  std::size_t count = 0;
  bool ok = std::fscanf(f, "%lf %ld", &state.t, &nq) == 2 && nq == state.q.size();
  for (long i = 0; ok && i < nq; ++i) ok = std::fscanf(f, "%lf", &state.q[i]) == 1;
  ok = ok && std::fscanf(f, "%ld", &nv) == 1 && nv == state.v.size();
  for (long i = 0; ok && i < nv; ++i) ok = std::fscanf(f, "%lf", &state.v[i]) == 1;
  ok = ok && std::fscanf(f, "%zu", &count) == 1;
  memory.clear();
  for (std::size_t i = 0; ok && i < count; ++i) {
    ContactKey key;
    Eigen::Vector3d p;
    ok = std::fscanf(f, "%d %d %d %lf %lf %lf", &key.geom_a, &key.geom_b, &key.feature, &p[0], &p[1], &p[2]) == 6;
    memory[key] = p;
  }
  std::fclose(f);
  return ok;
}

int scene_benchmark(const std::string& file, const std::string& model_name, double dt, double duration,
                    double report_every, double max_wall, const std::string& checkpoint, const std::string& resume) {
  const World world = load_scene(file);
  const std::string name = model_name.empty() ? world.model.physics.contact_model : model_name;
  const double step = dt > 0 ? dt : world.model.physics.dt;
  const double until = duration >= 0 ? duration : world.model.physics.duration;
  Stepper stepper(world.model, name, step);
  State state = world.initial;
  if (!resume.empty()) {
    ImpulseMemory memory;
    if (!read_checkpoint(resume, state, memory)) {
      std::fprintf(stderr, "%s: not a checkpoint of %s\n", resume.c_str(), file.c_str());
      return 1;
    }
    stepper.restore_impulse_memory(std::move(memory));
    std::printf("# resumed from %s at t = %g s\n", resume.c_str(), state.t);
  }
  const double t0 = state.t;
  const int steps = static_cast<int>(std::lround((until - t0) / step));
  const int every = std::max(1, static_cast<int>(std::lround(report_every / step)));
  std::printf("# %s, model %s, dt %g s, %g s; %zu links\n", file.c_str(), name.c_str(), step, until,
              world.model.multibody.links.size());
  std::printf("%8s %8s %8s %12s %10s %6s %6s %8s %10s %10s %10s\n", "t", "contacts", "islands", "KE (J)",
              "pen (mm)", "fallbk", "failed", "max it", "wall/sim", "cpu/sim", "contact/s");
  StageTimes total, window;
  long fallbacks = 0, failures = 0;
  int max_iterations = 0;
  double max_penetration = 0, max_contact_gain = 0;
  const double wall0 = wall_seconds(), cpu0 = cpu_seconds();
  double window_cpu = cpu_seconds();
  int k = 0;
  for (; k < steps; ++k) {
    stepper.step(state);
    const StepData& d = stepper.data();
    total += d.times;
    window += d.times;
    fallbacks += d.stats.solver_fallbacks;
    failures += d.stats.solver_failures;
    max_iterations = std::max(max_iterations, d.stats.solver_max_iterations);
    max_penetration = std::max(max_penetration, d.stats.max_penetration);
    max_contact_gain = std::max(max_contact_gain, d.stats.contact_energy_change);
    if (!state.q.allFinite() || !state.v.allFinite()) {
      std::printf("# diverged at t = %g s\n", state.t);
      break;
    }
    const bool last = k + 1 == steps || wall_seconds() - wall0 > max_wall;
    if ((k + 1) % every == 0 || last) {
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
      if (!checkpoint.empty()) write_checkpoint(checkpoint, state, stepper.impulse_memory());
      window = StageTimes{};
      window_cpu = cpu_now;
    }
    if (last && k + 1 < steps) {
      std::printf("# stopped after %.0f s of wall time at t = %g s\n", wall_seconds() - wall0, state.t);
      ++k;
      break;
    }
  }
  const double simulated = state.t - t0;
  std::printf("# simulated %g s in %d steps: stepping %.1f s wall (%.2f s per simulated s), %.1f s cpu; contact "
              "stage %.1f s, collision %.1f s\n",
              simulated, k, total.stepping(), total.stepping() / simulated, cpu_seconds() - cpu0, total.contact,
              total.collision);
  std::printf("# solver: %ld fallbacks, %ld failures, at most %d iterations; deepest penetration %.3f mm; largest "
              "kinetic-energy gain of a contact stage %.3g J\n",
              fallbacks, failures, max_iterations, 1e3 * max_penetration, max_contact_gain);
  return 0;
}

double option(int argc, char** argv, const std::string& name, double fallback) {
  for (int i = 0; i + 1 < argc; ++i)
    if (argv[i] == name) return std::atof(argv[i + 1]);
  return fallback;
}

std::string text_option(int argc, char** argv, const std::string& name) {
  for (int i = 0; i + 1 < argc; ++i)
    if (argv[i] == name) return argv[i + 1];
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "contacts")
    return contacts_benchmark(static_cast<int>(option(argc, argv, "--max", 5000)),
                              static_cast<int>(option(argc, argv, "--repeats", 3)));
  if (command == "scene" && argc > 2)
    return scene_benchmark(argv[2], text_option(argc, argv, "--model"), option(argc, argv, "--dt", 0),
                           option(argc, argv, "--duration", -1), option(argc, argv, "--report", 0.1),
                           option(argc, argv, "--max-wall", 1e30), text_option(argc, argv, "--checkpoint"),
                           text_option(argc, argv, "--resume"));
  std::fprintf(stderr,
               "usage: bench_max_dissipation contacts [--max N] [--repeats R]\n"
               "       bench_max_dissipation scene FILE [--model NAME] [--dt S] [--duration S] [--report S] "
               "[--max-wall S] [--checkpoint PATH] [--resume PATH]\n");
  return 2;
}
