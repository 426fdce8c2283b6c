// Contact-problem dumps (contact/dump/problem_dump.hpp): a step's problems written and read back are solved
// by a fresh model of the same name and options to the same v⁺ and impulses, bit for bit, under every model;
// a damaged file is refused with its name and the byte where it went wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "contact/dump/problem_dump.hpp"
#include "contact/factory.hpp"
#include "sim/scene/scene_loader.hpp"
#include "sim/stepper.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

/// Same bits (NaN-safe, and −0 ≠ +0): the dump must carry every input the solve depends on.
bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

struct DumpCase {
  const char* scene;
  const char* model;
  int steps;    // the dump is of the last of these steps: contacts present, warm starts in use
};

class ProblemDumpRoundTrip : public ::testing::TestWithParam<DumpCase> {};

TEST_P(ProblemDumpRoundTrip, ASolveOfTheDumpGivesTheStepsVPlusBitForBit) {
  const DumpCase& c = GetParam();
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/" + c.scene);
  Stepper stepper(world.model, c.model, world.model.physics.dt);
  State state = world.initial;
  for (int k = 0; k < c.steps; ++k) stepper.step(state);
  const StepData& d = stepper.data();
  ASSERT_GT(d.islands.size(), 0u) << "the scene must be in contact at the dumped step";

  const test::TempDir dir("problem_dump");
  const std::string file = dir.path() + "/" + problem_dump_file_name(c.steps);
  const auto it = world.model.physics.model_options.find(c.model);
  const ModelOptions options = it == world.model.physics.model_options.end() ? ModelOptions{} : it->second;
  write_problem_dump(file, c.model, options, c.steps, state.t, d.problems, d.islands.size());

  const ProblemDump dump = read_problem_dump(file);
  EXPECT_EQ(dump.model, c.model);
  EXPECT_EQ(dump.options, options);
  EXPECT_EQ(dump.step, c.steps);
  ASSERT_EQ(dump.problems.size(), d.islands.size());
  const std::unique_ptr<ContactModel> model = make_contact_model(dump.model, dump.options);
  for (std::size_t k = 0; k < dump.problems.size(); ++k) {
    const ContactProblem& p = dump.problems[k]->problem;
    EXPECT_EQ(p.nc, d.problems[k].nc);
    ContactResult result;
    model->solve(p, result);
    const ContactResult& original = d.results[k];
    EXPECT_TRUE(same_bits(result.v_plus, original.v_plus)) << "island " << k;
    EXPECT_TRUE(same_bits(result.p_N, original.p_N)) << "island " << k;
    EXPECT_TRUE(same_bits(result.p_S, original.p_S)) << "island " << k;
    EXPECT_TRUE(same_bits(result.p_T, original.p_T)) << "island " << k;
    EXPECT_TRUE(same_bits(result.q_plus, original.q_plus)) << "island " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, ProblemDumpRoundTrip,
    ::testing::Values(DumpCase{"spheres_drop.xml", "stewart_trinkle", 400}, DumpCase{"spheres_drop.xml", "no_slip", 400},
                      DumpCase{"spheres_drop.xml", "viscous", 400},
                      DumpCase{"spheres_drop.xml", "max_dissipation", 400},
                      DumpCase{"stack10.xml", "stewart_trinkle", 20}, DumpCase{"ecp_tbar.xml", "ecp", 50}),
    [](const auto& info) {
      std::string s = info.param.scene;
      return s.substr(0, s.find('.')) + "_" + info.param.model;
    });

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The message of the DumpError that reading `path` throws (empty when it reads).
std::string refusal(const std::string& path) {
  try {
    read_problem_dump(path);
  } catch (const dump::DumpError& e) {
    return e.what();
  }
  return "";
}

TEST(ProblemDump, ADamagedFileIsRefusedNamingTheFileAndWhatIsWrong) {
  const World world = load_scene(std::string(IMPETUS_SOURCE_DIR) + "/scenes/stack10.xml");
  Stepper stepper(world.model, "stewart_trinkle", world.model.physics.dt);
  State state = world.initial;
  stepper.step(state);
  const test::TempDir dir("problem_dump_bad");
  const std::string good = dir.path() + "/good.icp";
  write_problem_dump(good, "stewart_trinkle", {}, 1, 0.0, stepper.data().problems, stepper.data().islands.size());
  const std::string bytes = read_bytes(good);
  ASSERT_GT(bytes.size(), 100u);
  EXPECT_EQ(refusal(good), "");

  const std::string truncated = dir.write("truncated.icp", bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(refusal(truncated).find(truncated + ": byte "), std::string::npos) << refusal(truncated);
  EXPECT_NE(refusal(truncated).find("ends early"), std::string::npos) << refusal(truncated);

  std::string other_version = bytes;
  other_version[8] = 99;  // the u32 version follows the 8-byte magic
  const std::string versioned = dir.write("version.icp", other_version);
  EXPECT_NE(refusal(versioned).find("version 99"), std::string::npos) << refusal(versioned);

  const std::string not_a_dump = dir.write("scene.icp", "<scene/>");
  EXPECT_NE(refusal(not_a_dump).find("not a contact-problem dump"), std::string::npos) << refusal(not_a_dump);

  const std::string trailing = dir.write("trailing.icp", bytes + "x");
  EXPECT_NE(refusal(trailing).find("bytes after the last problem"), std::string::npos) << refusal(trailing);
}

}  // namespace
}  // namespace impetus
