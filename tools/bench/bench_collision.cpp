// Time of the collision stage, CollisionDetector::detect (Google Benchmark).
//   build/bench/bench_collision [--benchmark_filter=stack10]
// stack10:      10 unit boxes stacked on the ground, as a resting stack is: each slightly turned and
//               alternately penetrating and apart by 1 µm (both of FCL's query branches).
// spheres1000:  10 × 10 × 10 spheres (r = 5 cm) on a jittered lattice whose neighbours touch within
//               the margin, in a box of 6 immovable walls, on the ground.
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <random>
#include <vector>

#include "collision/collision_detector.hpp"

namespace {

using namespace impetus;

struct Scene {
  std::vector<Geometry> geometries;
  std::vector<Eigen::Isometry3d> X_WL;
  CollisionFilter filter;

  void add(const Shape& shape, const Eigen::Vector3d& p, double yaw, bool movable) {
    Geometry g;
    g.link = static_cast<int>(X_WL.size());
    g.shape = shape;
    geometries.push_back(g);
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    X.translation() = p;
    X_WL.push_back(X);
    filter.link_parent.push_back(-1);
    filter.link_movable.push_back(movable);
  }
};

Scene stack10() {
  Scene s;
  s.filter.has_ground = true;
  // Box k is raised by e_k = 1 µm for odd k: the gaps above the ground alternate +1 µm, −1 µm, ...
  for (int k = 0; k < 10; ++k)
    s.add(Box{Eigen::Vector3d(1, 1, 1)}, Eigen::Vector3d(1e-4 * k, 0, 0.5 + k + 1e-6 * (k % 2)), 1e-3 * k, true);
  return s;
}

Scene spheres1000() {
  Scene s;
  s.filter.has_ground = true;
  const double r = 0.05, spacing = 2 * r + 0.002;   // neighbours 2 mm apart: within the 5 mm margin
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> jitter(-5e-4, 5e-4);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      for (int k = 0; k < 10; ++k)
        s.add(Sphere{r}, Eigen::Vector3d(i * spacing + jitter(rng), j * spacing + jitter(rng), r + k * spacing + jitter(rng)),
              0, true);
  // Walls 1 mm outside the lattice, 0.1 m thick, and a lid.
  const double inner = 9 * spacing + 2 * r + 0.002, t = 0.1, h = 1.2;
  const double lo = -r - 0.001, mid = lo + inner / 2;
  s.add(Box{Eigen::Vector3d(t, inner + 2 * t, h)}, Eigen::Vector3d(lo - t / 2, mid, h / 2), 0, false);
  s.add(Box{Eigen::Vector3d(t, inner + 2 * t, h)}, Eigen::Vector3d(lo + inner + t / 2, mid, h / 2), 0, false);
  s.add(Box{Eigen::Vector3d(inner, t, h)}, Eigen::Vector3d(mid, lo - t / 2, h / 2), 0, false);
  s.add(Box{Eigen::Vector3d(inner, t, h)}, Eigen::Vector3d(mid, lo + inner + t / 2, h / 2), 0, false);
  s.add(Box{Eigen::Vector3d(inner + 2 * t, inner + 2 * t, t)}, Eigen::Vector3d(mid, mid, h + t / 2), 0, false);
  return s;
}

void detect(benchmark::State& bench, const Scene& scene) {
  CollisionDetector detector(scene.geometries, scene.filter);
  ContactSet contacts;
  detector.detect(scene.X_WL, contacts);   // warm: buffers grown once
  for (auto _ : bench) {
    detector.detect(scene.X_WL, contacts);
    benchmark::DoNotOptimize(contacts.data());
  }
  bench.counters["contacts"] = static_cast<double>(contacts.size());
  bench.counters["geometries"] = static_cast<double>(scene.geometries.size());
}

void BM_stack10(benchmark::State& s) { detect(s, stack10()); }
BENCHMARK(BM_stack10)->Unit(benchmark::kMicrosecond);

void BM_spheres1000(benchmark::State& s) { detect(s, spheres1000()); }
BENCHMARK(BM_spheres1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
