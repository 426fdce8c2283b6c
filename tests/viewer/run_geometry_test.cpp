// geometry.json of real runs: `impetus run` writes it beside trajectory.csv, it lists every body
// of trajectory.csv (same ids, same order), and each collision element of the scene file, or of a
// model's URDF, is there with its kind, its size and its origin, as read from the XML here.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <unistd.h>

#include <Eigen/Geometry>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace impetus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Rotations compared through rpy → matrix here and quaternion → matrix there: round-off of a few
// products of sines and cosines, far below 1e-12.
constexpr double kRotationTolerance = 1e-12;
constexpr const char* kRunDuration = "0.002";   // two steps: geometry does not depend on the run

struct ExpectedShape {
  std::string kind;
  std::vector<double> size;                     // box: x y z; sphere: r; cylinder, capsule: r, length
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
};

struct ExpectedBody {
  bool is_static = false;
  std::vector<ExpectedShape> shapes;
};

std::vector<double> numbers(const char* text) {
  std::vector<double> out;
  std::istringstream in(text ? text : "");
  for (double x; in >> x;) out.push_back(x);
  return out;
}

Eigen::Vector3d vec3(const char* text) {
  const std::vector<double> v = numbers(text);
  return v.size() == 3 ? Eigen::Vector3d(v[0], v[1], v[2]) : Eigen::Vector3d::Zero();
}

/// The <collision> elements of a <body> or a URDF <link>.
std::vector<ExpectedShape> collisions(const tinyxml2::XMLElement* parent) {
  std::vector<ExpectedShape> shapes;
  for (auto* c = parent->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision")) {
    ExpectedShape s;
    if (auto* origin = c->FirstChildElement("origin")) {
      s.xyz = vec3(origin->Attribute("xyz"));
      s.rpy = vec3(origin->Attribute("rpy"));
    }
    const tinyxml2::XMLElement* g = c->FirstChildElement("geometry")->FirstChildElement();
    s.kind = g->Name();
    if (s.kind == "box") s.size = numbers(g->Attribute("size"));
    if (s.kind == "sphere") s.size = numbers(g->Attribute("radius"));
    if (s.kind == "cylinder" || s.kind == "capsule") s.size = {g->DoubleAttribute("radius"), g->DoubleAttribute("length")};
    shapes.push_back(s);
  }
  return shapes;
}

/// Bodies of a scene file by id: scene-level bodies by name, model links as MODEL/LINK.
std::map<std::string, ExpectedBody> expected_bodies(const fs::path& scene, bool& has_ground) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.LoadFile(scene.c_str()), tinyxml2::XML_SUCCESS) << scene;
  const tinyxml2::XMLElement* root = doc.FirstChildElement("scene");
  has_ground = root->FirstChildElement("ground") != nullptr;
  std::map<std::string, ExpectedBody> bodies;
  for (auto* b = root->FirstChildElement("body"); b; b = b->NextSiblingElement("body")) {
    bodies[b->Attribute("name")] = {b->BoolAttribute("static", false), collisions(b)};
  }
  for (auto* m = root->FirstChildElement("model"); m; m = m->NextSiblingElement("model")) {
    tinyxml2::XMLDocument urdf;
    const fs::path file = scene.parent_path() / m->Attribute("urdf");
    EXPECT_EQ(urdf.LoadFile(file.c_str()), tinyxml2::XML_SUCCESS) << file;
    for (auto* l = urdf.FirstChildElement("robot")->FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
      bodies[std::string(m->Attribute("name")) + "/" + l->Attribute("name")] = {false, collisions(l)};
    }
  }
  return bodies;
}

/// Body ids of trajectory.csv's header, in order (the columns ID.px).
std::vector<std::string> trajectory_bodies(const fs::path& file) {
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  std::vector<std::string> ids;
  std::istringstream columns(header);
  for (std::string c; std::getline(columns, c, ',');)
    if (c.size() > 3 && c.ends_with(".px")) ids.push_back(c.substr(0, c.size() - 3));
  return ids;
}

Eigen::Matrix3d rpy_matrix(const Eigen::Vector3d& rpy) {   // URDF: fixed-axis roll, pitch, yaw
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX())).toRotationMatrix();
}

