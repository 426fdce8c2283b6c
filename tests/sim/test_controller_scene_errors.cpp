// <controller> in a scene: what the loader builds, and every bad input refused with file, line and what is
// wrong — an unknown controller, joints it cannot drive, and trajectory files with a missing column or a
// non-finite value.
#include <gtest/gtest.h>

#include <cmath>

#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

const std::string kMarker = "<!-- here -->";

const std::string kArm = R"(<robot name="arm">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.3 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="lower"><inertial><origin xyz="0.3 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="5" velocity="2"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/><origin xyz="0.6 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="5" velocity="2"/></joint>
  <joint name="weld" type="fixed"><parent link="base"/><child link="tool"/></joint>
  <link name="tool"/>
</robot>
)";

std::string scene(const std::string& controller) {
  return "<scene name=\"s\">\n<model name=\"arm\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"shoulder\" position=\"0.3\"/>\n" +
         controller + "\n</model>\n</scene>\n";
}

TEST(ControllerScene, DefaultsDriveEveryJointHoldingTheInitialPose) {
  test::TempDir dir("controller_scene");
  dir.write("arm.urdf", kArm);
  const World world = load_scene(dir.write("scene.xml", scene(R"(<controller type="pid" kp="10" kd="1"/>)")));
  ASSERT_EQ(world.model.controllers.size(), 1u);
  const ControllerSpec& spec = world.model.controllers[0];
  EXPECT_EQ(spec.joints, (std::vector<std::string>{"arm.shoulder", "arm.elbow"}));
  EXPECT_EQ(spec.settings.kp, 10);
  Eigen::VectorXd q, qd, qdd;
  spec.trajectory.evaluate(0.7, q, qd, qdd);
  EXPECT_EQ(q, Eigen::Vector2d(0.3, 0.0));
  EXPECT_EQ(qd, Eigen::Vector2d::Zero());
}

TEST(ControllerScene, SinusoidAndCsvTrajectories) {
  test::TempDir dir("controller_scene");
  dir.write("arm.urdf", kArm);
  // q = 0.1 t² sampled every 0.1 s: central differences give q̇ = 0.2 t exactly at inner rows and q̈ = 0.2.
  std::string csv = "t,shoulder\n";
  for (int i = 0; i <= 10; ++i) csv += std::to_string(0.1 * i) + "," + std::to_string(0.1 * 0.01 * i * i) + "\n";
  dir.write("traj.csv", csv);
  const World world = load_scene(dir.write("scene.xml", scene(R"(<controller type="id_no_contact" trajectory="traj.csv"><joint name="shoulder"/></controller>)")));
  Eigen::VectorXd q, qd, qdd;
  world.model.controllers[0].trajectory.evaluate(0.5, q, qd, qdd);
  EXPECT_NEAR(q[0], 0.025, 1e-9);
  EXPECT_NEAR(qd[0], 0.1, 1e-9);
  EXPECT_NEAR(qdd[0], 0.2, 1e-9);

  const World sine = load_scene(dir.write(
      "sine.xml", scene(R"(<controller type="pid"><joint name="elbow" offset="1" amplitude="0.5" frequency="2" phase="0.1"/></controller>)")));
  sine.model.controllers[0].trajectory.evaluate(0.3, q, qd, qdd);
  const double w = 2 * M_PI * 2, a = w * 0.3 + 0.1;
  EXPECT_NEAR(q[0], 1 + 0.5 * std::sin(a), 1e-12);
  EXPECT_NEAR(qd[0], 0.5 * w * std::cos(a), 1e-12);
  EXPECT_NEAR(qdd[0], -0.5 * w * w * std::sin(a), 1e-12);
}

