// Every class of malformed input (XML, elements, attributes, values, references) in scene files, and the scene's own rules: each is
// refused with a LoadError naming the file and the line of the fault (marked <!-- here --> in the
// input, so the expected line comes from the input itself).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;

const std::string kMarker = "<!-- here -->";

const std::string kArm = R"(<robot name="arm">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.3 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <joint name="weld" type="fixed"><parent link="base"/><child link="tool"/></joint>
  <link name="tool"/>
</robot>
)";

/// Two coaxial revolute joints at one point with a massless link between them: each joint alone
/// moves inertia, but turning one forward and the other back moves nothing: M = [[I, I], [I, I]].
const std::string kCoaxial = R"(<robot name="coaxial">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="ring"/>
  <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="a" type="continuous"><parent link="base"/><child link="ring"/><axis xyz="0 0 1"/></joint>
  <joint name="b" type="continuous"><parent link="ring"/><child link="arm"/><axis xyz="0 0 1"/></joint>
</robot>
)";

const std::string kBox = "<collision><geometry><box size=\"1 1 1\"/></geometry></collision>";

std::string scene(const std::string& inside) { return "<scene name=\"s\">\n" + inside + "</scene>\n"; }

struct Case {
  const char* name;
  std::string text;
  const char* says;
  bool fault_in_urdf = false;  // the refusal names the URDF file (its own line), not the scene
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class SceneMalformed : public ::testing::TestWithParam<Case> {};

TEST_P(SceneMalformed, IsRefusedWithFileAndLine) {
  test::TempDir tree("scene_errors");
  tree.write("arm.urdf", kArm);
  tree.write("coaxial.urdf", kCoaxial);
  tree.write("cycle.urdf", "<robot name=\"c\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n"
                           "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                           "<joint name=\"ba\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>\n</robot>\n");
  tree.write("open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n");  // a tetrahedron missing a face
  const Case& c = GetParam();
  const std::string file = tree.write("scene.xml", c.text);
  try {
    load_scene(file);
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    if (c.fault_in_urdf) {
      EXPECT_TRUE(e.file().ends_with(".urdf")) << e.what();
      EXPECT_GT(e.line(), 0) << e.what();
    } else {
      EXPECT_EQ(e.file(), file);
      EXPECT_EQ(e.line(), test::line_of(c.text, kMarker)) << e.what();
    }
    EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Classes, SceneMalformed,
    ::testing::Values(
        // malformed XML
        Case{"malformed_xml", scene("<body name=\"b\" mass=\"1\">" + kBox + "</bdy> <!-- here -->\n"), "malformed XML"},
        Case{"not_a_scene", "<robot name=\"r\"/> <!-- here -->\n", "expected <scene>"},
        // unknown elements and attributes
        Case{"unknown_top_element", scene("<light/> <!-- here -->\n"), "unknown element"},
        Case{"unknown_body_element", scene("<body name=\"b\" mass=\"1\">" + kBox + "\n<visual/> <!-- here -->\n</body>\n"),
             "unknown element"},
        Case{"unknown_attribute", scene("<body name=\"b\" mass=\"1\" colour=\"red\">" + kBox + "</body> <!-- here -->\n"),
             "unknown attribute colour"},
        Case{"unknown_geometry_attribute",
             scene("<body name=\"b\" mass=\"1\"><collision><geometry>\n<box size=\"1 1 1\" radius=\"2\"/> <!-- here -->\n"
                   "</geometry></collision></body>\n"),
             "unknown attribute radius"},
        Case{"unknown_physics_child", scene("<physics>\n<solver/> <!-- here -->\n</physics>\n"), "unknown element inside <physics>"},
        Case{"text_inside", scene("<ground>slippery</ground> <!-- here -->\n"), "unexpected text"},
        Case{"repeated_physics", scene("<physics/>\n<physics/> <!-- here -->\n"), "at most one <physics>"},
        Case{"repeated_origin",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "<origin/>\n<origin/> <!-- here -->\n</body>\n"), "at most one <origin>"},
        // missing files
        Case{"missing_urdf", scene("<model name=\"m\" urdf=\"nowhere.urdf\" base=\"fixed\"/> <!-- here -->\n"), "file not found"},
        Case{"missing_mesh",
             scene("<body name=\"b\" mass=\"1\"><collision><geometry>\n<mesh filename=\"none.stl\"/> <!-- here -->\n"
                   "</geometry></collision></body>\n"),
             "mesh file not found"},
        // non-positive mass, inertias
        Case{"zero_mass", scene("<body name=\"b\" mass=\"0\">" + kBox + "</body> <!-- here -->\n"), "a positive number"},
        Case{"negative_density", scene("<body name=\"b\" density=\"-3\">" + kBox + "</body> <!-- here -->\n"), "a positive number"},
        Case{"inertial_zero_mass",
             scene("<body name=\"b\"><inertial>\n<mass value=\"0\"/> <!-- here -->\n"
                   "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></body>\n"),
             "must be positive"},
        Case{"inertia_not_positive_definite",
             scene("<body name=\"b\"><inertial><mass value=\"1\"/>\n"
                   "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"-1\"/> <!-- here -->\n</inertial></body>\n"),
             "not positive definite"},
        Case{"triangle_inequality",
             scene("<body name=\"b\"><inertial><mass value=\"1\"/>\n"
                   "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"3\"/> <!-- here -->\n</inertial></body>\n"),
             "triangle inequality"},
        Case{"mass_disagrees_with_inertial",
             scene("<body name=\"b\" mass=\"2\"> <!-- here -->\n<inertial><mass value=\"1\"/>"
                   "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></body>\n"),
             "differs"},
        Case{"neither_mass_nor_density", scene("<body name=\"b\">" + kBox + "</body> <!-- here -->\n"), "exactly one of mass and density"},
        Case{"both_mass_and_density", scene("<body name=\"b\" mass=\"1\" density=\"2\">" + kBox + "</body> <!-- here -->\n"),
             "exactly one of mass and density"},
        Case{"nothing_to_compute_inertia_from", scene("<body name=\"b\" mass=\"1\"/> <!-- here -->\n"), "neither an <inertial> nor"},
        Case{"open_mesh_without_inertial",
             scene("<body name=\"b\" mass=\"1\"><collision><geometry>\n<mesh filename=\"open.obj\"/> <!-- here -->\n"
                   "</geometry></collision></body>\n"),
             "does not bound a solid"},
        Case{"static_with_mass", scene("<body name=\"b\" static=\"true\" mass=\"1\">" + kBox + "</body> <!-- here -->\n"),
             "static body takes no mass"},
        Case{"static_with_velocity",
             scene("<body name=\"b\" static=\"true\">" + kBox + "\n<velocity linear=\"1 0 0\"/> <!-- here -->\n</body>\n"),
             "static body takes no <velocity>"},
        Case{"bad_boolean", scene("<body name=\"b\" static=\"yes\">" + kBox + "</body> <!-- here -->\n"), "true or false"},
        // joints naming missing links, cycles: in the URDF, refused there
        Case{"urdf_cycle", scene("<model name=\"m\" urdf=\"cycle.urdf\" base=\"fixed\"/>\n"), "kinematic cycle", true},
        // duplicate names
        Case{"duplicate_body",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<body name=\"b\" mass=\"1\">" + kBox + "</body> <!-- here -->\n"),
             "already taken"},
        Case{"model_named_like_body",
             scene("<body name=\"arm\" mass=\"1\">" + kBox + "</body>\n<model name=\"arm\" urdf=\"arm.urdf\" base=\"fixed\"/> <!-- here -->\n"),
             "already taken"},
        Case{"body_named_ground", scene("<body name=\"ground\" mass=\"1\">" + kBox + "</body> <!-- here -->\n"), "'ground'"},
        Case{"slash_in_name", scene("<body name=\"a/b\" mass=\"1\">" + kBox + "</body> <!-- here -->\n"), "without '/'"},
        Case{"dot_in_model_name", scene("<model name=\"m.1\" urdf=\"arm.urdf\" base=\"fixed\"/> <!-- here -->\n"), "'.'"},
        Case{"joint_set_twice",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"shoulder\"/>\n"
                   "<joint name=\"shoulder\"/> <!-- here -->\n</model>\n"),
             "already set"},
        Case{"duplicate_contact",
             scene("<ground/>\n<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<contact a=\"b\" b=\"ground\"/>\n"
                   "<contact a=\"ground\" b=\"b\"/> <!-- here -->\n"),
             "already has a <contact>"},
        // non-finite numbers
        Case{"nan_dt", scene("<physics dt=\"nan\"/> <!-- here -->\n"), "a positive number"},
        Case{"inf_gravity", scene("<physics gravity=\"0 0 -inf\"/> <!-- here -->\n"), "3 finite numbers"},
        Case{"nan_velocity",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "\n<velocity linear=\"nan 0 0\"/> <!-- here -->\n</body>\n"),
             "3 finite numbers"},
        Case{"nan_joint_position",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"shoulder\" position=\"nan\"/> <!-- here -->\n</model>\n"),
             "a finite number"},
        // models and joints
        Case{"unknown_joint",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"elbow\"/> <!-- here -->\n</model>\n"),
             "a joint of"},
        Case{"fixed_joint_position",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"weld\" position=\"1\"/> <!-- here -->\n</model>\n"),
             "is fixed"},
        Case{"position_beyond_limit",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<joint name=\"shoulder\" position=\"1.2\"/> <!-- here -->\n</model>\n"),
             "within the joint's limits"},
        Case{"bad_base", scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"wobbly\"/> <!-- here -->\n"), "floating or fixed"},
        Case{"missing_base", scene("<model name=\"m\" urdf=\"arm.urdf\"/> <!-- here -->\n"), "attribute base is missing"},
        Case{"singular_mass_matrix", scene("<model name=\"m\" urdf=\"coaxial.urdf\" base=\"fixed\"/> <!-- here -->\n"), "singular"},
        // contacts
        Case{"unknown_contact_body",
             scene("<ground/>\n<contact a=\"nobody\" b=\"ground\"/> <!-- here -->\n"), "a body ID"},
        Case{"ground_without_ground",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<contact a=\"b\" b=\"ground\"/> <!-- here -->\n"),
             "no <ground>"},
        Case{"contact_with_itself",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<contact a=\"b\" b=\"b\"/> <!-- here -->\n"), "same body"},
        Case{"negative_mu", scene("<ground mu=\"-0.1\"/> <!-- here -->\n"), "a non-negative number"},
        // contact models and their options (judged by the factory)
        Case{"unknown_contact_model", scene("<physics contact_model=\"magic\"/> <!-- here -->\n"), "one of stewart_trinkle"},
        Case{"bad_option",
             scene("<physics contact_model=\"stewart_trinkle\">\n<stewart_trinkle friction_edges=\"3\"/> <!-- here -->\n</physics>\n"),
             "friction_edges"},
        Case{"unknown_option",
             scene("<physics>\n<stewart_trinkle colour=\"red\"/> <!-- here -->\n</physics>\n"), "colour"},
        Case{"xacro_in_scene", scene("<physics dt=\"${dt}\"/> <!-- here -->\n"), "run xacro first"},
        // loads and actuators
        Case{"load_unknown_body", scene("<load body=\"nobody\" force=\"1 0 0\"/> <!-- here -->\n"), "a body ID"},
        Case{"load_on_static_body",
             scene("<body name=\"wall\" static=\"true\">" + kBox + "</body>\n<load body=\"wall\" force=\"1 0 0\"/> <!-- here -->\n"),
             "cannot move"},
        Case{"load_ends_before_it_starts",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<load body=\"b\" start=\"2\" end=\"1\"/> <!-- here -->\n"),
             "a time after start"},
        Case{"load_bad_vector",
             scene("<body name=\"b\" mass=\"1\">" + kBox + "</body>\n<load body=\"b\" force=\"1 0\"/> <!-- here -->\n"),
             "force"},
        Case{"actuator_unknown_joint",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<actuator joint=\"elbow\" effort=\"1\"/> <!-- here -->\n</model>\n"),
             "a joint of"},
        Case{"actuator_on_fixed_joint",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<actuator joint=\"weld\" effort=\"1\"/> <!-- here -->\n</model>\n"),
             "only revolute, continuous and prismatic joints take an actuator"},
        Case{"actuator_twice",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<actuator joint=\"shoulder\" effort=\"1\"/>\n"
                   "<actuator joint=\"shoulder\" kp=\"2\"/> <!-- here -->\n</model>\n"),
             "already has an <actuator>"},
        Case{"actuator_negative_gain",
             scene("<model name=\"m\" urdf=\"arm.urdf\" base=\"fixed\">\n<actuator joint=\"shoulder\" kd=\"-1\"/> <!-- here -->\n</model>\n"),
             "kd"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(SceneMissingFile, IsRefusedNamingIt) {
  try {
    load_scene("/nonexistent/impetus/scene.xml");
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/impetus/scene.xml");
    EXPECT_EQ(e.line(), 0);
  }
}

TEST(SceneTriangleInequality, RepairedWithAWarningRefusedWhenStrictOrTakenAsWritten) {
  // A URDF whose inertia no mass distribution has (0.1 + 0.1 < 0.3) loads repaired with a warning
  // naming the URDF and its <inertia> line; <scene strict="true"> and SceneLoadOptions::strict (the
  // CLI's --strict) refuse it there; check_triangle_inequality="false" takes it as written.
  test::TempDir tree("scene_errors");
  const std::string urdf = tree.write("odd.urdf", R"(<robot name="odd">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.3"/></inertial></link>
</robot>
)");
  const std::string model = "<model name=\"m\" urdf=\"odd.urdf\" base=\"floating\"/>\n";
  const std::string plain = tree.write("plain.xml", scene(model));
  const World world = load_scene(plain);
  ASSERT_EQ(world.model.warnings.size(), 1u);
  EXPECT_EQ(world.model.warnings[0].file, urdf);
  EXPECT_EQ(world.model.warnings[0].line, 2);
  EXPECT_NE(world.model.warnings[0].message.find("triangle inequality"), std::string::npos);
  ASSERT_EQ(world.urdf_models.size(), 1u);
  EXPECT_EQ(world.urdf_models[0].warnings.size(), 1u);
  for (const std::string& strict : {std::string("strict=\"true\""), std::string()}) {
    std::string text = scene(model);
    if (!strict.empty()) text.replace(text.find("<scene") + 6, 0, " " + strict);
    const std::string file = tree.write("strict.xml", text);
    try {
      load_scene(file, {strict.empty()});
      ADD_FAILURE() << "expected a refusal";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), urdf);
      EXPECT_EQ(e.line(), 2);
    }
  }
  const std::string lenient =
      tree.write("lenient.xml", scene("<model name=\"m\" urdf=\"odd.urdf\" base=\"floating\" check_triangle_inequality=\"false\"/>\n"));
  const World as_written = load_scene(lenient);
  EXPECT_EQ(as_written.model.multibody.nv, 6);
  EXPECT_TRUE(as_written.model.warnings.empty());
}

}  // namespace
}  // namespace impetus
