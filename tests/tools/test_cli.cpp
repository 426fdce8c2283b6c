// The impetus program as a user meets it: exit codes and messages for good and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/tools/run_impetus.hpp"

namespace {

namespace fs = std::filesystem;

using impetus::test::Output;
using impetus::test::run_impetus;

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("impetus-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

const std::string kGood = impetus::test::resting_box_scene("cli_box", "0.05");

TEST(Cli, ModelsListsStewartTrinkle) {
  const Output o = run_impetus("models");
  EXPECT_EQ(o.status, 0);
  EXPECT_NE(o.text.find("stewart_trinkle"), std::string::npos);
}

TEST(Cli, RunWritesTheRunFolderAndTheSummarySaysOk) {
  const fs::path scene = write("good.xml", kGood), out = scratch() / "out";
  const Output o = run_impetus("run " + scene.string() + " --out " + out.string());
  ASSERT_EQ(o.status, 0) << o.text;
  for (const char* f : {"trajectory.csv", "contacts.csv", "stats.csv", "summary.json"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_EQ(summary["steps"], 50);
}

TEST(Cli, UnknownModelIsRefused) {
  const fs::path scene = write("good2.xml", kGood);
  const Output o = run_impetus("run " + scene.string() + " --model nonsense --out " + (scratch() / "o2").string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("nonsense"), std::string::npos) << o.text;
}

/// Each class of malformed input (XML, elements, attributes, values, references): `impetus check`
/// exits 1 and names file and line.
struct BadScene {
  const char* name;
  const char* text;
};

const BadScene kBad[] = {
    {"malformed_xml", "<scene name=\"x\">\n  <physics dt=\"0.001\">\n</scene>\n"},
    {"unknown_element", "<scene name=\"x\">\n  <physics/>\n  <gound/>\n</scene>\n"},
    {"unknown_attribute", "<scene name=\"x\">\n  <physics dt=\"0.001\" colour=\"red\"/>\n</scene>\n"},
    {"negative_mass",
     "<scene name=\"x\">\n  <physics/>\n  <body name=\"b\" mass=\"-1\">\n    <collision><geometry><sphere radius=\"1\"/></geometry></collision>\n  </body>\n</scene>\n"},
    {"non_finite",
     "<scene name=\"x\">\n  <physics dt=\"nan\"/>\n</scene>\n"},
    {"missing_urdf",
     "<scene name=\"x\">\n  <physics/>\n  <model name=\"m\" urdf=\"does/not/exist.urdf\" base=\"fixed\"/>\n</scene>\n"},
    {"duplicate_body",
     "<scene name=\"x\">\n  <physics/>\n  <body name=\"b\" mass=\"1\">\n    <collision><geometry><sphere radius=\"1\"/></geometry></collision>\n  </body>\n"
     "  <body name=\"b\" mass=\"1\">\n    <collision><geometry><sphere radius=\"1\"/></geometry></collision>\n  </body>\n</scene>\n"},
    {"bad_inertia",
     "<scene name=\"x\">\n  <physics/>\n  <body name=\"b\" mass=\"1\">\n    <inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"3\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
     "    <collision><geometry><sphere radius=\"1\"/></geometry></collision>\n  </body>\n</scene>\n"},
};

class CliBadInput : public ::testing::TestWithParam<BadScene> {};

TEST_P(CliBadInput, IsRefusedWithFileAndLine) {
  const fs::path scene = write(std::string(GetParam().name) + ".xml", GetParam().text);
  const Output o = run_impetus("check " + scene.string());
  EXPECT_EQ(o.status, 1) << o.text;
  EXPECT_NE(o.text.find(scene.filename().string()), std::string::npos) << o.text;
  EXPECT_TRUE(std::regex_search(o.text, std::regex(":[0-9]+:"))) << o.text;
}

INSTANTIATE_TEST_SUITE_P(Classes, CliBadInput, ::testing::ValuesIn(kBad),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Cli, ARunPutsEachLoadWarningIntoTheSummary) {
  // Issue 17: a repaired inertia (0.1 + 0.1 < 0.3 breaks the triangle inequality) warns, and the warning
  // reaches summary.json with the URDF's file and line, so a batch run shows it.
  const fs::path urdf = write("odd_inertia.urdf", R"(<robot name="odd">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.3"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
</robot>
)");
  const fs::path scene = write("odd_inertia.xml", R"(<scene name="odd_inertia">
  <physics dt="0.001" duration="0.01" contact_model="stewart_trinkle" mu="0.5"/>
  <ground/>
  <model name="m" urdf="odd_inertia.urdf" base="floating"><origin xyz="0 0 0.5" rpy="0 0 0"/></model>
</scene>
)");
  const fs::path out = scratch() / "odd_out";
  const Output o = run_impetus("run " + scene.string() + " --out " + out.string());
  ASSERT_EQ(o.status, 0) << o.text;
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  ASSERT_EQ(summary["warnings"].size(), 1u) << summary.dump();
  EXPECT_EQ(summary["warnings"][0]["file"], urdf.string());
  EXPECT_EQ(summary["warnings"][0]["line"], 2);
  EXPECT_NE(summary["warnings"][0]["message"].get<std::string>().find("triangle inequality"), std::string::npos);
}

TEST(Cli, AUrdfWhoseColladaMeshWouldAbortAssimpIsRefusedWithTheMeshFileAndLine) {
  // The fuzz finding tests/fuzz/dae/long_texture_reference.dae (assimp 5.2 aborted on it) as a user's
  // robot would bring it: `check` exits 1 and names the mesh, its line and what is wrong.
  const fs::path mesh = scratch() / "long_texture_reference.dae";
  fs::copy_file(IMPETUS_SOURCE_DIR "/tests/fuzz/dae/long_texture_reference.dae", mesh, fs::copy_options::overwrite_existing);
  const fs::path urdf = write("camera_robot.urdf", R"(<robot name="camera_robot">
  <link name="camera">
    <inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="long_texture_reference.dae"/></geometry></collision>
  </link>
</robot>
)");
  const Output o = run_impetus("check " + urdf.string());
  EXPECT_EQ(o.status, 1) << o.text;
  EXPECT_NE(o.text.find("camera_robot.urdf:4: error: <mesh filename=\"long_texture_reference.dae\">"), std::string::npos)
      << o.text;
  EXPECT_NE(o.text.find("long_texture_reference.dae:32)"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("<texture>: texture=\"depth_camera-sa0.0033806…\" is 40804 bytes long"), std::string::npos)
      << o.text;
}

}  // namespace
