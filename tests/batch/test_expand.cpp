// Manifest expansion: ids stable, unique and readable; shards partition the runs; refusals name the line.
#include <gtest/gtest.h>

#include <set>

#include "batch/expand.hpp"
#include "batch/manifest.hpp"
#include "batch_fixture.hpp"
#include "base/load_error.hpp"

namespace impetus::batch {
namespace {

using test::TempDir;
using RunSpec = impetus::batch::Run;  // inside a TEST, Run is gtest's member

const char* kManifest = R"(
name = "grid"
scenes = ["a/box.xml", "b/box.xml"]
models = ["stewart_trinkle", "max_dissipation"]
dt = [0.001, 0.002]
[options.stewart_trinkle]
friction_edges = [4, 8]
[params]
"physics/@mu" = [0.3, 0.5]

[[include]]
scenes = ["a/box.xml"]
models = "no_slip"

[[include]]                 # a duplicate of a run of the product: kept once
scenes = ["a/box.xml"]
models = "max_dissipation"
dt = 0.002
params = { "physics/@mu" = 0.5 }

[[exclude]]
model = "max_dissipation"
dt = 0.001
params = { mu = "0.3" }
)";

std::vector<RunSpec> expand_in(const TempDir& dir, const std::string& text) {
  dir.write("a/box.xml", test::box_scene(0.3));
  dir.write("b/box.xml", test::box_scene(0.3));
  return expand(load_manifest(dir.write("m.toml", text)));
}

TEST(Expand, IdsAreUniqueReadableAndTheSameEveryTime) {
  TempDir dir("batch_expand");
  const std::vector<RunSpec> runs = expand_in(dir, kManifest);
  // 2 scenes × (stewart_trinkle: 2 dt × 2 edges × 2 μ + max_dissipation: 2 dt × 2 μ − 2 excluded... ) + no_slip
  // stewart_trinkle 2·2·2 = 8 per scene, max_dissipation 2·2 − 1 excluded = 3 per scene, no_slip 1.
  EXPECT_EQ(runs.size(), 2 * (8 + 3) + 1u);
  std::set<std::string> ids;
  for (const RunSpec& r : runs) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
    EXPECT_EQ(r.id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-=+"),
              std::string::npos)
        << r.id;
  }
  // Another expansion, from another folder (another machine): the same ids in the same order.
  TempDir other("batch_expand_other");
  const std::vector<RunSpec> again = expand_in(other, kManifest);
  ASSERT_EQ(again.size(), runs.size());
  for (std::size_t k = 0; k < runs.size(); ++k) EXPECT_EQ(again[k].id, runs[k].id);
  // Two scenes with the same file name get a hash of their parameters; the rest read as parameters.
  EXPECT_EQ(runs[0].id.rfind("box-stewart_trinkle-dt0.001-friction_edges=4-mu=0.3-", 0), 0u) << runs[0].id;
  EXPECT_EQ(runs.back().id, "box-no_slip");
  for (const RunSpec& r : runs)
    EXPECT_FALSE(r.model == "max_dissipation" && r.dt == 0.001 && r.overrides.back().value == "0.3") << r.id;
}

TEST(Expand, ShardsCoverEveryRunExactlyOnce) {
  TempDir dir("batch_shard");
  const std::vector<RunSpec> runs = expand_in(dir, kManifest);
  for (std::size_t n : {1u, 2u, 3u, 7u, 100u}) {
    std::vector<int> seen(runs.size(), 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k : shard_indices(runs.size(), i, n)) ++seen.at(k);
    for (std::size_t k = 0; k < runs.size(); ++k) EXPECT_EQ(seen[k], 1) << "run " << k << " with " << n << " shards";
  }
}

TEST(Expand, BadManifestsAreRefusedWithTheirLine) {
  TempDir dir("batch_bad");
  dir.write("box.xml", test::box_scene(0.3));
  auto refusal = [&](const std::string& text) -> std::string {
    try {
      load_manifest(dir.write("bad.toml", text));
    } catch (const LoadError& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(refusal("scenes = [\"box.xml\"]\nmodels = [\"coulomb\"]\n").find("bad.toml:2: error: unknown contact model 'coulomb'"),
            std::string::npos);
  EXPECT_NE(refusal("scenes = [\"box.xml\"]\n\ndtt = 0.1\n").find("bad.toml:3: error: unknown key 'dtt'"), std::string::npos);
  EXPECT_NE(refusal("scenes = [\"nope.xml\"]\n").find("no scene file 'nope.xml'"), std::string::npos);
  EXPECT_NE(refusal("scenes = [\"box.xml\"]\ndt = -1\n").find("bad.toml:2: error: dt: expected a positive number"),
            std::string::npos);
  EXPECT_NE(refusal("scenes = [\"box.xml\"\n").find("bad.toml:"), std::string::npos);  // TOML syntax
  EXPECT_NE(refusal("scenes = [\"box.xml\"]\n[tolerances]\nfinal_position = \"x\"\n").find("bad.toml:3:"),
            std::string::npos);
}

}  // namespace
}  // namespace impetus::batch
