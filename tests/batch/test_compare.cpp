// `impetus compare`: a changed μ in one run is a regression named with its metric and size;
// identical folders compare clean; exit status 0 clean, 2 regressed, 1 bad input.
#include <gtest/gtest.h>

#include "batch/compare.hpp"
#include "batch_fixture.hpp"

namespace impetus::test {
namespace {

namespace fs = std::filesystem;

/// A batch of two sliding boxes in `dir`, the second with friction coefficient `mu_b`.
fs::path batch_with(const TempDir& dir, const std::string& name, double mu_b) {
  dir.write(name + "/a.xml", box_scene(0.3));
  dir.write(name + "/b.xml", box_scene(mu_b));
  const std::string manifest = dir.write(name + "/m.toml", "scenes = [\"a.xml\", \"b.xml\"]\nrecord_dt = 0.01\n");
  const fs::path out = fs::path(dir.path()) / name / "out";
  const Output o = run_impetus("batch " + manifest + " --out " + out.string() + " --jobs 2");
  EXPECT_EQ(o.status, 0) << o.text;
  return out;
}

TEST(Compare, IdenticalBatchesCompareClean) {
  TempDir dir("compare_same");
  const fs::path a = batch_with(dir, "base", 0.3), b = batch_with(dir, "cand", 0.3);
  const Output o = run_impetus("compare " + a.string() + " " + b.string());
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("2 runs, 0 regressed"), std::string::npos) << o.text;
  EXPECT_TRUE(fs::exists(b / "compare.md"));
  EXPECT_TRUE(fs::exists(b / "compare.html"));
}

TEST(Compare, AChangedFrictionCoefficientIsARegressionWithItsMetricAndSize) {
  TempDir dir("compare_mu");
  const fs::path a = batch_with(dir, "base", 0.3), b = batch_with(dir, "cand", 0.35);
  const Output o = run_impetus("compare " + a.string() + " " + b.string());
  EXPECT_EQ(o.status, 2) << o.text;
  // Regressions first: the changed run, with the trajectory metric and its size.
  EXPECT_EQ(o.text.rfind("REGRESSION b:", 0), 0u) << o.text;
  EXPECT_EQ(o.text.find("REGRESSION a:"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("trajectory_position"), std::string::npos) << o.text;

  const batch::Comparison c = batch::compare_batches(a, b, std::nullopt);
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.runs[0].id, "b");
  EXPECT_TRUE(c.runs[0].regressed());
  EXPECT_FALSE(c.runs[1].regressed());
  // Box sliding from v0 = 1 m/s decelerates at μg: after t = 0.2 s its velocities differ by
  // Δμ·g·t = 0.05·9.81·0.2 = 0.098 m/s and its positions by Δμ·g·t²/2 = 0.0098 m.
  for (const batch::Metric& m : c.runs[0].metrics) {
    if (m.name == "final_velocity") {
      EXPECT_NEAR(m.size, 0.05 * 9.81 * 0.2, 0.002) << m.detail;
    }
    if (m.name == "trajectory_position") {
      EXPECT_NEAR(m.size, 0.05 * 9.81 * 0.2 * 0.2 / 2, 0.0005) << m.detail;
      EXPECT_NE(m.detail.find("box.px"), std::string::npos) << m.detail;
    }
  }
  ASSERT_TRUE(c.runs[0].worst.has_value());
  EXPECT_EQ(c.runs[0].worst->column, "box.px");
  const std::string html = read_file(b / "compare.html");
  EXPECT_NE(html.find("id=plots"), std::string::npos);
  // Self-contained: nothing loaded from elsewhere.
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(read_file(b / "compare.md").find("| b | REGRESSED |"), std::string::npos);

  // A looser tolerance from a manifest accepts the change.
  const std::string loose = dir.write("loose.toml", "scenes = [\"x.xml\"]\n[tolerances.runs.\"b\"]\n"
                                                    "final_position = 1\nfinal_velocity = 1\ntrajectory_position = 1\n"
                                                    "trajectory_velocity = 1\nenergy_gain = 1\ncontacts_mean = 1\n");
  const Output accepted = run_impetus("compare " + a.string() + " " + b.string() + " --manifest " + loose);
  EXPECT_EQ(accepted.status, 0) << accepted.text;
}

TEST(Compare, AMissingRunIsARegressionAndBadInputExits1) {
  TempDir dir("compare_missing");
  const fs::path a = batch_with(dir, "base", 0.3), b = batch_with(dir, "cand", 0.3);
  fs::remove_all(b / "a");
  const Output o = run_impetus("compare " + a.string() + " " + b.string());
  EXPECT_EQ(o.status, 2) << o.text;
  EXPECT_NE(o.text.find("REGRESSION a:\n    status ok → missing"), std::string::npos) << o.text;
  EXPECT_EQ(run_impetus("compare " + a.string() + " " + dir.path() + "/nowhere").status, 1);
}

TEST(Compare, FieldsItDoesNotKnowAreIgnored) {
  TempDir dir("compare_fields");
  const fs::path a = batch_with(dir, "base", 0.3), b = batch_with(dir, "cand", 0.3);
  // Other tools add to summary.json (warnings, new counts): no regression from what compare ignores.
  std::string summary = read_file(b / "a" / "summary.json");
  summary.insert(summary.find('{') + 1, "\"warnings\": [\"x\"], \"failure_counts\": {\"lemke\": 0},");
  std::ofstream(b / "a" / "summary.json") << summary;
  EXPECT_EQ(run_impetus("compare " + a.string() + " " + b.string()).status, 0);
}

}  // namespace
}  // namespace impetus::test
