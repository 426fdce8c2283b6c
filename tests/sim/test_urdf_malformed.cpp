// Every class of malformed input (XML, elements, attributes, values, references) in URDF files: each is
// refused with a LoadError that names the file and the line of the fault — always under strict
// conversion, and by default too except for the inertias the default repairs (urdf_to_multibody.hpp),
// which then load with a warning at that same line. The faulty line is marked in the text with a comment
// <!-- here --> so that the expected line is read from the test's own input, not hard-coded.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "base/load_error.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;

/// Reads and converts; returns the refusal (fails the test when there is none).
LoadError refusal(const std::string& file, const std::vector<std::string>& package_path = {}, bool strict = true) {
  try {
    const UrdfModel urdf = read_urdf(file, package_path);
    UrdfPlacement placement;
    placement.strict = strict;
    urdf_to_multibody(urdf, placement);
  } catch (const LoadError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a LoadError for " << file;
  return LoadError(file, -1, "none");
}

/// A one-joint robot: base —joint— tip, with the given pieces spliced in.
std::string robot(const std::string& tip_inertial, const std::string& joint_body, const std::string& extra = "") {
  return "<?xml version=\"1.0\"?>\n"
         "<robot name=\"r\">\n"
         "  <link name=\"base\">\n"
         "    <inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>\n"
         "  </link>\n"
         "  <link name=\"tip\">\n" +
         tip_inertial +
         "  </link>\n"
         "  <joint name=\"j\" type=\"revolute\">\n" +
         joint_body +
         "  </joint>\n" + extra + "</robot>\n";
}

/// `text` with the marker inserted after the first `after`.
std::string mark_after(std::string text, const std::string& after) {
  return text.insert(text.find(after) + after.size(), " <!-- here -->");
}

const std::string kGoodInertial =
    "    <inertial><origin xyz=\"0.1 0 0\"/><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>\n";
const std::string kGoodJoint =
    "    <parent link=\"base\"/><child link=\"tip\"/>\n"
    "    <axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n";

struct Case {
  const char* name;
  std::string text;
  const char* says;  // a piece of the message
  bool repaired = false;  // loaded with a warning unless strict
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class UrdfMalformed : public ::testing::TestWithParam<Case> {};

TEST_P(UrdfMalformed, IsRefusedWithFileAndLine) {
  test::TempDir dir("urdf_malformed");
  const Case& c = GetParam();
  const std::string file = dir.write("robot.urdf", c.text);
  const LoadError e = refusal(file);
  EXPECT_EQ(e.file(), file);
  EXPECT_EQ(e.line(), test::line_of(c.text)) << e.what();
  EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
  EXPECT_EQ(std::string(e.what()), file + ":" + std::to_string(e.line()) + ": error: " + e.message());
  if (!c.repaired) {
    const LoadError by_default = refusal(file, {}, false);
    EXPECT_EQ(by_default.line(), e.line()) << by_default.what();
    EXPECT_EQ(by_default.message(), e.message());
    return;
  }
  const UrdfMultibody out = urdf_to_multibody(read_urdf(file, {}));
  ASSERT_EQ(out.instance.warnings.size(), 1u);
  const LoadWarning& w = out.instance.warnings.front();
  EXPECT_EQ(w.file, file);
  EXPECT_EQ(w.line, e.line());
  EXPECT_NE(w.message.find(c.says), std::string::npos) << w.text();
  EXPECT_TRUE(w.message.find("repaired") != std::string::npos || w.message.find("floored") != std::string::npos) << w.text();
}

INSTANTIATE_TEST_SUITE_P(
    Classes, UrdfMalformed,
    ::testing::Values(
        // malformed XML: tinyxml2's line (checked against tinyxml2 itself in MalformedXmlLine below)
        Case{"mismatched_tag", robot(kGoodInertial, kGoodJoint + "    <origin xyz=\"0 0 0\"></joint> <!-- here -->\n"), "malformed XML"},
        // non-positive mass: negative everywhere; zero on a moving leaf (M singular)
        Case{"negative_mass",
             robot("    <inertial>\n      <mass value=\"-2\"/> <!-- here -->\n"
                   "      <inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>\n",
                   kGoodJoint),
             "negative"},
        Case{"zero_mass_moving_leaf",
             "<robot name=\"r\">\n  <link name=\"base\"><inertial><mass value=\"1\"/>"
             "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>\n"
             "  <link name=\"tip\"><inertial><mass value=\"0\"/><inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>\n"
             "  <joint name=\"j\" type=\"continuous\"> <!-- here -->\n"
             "    <parent link=\"base\"/><child link=\"tip\"/></joint>\n</robot>\n",
             "moves no inertia", true},
        Case{"massless_leaf_on_prismatic",
             "<robot name=\"r\">\n  <link name=\"base\"/>\n  <link name=\"tip\"/>\n"
             "  <joint name=\"j\" type=\"prismatic\"> <!-- here -->\n"
             "    <parent link=\"base\"/><child link=\"tip\"/><limit effort=\"1\" velocity=\"1\" upper=\"1\"/></joint>\n</robot>\n",
             "have no mass"},
        Case{"point_mass_on_the_axis",
             mark_after(robot("    <inertial><origin xyz=\"0 0 0.3\"/><mass value=\"1\"/>"
                              "<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>\n",
                              kGoodJoint),
                        "type=\"revolute\">"),
             "on the axis", true},
        // inertia not positive definite / breaking the triangle inequality
        Case{"inertia_not_positive_definite",
             robot("    <inertial><mass value=\"1\"/>\n"
                   "      <inertia ixx=\"0.1\" ixy=\"0.2\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/> <!-- here -->\n"
                   "    </inertial>\n",
                   kGoodJoint),
             "not positive definite"},
        Case{"triangle_inequality",
             robot("    <inertial><mass value=\"1\"/>\n"
                   "      <inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.3\"/> <!-- here -->\n"
                   "    </inertial>\n",
                   kGoodJoint),
             "triangle inequality", true},
        // joints naming missing links
        Case{"missing_child_link",
             robot(kGoodInertial, kGoodJoint,
                   "  <joint name=\"k\" type=\"fixed\"> <!-- here -->\n"
                   "    <parent link=\"tip\"/><child link=\"nowhere\"/></joint>\n"),
             "'nowhere', which is not defined"},
        // kinematic cycles
        Case{"cycle",
             "<robot name=\"r\">\n  <link name=\"root\"/>\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
             "  <joint name=\"ra\" type=\"fixed\"><parent link=\"root\"/><child link=\"a\"/></joint>\n"
             "  <joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
             "  <joint name=\"ba\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint> <!-- here -->\n"
             "</robot>\n",
             "child of two joints"},
        Case{"cycle_without_root",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
             "  <joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
             "  <joint name=\"ba\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint> <!-- here -->\n"
             "</robot>\n",
             "kinematic cycle"},
        Case{"self_loop",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n"
             "  <joint name=\"aa\" type=\"fixed\"><parent link=\"a\"/><child link=\"a\"/></joint> <!-- here -->\n"
             "</robot>\n",
             "to itself"},
        Case{"several_roots",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/> <!-- here -->\n</robot>\n",
             "several root links"},
        // duplicate names
        Case{"duplicate_link",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"a\"/> <!-- here -->\n</robot>\n",
             "duplicate link name 'a'"},
        Case{"duplicate_joint",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <link name=\"c\"/>\n"
             "  <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
             "  <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint> <!-- here -->\n"
             "</robot>\n",
             "duplicate joint name 'j'"},
        // non-finite numbers, garbage, wrong counts
        Case{"nan", robot(kGoodInertial, kGoodJoint + "    <origin xyz=\"0 nan 0\"/> <!-- here -->\n"), "3 finite numbers"},
        Case{"infinity", robot(kGoodInertial, kGoodJoint + "    <origin xyz=\"0 0 1e999\"/> <!-- here -->\n"), "3 finite numbers"},
        Case{"inf_mass",
             robot("    <inertial><mass value=\"inf\"/> <!-- here -->\n"
                   "      <inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>\n",
                   kGoodJoint),
             "a finite number"},
        Case{"two_numbers", robot(kGoodInertial, kGoodJoint + "    <origin rpy=\"0 1\"/> <!-- here -->\n"), "got \"0 1\""},
        Case{"garbage", robot(kGoodInertial, kGoodJoint + "    <dynamics damping=\"lots\"/> <!-- here -->\n"), "damping"},
        // structure urdfdom refuses too
        Case{"revolute_without_limit",
             mark_after(robot(kGoodInertial, "    <parent link=\"base\"/><child link=\"tip\"/>\n"), "type=\"revolute\">"),
             "needs <limit"},
        Case{"unknown_joint_type",
             "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
             "  <joint name=\"j\" type=\"ball\"><parent link=\"a\"/><child link=\"b\"/></joint> <!-- here -->\n"
             "</robot>\n",
             "revolute, continuous, prismatic"},
        Case{"zero_axis",
             mark_after(robot(kGoodInertial, "    <parent link=\"base\"/><child link=\"tip\"/><axis/>\n"
                                             "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n"),
                        "type=\"revolute\">"),
             "zero length"},
        Case{"lower_above_upper",
             robot(kGoodInertial, "    <parent link=\"base\"/><child link=\"tip\"/>\n"
                                  "    <limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/> <!-- here -->\n"),
             "exceeds upper"},
        Case{"xacro_expression", robot(kGoodInertial, kGoodJoint + "    <origin xyz=\"${offset} 0 0\"/> <!-- here -->\n"),
             "run xacro first"},
        Case{"xacro_element", robot(kGoodInertial, kGoodJoint, "  <xacro:include filename=\"arm.xacro\"/> <!-- here -->\n"),
             "run xacro first"},
        Case{"not_a_robot", "<?xml version=\"1.0\"?>\n<scene name=\"s\"/> <!-- here -->\n", "expected <robot>"},
        // missing files
        Case{"missing_mesh",
             robot(kGoodInertial + "    <collision><geometry>\n      <mesh filename=\"meshes/none.stl\"/> <!-- here -->\n"
                                   "    </geometry></collision>\n",
                   kGoodJoint),
             "mesh file not found"},
        Case{"unresolvable_package",
             robot(kGoodInertial + "    <collision><geometry>\n      <mesh filename=\"package://nopkg/m.stl\"/> <!-- here -->\n"
                                   "    </geometry></collision>\n",
                   kGoodJoint),
             "ROS_PACKAGE_PATH"},
        Case{"unknown_geometry",
             robot(kGoodInertial + "    <collision><geometry>\n      <cone radius=\"1\"/> <!-- here -->\n"
                                   "    </geometry></collision>\n",
                   kGoodJoint),
             "unknown geometry"},
        Case{"negative_box",
             robot(kGoodInertial + "    <collision><geometry>\n      <box size=\"1 -1 1\"/> <!-- here -->\n"
                                   "    </geometry></collision>\n",
                   kGoodJoint),
             "3 positive edge lengths"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(UrdfMalformedXml, LineIsTheOneTinyxml2Reports) {
  test::TempDir dir("urdf_malformed");
  const std::string text = robot(kGoodInertial, kGoodJoint + "    <origin xyz=\"0 0 0\"></joint> <!-- here -->\n");
  tinyxml2::XMLDocument document;
  ASSERT_NE(document.Parse(text.c_str()), tinyxml2::XML_SUCCESS);
  const std::string file = dir.write("robot.urdf", text);
  const LoadError e = refusal(file);
  EXPECT_EQ(e.line(), document.ErrorLineNum());
  EXPECT_EQ(e.line(), test::line_of(text));
}

TEST(UrdfMissingFile, IsRefusedNamingIt) {
  const std::string file = "/nonexistent/impetus/robot.urdf";
  const LoadError e = refusal(file);
  EXPECT_EQ(e.file(), file);
  EXPECT_EQ(e.line(), 0);
  EXPECT_NE(e.message().find("not found"), std::string::npos);
}

TEST(UrdfMissingFile, UnreadableMeshIsRefusedAtTheMeshLine) {
  test::TempDir dir("urdf_malformed");
  dir.write("meshes/part.dae", "<COLLADA/>");  // assimp's COLLADA importer finds no geometry in it
  const std::string text = robot(kGoodInertial + "    <collision><geometry>\n      <mesh filename=\"meshes/part.dae\"/> <!-- here -->\n"
                                                 "    </geometry></collision>\n",
                                 kGoodJoint);
  const std::string file = dir.write("robot.urdf", text);
  const LoadError e = refusal(file);
  EXPECT_EQ(e.file(), file);
  EXPECT_EQ(e.line(), test::line_of(text));
  EXPECT_NE(e.message().find("cannot read the mesh"), std::string::npos) << e.what();
}

TEST(UrdfLeniency, UnknownElementsAndAttributesAreIgnoredAsUrdfdomDoes) {
  test::TempDir dir("urdf_malformed");
  const std::string text =
      "<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\">\n"
      "  <material name=\"steel\"><color rgba=\"1 1 1 1\"/></material>\n"
      "  <link name=\"base\" type=\"whatever\">\n"
      "    <inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>\n"
      "    <contact><lateral_friction value=\"1\"/></contact>\n"
      "    <visual><geometry><cone/></geometry></visual>\n"
      "    <collision><geometry><box size=\"1 1 1\"/><drake:declare_convex/></geometry><verbose value=\"0\"/></collision>\n"
      "  </link>\n"
      "  <gazebo reference=\"base\"><mu1>0.8</mu1></gazebo>\n"
      "  <transmission name=\"t\"><type>simple</type></transmission>\n"
      "  <drake:frame name=\"f\"/>\n"
      "</robot>\n";
  const UrdfModel urdf = read_urdf(dir.write("robot.urdf", text), {});
  ASSERT_EQ(urdf.links.size(), 1u);
  ASSERT_EQ(urdf.links[0].collisions.size(), 1u);
  EXPECT_EQ(urdf.links[0].collisions[0].geometry.kind, UrdfGeometry::Kind::Box);
}

}  // namespace
}  // namespace impetus
