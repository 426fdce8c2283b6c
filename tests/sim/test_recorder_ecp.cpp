// contacts.csv under the ECP model: a body's ground points are replaced by its one equivalent contact
// point, and the file must say so — one row per step for the box, carrying the model's impulses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "scene_fixture.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/simulation.hpp"

namespace impetus {
namespace {

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    std::string cell;
    while (std::getline(cells_in, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST(RecorderEcp, ContactsCsvHoldsTheEquivalentContactPointWithTheModelsImpulses) {
  // ecp_box_slide: a 2 kg cube sliding at 0.3 m/s, μ = 0.22, dt = 0.01, g = 9.8. While it slides,
  // every step applies p_n = m g dt and a friction impulse μ p_n against the motion (along −x), at an
  // ECP μ·c = 0.022 m ahead of the centre of mass (scene comment, tests/sim/test_ecp_scenes.cpp).
  const World world = load_scene(test::scene_path("ecp_box_slide.xml"));
  RunOptions options;
  options.duration = 0.05;
  options.record_dt = 0;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("impetus-recorder-ecp-" + std::to_string(::getpid()));
  options.out_dir = dir.string();
  const RunReport report = run_simulation(world, options);
  ASSERT_EQ(report.status, "ok");
  const auto rows = read_csv(dir / "contacts.csv");
  ASSERT_GT(rows.size(), 1u);
  const auto& header = rows[0];
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t t = column("t"), a = column("a"), b = column("b"), px = column("px"), nz = column("nz"),
                    gap = column("gap"), pn = column("impulse_n"), pt1 = column("impulse_t1");
  const double m = 2, g = 9.8, dt = 0.01, mu = 0.22, c = 0.1;
  constexpr double kTol = 1e-9;   // the ECP tests' tolerance (100× the Newton tolerance's scale)
  std::map<std::string, int> rows_per_step;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r[a], "box");
    ASSERT_EQ(r[b], "ground");
    ++rows_per_step[r[t]];
    EXPECT_NEAR(std::stod(r[nz]), 1.0, 1e-12);
    EXPECT_GE(std::stod(r[gap]), -kTol);
    EXPECT_NEAR(std::stod(r[pn]), m * g * dt, kTol);
    EXPECT_NEAR(std::stod(r[pt1]), -mu * m * g * dt, kTol);   // sliding along +x the whole 0.05 s
  }
  EXPECT_EQ(rows_per_step.size(), 5u);
  for (const auto& [time, count] : rows_per_step) EXPECT_EQ(count, 1) << "t = " << time;
  // The ECP leads the centre of mass by μ c along the motion: read the box's x from trajectory.csv.
  const auto trajectory = read_csv(dir / "trajectory.csv");
  const auto& th = trajectory[0];
  const std::size_t box_x = static_cast<std::size_t>(std::find(th.begin(), th.end(), "box.px") - th.begin());
  ASSERT_LT(box_x, th.size());
  // contacts.csv row i belongs to the step that ended at t_i; the ECP is where the body is at its end.
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_NEAR(std::stod(rows[i][px]) - std::stod(trajectory[i + 1][box_x]), mu * c, kTol) << "row " << i;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace impetus
