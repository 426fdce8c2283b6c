// impetus replay (tools/impetus/replay.hpp): the list, a short LINKS stance replay writing metrics.json
// beside the run files, the same replay twice giving the same files, and refusals of unknown names.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/tools/run_impetus.hpp"

namespace {

namespace fs = std::filesystem;
using impetus::test::run_impetus;

fs::path scratch(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("impetus-replay-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CliReplay, ListNamesEveryReplayFirstOnItsLine) {
  const auto out = run_impetus("replay --list");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(out.text.rfind("links_stance  ", 0), 0u) << out.text;
  for (const char* name : {"\nlinks_trot  ", "\narm7_grasp  ", "\nseed000_grasp  ", "\nseed000_walk  "})
    EXPECT_NE(out.text.find(name), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("controllers id_qp_coulomb,"), std::string::npos) << out.text;
}

TEST(CliReplay, StanceReplayWritesMetricsAndIsDeterministic) {
  // 0.2 s of LINKS standing under id_lcp_coulomb on stewart_trinkle: the ground carries the robot's weight
  // and the twin prediction matches the simulator.
  const fs::path a = scratch("a"), b = scratch("b");
  const std::string args = "replay links_stance --controller id_lcp_coulomb --terrain flat --duration 0.2 --out ";
  const auto run_a = run_impetus(args + a.string());
  ASSERT_EQ(run_a.status, 0) << run_a.text;
  ASSERT_EQ(run_impetus(args + b.string()).status, 0);
  for (const char* file : {"replay.xml", "trajectory.csv", "summary.json", "control.csv", "metrics.json", "series.csv", "timing.json"})
    ASSERT_TRUE(fs::exists(a / file)) << file;
  EXPECT_EQ(read(a / "metrics.json"), read(b / "metrics.json"));
  EXPECT_EQ(read(a / "series.csv"), read(b / "series.csv"));
  EXPECT_EQ(read(a / "trajectory.csv"), read(b / "trajectory.csv"));
  const nlohmann::json m = nlohmann::json::parse(read(a / "metrics.json"));
  EXPECT_EQ(m["controller"], "id_lcp_coulomb");
  // Fig. 19's samples: every call counted once, under the contact count of its step (4 feet standing).
  const nlohmann::json t = nlohmann::json::parse(read(a / "timing.json"));
  long calls = 0;
  for (const nlohmann::json& row : t["id_call_s_by_contacts"]) calls += row["calls"].get<long>();
  EXPECT_EQ(calls, t["id_call_s"]["calls"].get<long>());
  EXPECT_EQ(calls, 200);
  EXPECT_EQ(m["steps"], 200);
  constexpr double kWeight = 4.8 * 9.81, kSettling = 0.01;   // standing still: the 1 %
  EXPECT_NEAR(m["table5"]["normal_force_simulated_N"].get<double>(), kWeight, kSettling * kWeight);
  constexpr double kTwin = 0.01;   // the 1 % between a controller and its twin model
  EXPECT_LT(m["table5"]["normal_force_rel_error"].get<double>(), kTwin);
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(CliReplay, MatrixRunsEveryCellAndWritesTheReport) {
  // seed000_grasp's matrix: one cell per contact model it compares, each with its metrics (the grasp held:
  // Table 6) and its clock readings apart in timing.json; report.md has a row per model and the paper's ratio,
  // report.html the same and a figure.
  const fs::path dir = scratch("matrix");
  const auto out = run_impetus("replay seed000_grasp --matrix --duration 0.2 --out " + dir.string());
  ASSERT_EQ(out.status, 0) << out.text;
  for (const char* cell : {"none-none-no_slip", "none-none-stewart_trinkle", "none-none-no_slip_lemke"}) {
    const nlohmann::json m = nlohmann::json::parse(read(dir / cell / "metrics.json"));
    EXPECT_EQ(m["steps"], 20) << cell;
    EXPECT_FALSE(m["table6"]["dropped"].get<bool>()) << cell;
    EXPECT_FALSE(m.contains("wall_s")) << cell;
    const nlohmann::json t = nlohmann::json::parse(read(dir / cell / "timing.json"));
    EXPECT_GT(t["contact_stage_s"]["total"].get<double>(), 0) << cell;
  }
  const std::string report = read(dir / "report.md");
  for (const char* row : {"| no_slip | 20 | held |", "| stewart_trinkle | 20 | held |", "6.58 (10.9681 s / 1.6680 s)"})
    EXPECT_NE(report.find(row), std::string::npos) << row << "\n" << report;
  // report.html: the same tables, and the grasp's slip in time with a line per model from its series.csv
  // (dt = 0.01 s: one sample a step, 20 rows).
  const std::string html = read(dir / "report.html");
  EXPECT_NE(html.find("<td>no_slip</td><td>20</td><td>held</td>"), std::string::npos) << html;
  const size_t svg = html.find("<svg"), end = html.find("</svg>");
  ASSERT_NE(svg, std::string::npos);
  const std::string figure = html.substr(svg, end - svg);
  int lines = 0;
  for (size_t at = figure.find("<polyline"); at != std::string::npos; at = figure.find("<polyline", at + 1)) ++lines;
  EXPECT_EQ(lines, 3);   // a box's slip is measured at every sample: one unbroken line per model
  for (const char* model : {">no_slip<", ">stewart_trinkle<", ">no_slip:lemke<"})
    EXPECT_NE(figure.find(model), std::string::npos) << model;
  std::ifstream series(dir / "none-none-no_slip" / "series.csv");
  int rows = 0;
  for (std::string line; std::getline(series, line);) ++rows;
  EXPECT_EQ(rows, 1 + 20);
  fs::remove_all(dir);
}

TEST(CliReplay, UnknownNamesAreRefused) {
  for (const char* args : {"replay nothing", "replay links_stance --controller nope", "replay links_trot --terrain hills",
                           "replay links_stance --terrain flat_sticky"}) {
    const auto out = run_impetus(args);
    EXPECT_EQ(out.status, 1) << args << "\n" << out.text;
    EXPECT_NE(out.text.find("one of:"), std::string::npos) << out.text;
  }
}

}  // namespace