struct Case {
  const char* name;
  std::string controller;     // the <controller> element, with kMarker on the line at fault
  std::string csv;            // traj.csv (when used), with kMarker on the line at fault
  const char* says;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class ControllerMalformed : public ::testing::TestWithParam<Case> {};

TEST_P(ControllerMalformed, IsRefusedWithFileAndLine) {
  test::TempDir dir("controller_errors");
  dir.write("arm.urdf", kArm);
  const Case& c = GetParam();
  std::string csv = c.csv;
  const int csv_line = csv.empty() ? 0 : test::line_of(csv, kMarker);
  if (!csv.empty()) csv.replace(csv.find(kMarker), kMarker.size(), "");
  if (!csv.empty()) dir.write("traj.csv", csv);
  const std::string text = scene(c.controller);
  const std::string file = dir.write("scene.xml", text);
  try {
    load_scene(file);
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    if (csv_line > 0) {
      EXPECT_TRUE(e.file().ends_with("traj.csv")) << e.what();
      EXPECT_EQ(e.line(), csv_line) << e.what();
    } else {
      EXPECT_EQ(e.file(), file);
      EXPECT_EQ(e.line(), test::line_of(text, kMarker)) << e.what();
    }
    EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ControllerMalformed,
    ::testing::Values(
        Case{"UnknownController", R"(<controller type="mpc"/>)" + kMarker, "", "unknown controller \"mpc\""},
        Case{"UnknownOption", R"(<controller type="pid" stage_two="true"/>)" + kMarker, "", "not an option of controller pid"},
        Case{"NegativeGain", R"(<controller type="pid" kp="-1"/>)" + kMarker, "", "gain ≥ 0"},
        Case{"LagBeyondTwo", R"(<controller type="id_no_contact" lag="3"/>)" + kMarker, "", "attribute lag"},
        Case{"JointNotInModel", "<controller type=\"pid\">\n<joint name=\"wrist\"/>" + kMarker + "\n</controller>", "",
             "a joint of"},
        Case{"FixedJoint", "<controller type=\"pid\">\n<joint name=\"weld\"/>" + kMarker + "\n</controller>", "",
             "drives only revolute"},
        Case{"JointTwice",
             "<controller type=\"pid\">\n<joint name=\"elbow\"/>\n<joint name=\"elbow\"/>" + kMarker + "\n</controller>", "",
             "already driven"},
        Case{"MissingFile", R"(<controller type="pid" trajectory="none.csv"/>)" + kMarker, "", "none.csv"},
        Case{"MissingColumn", R"(<controller type="pid" trajectory="traj.csv"/>)", "t,shoulder" + kMarker + "\n0,0\n",
             "missing column 'elbow'"},
        Case{"NonFiniteValue", R"(<controller type="pid" trajectory="traj.csv"/>)",
             "t,shoulder,elbow\n0,0,0\n0.1,nan,0" + kMarker + "\n", "not finite"},
        Case{"NotANumber", R"(<controller type="pid" trajectory="traj.csv"/>)",
             "t,shoulder,elbow\n0,0,0\n0.1,zero,0" + kMarker + "\n", "expected a number"},
        Case{"TimeNotIncreasing", R"(<controller type="pid" trajectory="traj.csv"/>)",
             "t,shoulder,elbow\n0.1,0,0\n0.1,0,0" + kMarker + "\n", "does not increase"},
        Case{"ShortRow", R"(<controller type="pid" trajectory="traj.csv"/>)", "t,shoulder,elbow\n0,0" + kMarker + "\n",
             "expected 3 values"},
        Case{"UnknownColumn", R"(<controller type="pid" trajectory="traj.csv"/>)",
             "t,shoulder,elbow,wrist" + kMarker + "\n0,0,0,0\n", "column 'wrist'"},
        Case{"TrotLegNotALink",
             "<controller type=\"pid\">\n<trot legs=\"a b c d\" base_height=\"0.2\" foot_height=\"0.01\"/>" + kMarker +
                 "\n</controller>",
             "", "'a' is not a link"},
        Case{"TrotNotFourLegs",
             "<controller type=\"pid\">\n<trot legs=\"upper lower\" base_height=\"0.2\" foot_height=\"0.01\"/>" +
                 kMarker + "\n</controller>",
             "", "four abduction links"},
        Case{"TrotAndTrajectoryFile",
             "<controller type=\"pid\" trajectory=\"traj.csv\">\n<trot legs=\"upper upper upper upper\" "
             "base_height=\"0.2\" foot_height=\"0.01\"/>" + kMarker + "\n</controller>",
             "", "not both"},
        Case{"TrotAnchorAimAboveOne",
             "<controller type=\"pid\">\n<trot legs=\"upper upper upper upper\" base_height=\"0.2\" "
             "foot_height=\"0.01\" anchor_aim=\"1.5\"/>" + kMarker + "\n</controller>",
             "", "anchor_aim: expected a number in [0, 1]"},
        Case{"TrotOnAFixedBase",
             "<controller type=\"pid\">\n<trot legs=\"upper upper upper upper\" base_height=\"0.2\" "
             "foot_height=\"0.01\"/>" + kMarker + "\n</controller>",
             "", "needs a floating base"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace impetus