class RunGeometry : public ::testing::TestWithParam<const char*> {};

TEST_P(RunGeometry, EveryBodyHasItsGeometryAndSizesMatchTheScene) {
  const fs::path scene = fs::path(IMPETUS_SOURCE_DIR) / "scenes" / GetParam();
  const fs::path out = fs::temp_directory_path() / ("impetus-run-geometry-" + std::to_string(::getpid())) / GetParam();
  fs::remove_all(out);
  const fs::path binary = fs::path(IMPETUS_BINARY_DIR) / "impetus";
  ASSERT_TRUE(fs::exists(binary)) << binary << " is not built";
  const std::string command = "'" + binary.string() + "' run '" + scene.string() + "' --duration " + kRunDuration +
                              " --out '" + out.string() + "' > '" + out.string() + ".log' 2>&1";
  fs::create_directories(out.parent_path());
  ASSERT_EQ(std::system(command.c_str()), 0) << command << "\n" << std::ifstream(out.string() + ".log").rdbuf();
  struct Cleanup {
    fs::path dir;
    ~Cleanup() { std::error_code ec; fs::remove_all(dir, ec); fs::remove(dir.string() + ".log", ec); }
  } cleanup{out};
  ASSERT_TRUE(fs::exists(out / "geometry.json"))
      << "`impetus run` must write geometry.json (write_geometry_json, sim/output/geometry_json.hpp)";

  std::ifstream file(out / "geometry.json");
  const json geometry = json::parse(file);
  bool has_ground = false;
  const std::map<std::string, ExpectedBody> expected = expected_bodies(scene, has_ground);
  EXPECT_EQ(geometry["ground"].is_null(), !has_ground);

  // Every body of trajectory.csv, in its order, and nothing else.
  const std::vector<std::string> ids = trajectory_bodies(out / "trajectory.csv");
  ASSERT_EQ(ids.size(), geometry["bodies"].size());
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(geometry["bodies"][i]["id"], ids[i]);

  for (const json& body : geometry["bodies"]) {
    const std::string id = body["id"];
    const auto it = expected.find(id);
    ASSERT_NE(it, expected.end()) << id << " is not in the scene";
    const ExpectedBody& want = it->second;
    if (want.is_static) {
      EXPECT_TRUE(body["static"].get<bool>()) << id;
    }
    ASSERT_EQ(body["shapes"].size(), want.shapes.size()) << id;
    for (std::size_t k = 0; k < want.shapes.size(); ++k) {
      const json& s = body["shapes"][k];
      const ExpectedShape& w = want.shapes[k];
      ASSERT_EQ(s["kind"], w.kind) << id;
      // Both sides parse the same decimal text with correctly rounded parsers: equal doubles.
      if (w.kind == "box") {
        for (int j = 0; j < 3; ++j) EXPECT_EQ(s["size"][j].get<double>(), w.size[j]) << id;
      } else if (w.kind == "sphere") {
        EXPECT_EQ(s["radius"].get<double>(), w.size[0]) << id;
      } else if (w.kind == "cylinder" || w.kind == "capsule") {
        EXPECT_EQ(s["radius"].get<double>(), w.size[0]) << id;
        EXPECT_EQ(s["length"].get<double>(), w.size[1]) << id;
      }
      for (int j = 0; j < 3; ++j) EXPECT_EQ(s["pose"]["p"][j].get<double>(), w.xyz[j]) << id;
      const json& q = s["pose"]["q"];
      const Eigen::Matrix3d R =
          Eigen::Quaterniond(q[0].get<double>(), q[1].get<double>(), q[2].get<double>(), q[3].get<double>()).toRotationMatrix();
      EXPECT_TRUE(R.isApprox(rpy_matrix(w.rpy), kRotationTolerance) || (R - rpy_matrix(w.rpy)).norm() < kRotationTolerance)
          << id << "\n" << R;
    }
  }
}

// Boxes (the stack the browser test uses), spheres, a static rotated slab, and a URDF model whose
// base link has no collision element.
INSTANTIATE_TEST_SUITE_P(Scenes, RunGeometry,
                         ::testing::Values("stack10.xml", "spheres_drop.xml", "incline_slide.xml", "pendulum.xml"),
                         [](const auto& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace impetus
