// Every shipped scene, run whole through run_simulation: penetration and energy bounds, determinism.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path temp_run_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("impetus-test-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  return dir;
}

struct ShippedScene {
  const char* file;
  double duration;          // s simulated in the test (shorter than the scene's own, to keep the suite fast)
  double penetration_bound; // m
  bool dissipative;         // no energy source: energy must not rise
};

// Penetration: with gap stabilisation N·v⁺ ≥ −φ/dt a contact is pushed out within one step, so depth
// stays of the order of what one step of free fall or impact brings in (g·dt² ≈ 1e-5 m, v·dt for an
// impact at v m/s); the bounds below are that order with a margin of a few.
// Energy: contact never adds energy in these LCP models, but gap stabilisation lifts a penetrating body
// by up to its depth, a potential-energy rise of m·g·depth per step: kEnergyGainBound covers that for the
// depths above and the masses of the shipped scenes (≤ 10 kg).
constexpr double kEnergyGainBound = 1e-3;  // J per step

const ShippedScene kScenes[] = {
    {"box_rest.xml", 1.0, 1e-4, true},     {"box_slide.xml", 1.0, 1e-4, true},
    {"incline_stick.xml", 1.0, 1e-4, true}, {"incline_slide.xml", 1.0, 1e-4, true},
    {"stack10.xml", 1.0, 1e-3, true},      {"pendulum.xml", 2.0, 0.0, false},
    {"double_pendulum_drop.xml", 2.0, 1e-2, true}, {"spheres_drop.xml", 2.0, 1e-2, true},
    {"spheres_rest1000.xml", 0.05, 1e-4, true},
};

class ShippedSceneTest : public ::testing::TestWithParam<ShippedScene> {};

TEST_P(ShippedSceneTest, PenetrationAndEnergyStayWithinBounds) {
  const ShippedScene& s = GetParam();
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/" + s.file);
  RunOptions options;
  options.duration = s.duration;
  options.out_dir = temp_run_dir(s.file).string();
  const RunReport report = run_simulation(world, options);
  EXPECT_EQ(report.status, "ok");
  EXPECT_EQ(report.totals.solver_failures, 0);
  EXPECT_LE(report.totals.max_penetration, s.penetration_bound);
  if (s.dissipative) {
    EXPECT_LE(report.totals.energy_max_gain, kEnergyGainBound);
  }
  // The contact stage adds kinetic energy only through gap stabilisation, which separates a contact that
  // penetrates by d at d/dt: at most ½·m_total·(d/dt)² with d the deepest penetration.
  double m_total = 0;
  for (const Link& l : world.model.multibody.links) m_total += l.inertia.mass;
  const double d_over_dt = report.totals.max_penetration / report.dt;
  if (report.totals.solver_calls > 0) {
    EXPECT_LE(report.totals.contact_max_gain, 0.5 * m_total * d_over_dt * d_over_dt + 1e-12) << "contact added energy";
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, ShippedSceneTest, ::testing::ValuesIn(kScenes),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           return n.substr(0, n.find('.'));
                         });

TEST(Determinism, TwoRunsWriteIdenticalFiles) {
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/spheres_drop.xml");
  RunOptions options;
  options.duration = 0.5;
  options.record_dt = 0;
  options.out_dir = temp_run_dir("det1").string();
  run_simulation(world, options);
  const std::string dir1 = options.out_dir;
  options.out_dir = temp_run_dir("det2").string();
  run_simulation(world, options);
  for (const char* f : {"trajectory.csv", "contacts.csv", "stats.csv"}) {
    const std::string a = read_file(fs::path(dir1) / f), b = read_file(fs::path(options.out_dir) / f);
    EXPECT_FALSE(a.empty()) << f;
    EXPECT_EQ(a, b) << f << " differs between two runs";
  }
}

}  // namespace
}  // namespace impetus
