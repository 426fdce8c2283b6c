// geometry.json (sim/output/geometry_json.hpp): every link becomes a body with its shapes, sizes
// and poses read back exactly, static means nv = 0 for the link's tree, and large meshes are
// decimated within their budget and within a cell diagonal of the original surface.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "sim/output/geometry_json.hpp"

namespace impetus {
namespace {

using nlohmann::json;

// A rotation rebuilt from the written quaternion differs from the original matrix by the
// round-off of matrix → quaternion → matrix: a few ulps of 1 per entry; 1e-14 leaves a margin.
constexpr double kRotationTolerance = 1e-14;
constexpr double kUnitTolerance = 1e-15;     // |q| − 1 after normalisation: one ulp or two

Link make_link(const std::string& name, int parent, JointType type) {
  Link link;
  link.name = name;
  link.parent = parent;
  link.joint.name = name + "_joint";
  link.joint.type = type;
  link.joint.axis = Eigen::Vector3d::UnitY();
  link.inertia.mass = 1;
  link.inertia.I_C = Eigen::Matrix3d::Identity() * 0.01;
  return link;
}

Geometry make_geometry(int link, Shape shape, const Eigen::Isometry3d& X_LG = Eigen::Isometry3d::Identity()) {
  Geometry g;
  g.link = link;
  g.shape = std::move(shape);
  g.X_LG = X_LG;
  return g;
}

/// A UV sphere of radius R centred at the origin: closed, outward-facing, 2·slices·(stacks − 1) triangles.
Mesh uv_sphere(double R, int slices, int stacks) {
  Mesh mesh;
  mesh.filename = "sphere.obj";
  mesh.vertices.push_back({0, 0, R});
  for (int i = 1; i < stacks; ++i) {
    const double theta = M_PI * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double phi = 2 * M_PI * j / slices;
      mesh.vertices.push_back(R * Eigen::Vector3d(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)));
    }
  }
  mesh.vertices.push_back({0, 0, -R});
  const int south = static_cast<int>(mesh.vertices.size()) - 1;
  auto ring = [&](int i, int j) { return 1 + (i - 1) * slices + (j % slices); };
  for (int j = 0; j < slices; ++j) mesh.triangles.push_back({0, ring(1, j), ring(1, j + 1)});
  for (int i = 1; i < stacks - 1; ++i) {
    for (int j = 0; j < slices; ++j) {
      mesh.triangles.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
      mesh.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
    }
  }
  for (int j = 0; j < slices; ++j) mesh.triangles.push_back({south, ring(stacks - 1, j + 1), ring(stacks - 1, j)});
  return mesh;
}

/// A world of every shape kind: a static post, a free box with two shapes, and a two-link arm
/// fixed to the world whose base has no geometry.
WorldModel every_kind() {
  WorldModel model;
  model.name = "every_kind";
  model.has_ground = true;
  MultibodyModel& mb = model.multibody;
  mb.add_tree("post", {make_link("post", -1, JointType::Fixed)});
  mb.add_tree("box", {make_link("box", -1, JointType::Floating)});
  mb.add_tree("arm", {make_link("arm/base", -1, JointType::Fixed), make_link("arm/link1", 0, JointType::Revolute)});
  Eigen::Isometry3d X1 = Eigen::Isometry3d::Identity();
  X1.translate(Eigen::Vector3d(0.1, -0.02, 0.03));
  X1.rotate(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()));
  Eigen::Isometry3d X2 = Eigen::Isometry3d::Identity();
  X2.rotate(Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()));          // q = (0, 1, 0, 0): w = 0 edge case
  Eigen::Isometry3d X3 = Eigen::Isometry3d::Identity();
  X3.translate(Eigen::Vector3d(0, 0, 0.3));
  model.geometries.push_back(make_geometry(0, Cylinder{0.05, 0.6}, X3));
  model.geometries.push_back(make_geometry(1, Box{Eigen::Vector3d(0.1, 0.2, 0.3)}));
  model.geometries.push_back(make_geometry(1, Sphere{0.07}, X1));
  model.geometries.push_back(make_geometry(3, Capsule{0.02, 0.4}, X2));
  Mesh tetrahedron;
  tetrahedron.filename = "tetra.obj";
  tetrahedron.vertices = {{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}};
  tetrahedron.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  model.geometries.push_back(make_geometry(3, tetrahedron));
  return model;
}

Eigen::Matrix3d rotation_of(const json& q) {
  return Eigen::Quaterniond(q[0].get<double>(), q[1].get<double>(), q[2].get<double>(), q[3].get<double>()).toRotationMatrix();
}

void expect_pose(const json& pose, const Eigen::Isometry3d& X_LG) {
  for (int k = 0; k < 3; ++k) EXPECT_EQ(pose["p"][k].get<double>(), X_LG.translation()[k]);   // 17 digits: exact
  const json& q = pose["q"];
  const double norm = std::hypot(std::hypot(q[0].get<double>(), q[1].get<double>()), std::hypot(q[2].get<double>(), q[3].get<double>()));
  EXPECT_NEAR(norm, 1.0, kUnitTolerance);
  EXPECT_GE(q[0].get<double>(), 0.0);
  EXPECT_TRUE(rotation_of(q).isApprox(X_LG.linear(), kRotationTolerance))
      << rotation_of(q) << "\nvs\n" << X_LG.linear();
}

TEST(GeometryJson, EveryLinkIsABodyInLinkOrderWithItsShapes) {
  const WorldModel model = every_kind();
  const json doc = json::parse(geometry_json(model));
  EXPECT_EQ(doc["scene"], "every_kind");
  ASSERT_EQ(doc["bodies"].size(), model.multibody.links.size());
  for (std::size_t i = 0; i < model.multibody.links.size(); ++i) EXPECT_EQ(doc["bodies"][i]["id"], model.multibody.links[i].name);
  // Static: the tree has no velocity coordinates. The arm's base is fixed to the world, but its tree
  // moves (nv = 1), so it is not static.
  EXPECT_TRUE(doc["bodies"][0]["static"].get<bool>());
  EXPECT_FALSE(doc["bodies"][1]["static"].get<bool>());
  EXPECT_FALSE(doc["bodies"][2]["static"].get<bool>());
  EXPECT_FALSE(doc["bodies"][3]["static"].get<bool>());
  EXPECT_EQ(doc["bodies"][0]["shapes"].size(), 1u);
  EXPECT_EQ(doc["bodies"][1]["shapes"].size(), 2u);
  EXPECT_EQ(doc["bodies"][2]["shapes"].size(), 0u);   // a link without geometry is still listed
  EXPECT_EQ(doc["bodies"][3]["shapes"].size(), 2u);
}

TEST(GeometryJson, SizesAndPosesReadBackExactly) {
  const WorldModel model = every_kind();
  const json doc = json::parse(geometry_json(model));
  const json& post = doc["bodies"][0]["shapes"][0];
  EXPECT_EQ(post["kind"], "cylinder");
  EXPECT_EQ(post["radius"].get<double>(), 0.05);
  EXPECT_EQ(post["length"].get<double>(), 0.6);
  expect_pose(post["pose"], model.geometries[0].X_LG);

  const json& box = doc["bodies"][1]["shapes"][0];
  EXPECT_EQ(box["kind"], "box");
  for (int k = 0; k < 3; ++k) EXPECT_EQ(box["size"][k].get<double>(), std::get<Box>(model.geometries[1].shape).size[k]);
  expect_pose(box["pose"], model.geometries[1].X_LG);

  const json& sphere = doc["bodies"][1]["shapes"][1];
  EXPECT_EQ(sphere["kind"], "sphere");
  EXPECT_EQ(sphere["radius"].get<double>(), 0.07);
  expect_pose(sphere["pose"], model.geometries[2].X_LG);

  const json& capsule = doc["bodies"][3]["shapes"][0];
  EXPECT_EQ(capsule["kind"], "capsule");
  EXPECT_EQ(capsule["radius"].get<double>(), 0.02);
  EXPECT_EQ(capsule["length"].get<double>(), 0.4);
  expect_pose(capsule["pose"], model.geometries[3].X_LG);

  const json& mesh = doc["bodies"][3]["shapes"][1];
  const Mesh& tetra = std::get<Mesh>(model.geometries[4].shape);
  EXPECT_EQ(mesh["kind"], "mesh");
  EXPECT_EQ(mesh["filename"], "tetra.obj");
  EXPECT_FALSE(mesh.contains("decimated"));
  ASSERT_EQ(mesh["vertices"].size(), tetra.vertices.size());
  ASSERT_EQ(mesh["triangles"].size(), tetra.triangles.size());
  for (std::size_t i = 0; i < tetra.vertices.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(mesh["vertices"][i][k].get<double>(), tetra.vertices[i][k]);
  for (std::size_t i = 0; i < tetra.triangles.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(mesh["triangles"][i][k].get<int>(), tetra.triangles[i][k]);
}

TEST(GeometryJson, GroundIsThePlaneZEqualsZeroOrNull) {
  WorldModel model = every_kind();
  json doc = json::parse(geometry_json(model));
  EXPECT_EQ(doc["ground"]["z"].get<double>(), 0.0);
  EXPECT_EQ(doc["ground"]["normal"], json::array({0.0, 0.0, 1.0}));
  model.has_ground = false;
  doc = json::parse(geometry_json(model));
  EXPECT_TRUE(doc["ground"].is_null());
}

TEST(GeometryJson, WriteFailsWithTheFileName) {
  const WorldModel model = every_kind();
  try {
    write_geometry_json(model, "/nonexistent-folder/geometry.json");
    FAIL() << "writing into a missing folder must throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/geometry.json"), std::string::npos) << e.what();
  }
}

/// Indices in range, three distinct corners, no triangle twice (as a vertex set).
void expect_valid_mesh(const DecimatedMesh& d) {
  std::set<std::array<int, 3>> seen;
  for (const Eigen::Vector3i& t : d.triangles) {
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(t[k], 0);
      ASSERT_LT(t[k], static_cast<int>(d.vertices.size()));
    }
    EXPECT_TRUE(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
    std::array<int, 3> s = {t[0], t[1], t[2]};
    std::sort(s.begin(), s.end());
    EXPECT_TRUE(seen.insert(s).second) << "duplicate triangle";
  }
}

TEST(MeshDecimation, MeshWithinBudgetIsReturnedAsIs) {
  const Mesh sphere = uv_sphere(0.5, 12, 6);
  const DecimatedMesh d = decimate_mesh(sphere.vertices, sphere.triangles, 1000);
  EXPECT_EQ(d.cell, 0.0);
  EXPECT_EQ(d.vertices, sphere.vertices);
  EXPECT_EQ(d.triangles, sphere.triangles);
}

TEST(MeshDecimation, FineSphereFitsTheBudgetAndStaysOnTheSurface) {
  constexpr double R = 0.5;
  constexpr int kBudget = 2000;
  const Mesh sphere = uv_sphere(R, 120, 60);
  ASSERT_GT(sphere.triangles.size(), 5u * kBudget);
  const DecimatedMesh d = decimate_mesh(sphere.vertices, sphere.triangles, kBudget);
  ASSERT_GT(d.cell, 0.0);
  EXPECT_LE(d.triangles.size(), static_cast<std::size_t>(kBudget));
  // Coarsening aims just under the budget and triangles scale with cells², so the result keeps a
  // good share of it; a tenth is a generous floor that still catches a collapse to nothing.
  EXPECT_GE(d.triangles.size(), static_cast<std::size_t>(kBudget / 10));
  expect_valid_mesh(d);
  // Each output vertex is the mean of sphere points in one cell: it lies in that cell, within a
  // cell diagonal √3·h of those points, hence of the sphere.
  for (const Eigen::Vector3d& v : d.vertices) EXPECT_LE(std::abs(v.norm() - R), std::sqrt(3.0) * d.cell) << v.transpose();
}

TEST(MeshDecimation, PointSetIsThinnedToHalfTheBudget) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Eigen::Vector3d> points(3000);
  for (Eigen::Vector3d& p : points) p = {u(rng), u(rng), u(rng)};
  const DecimatedMesh d = decimate_mesh(points, {}, 1000);
  EXPECT_GT(d.cell, 0.0);
  EXPECT_LE(d.vertices.size(), 500u);
  EXPECT_GE(d.vertices.size(), 50u);
  for (const Eigen::Vector3d& v : d.vertices) EXPECT_LE(v.cwiseAbs().maxCoeff(), 1.0);   // means stay in the hull
}

TEST(MeshDecimation, DegenerateAndInvalidInputDoNotCrash) {
  // Every vertex at one point: all triangles collapse.
  std::vector<Eigen::Vector3d> same(100, Eigen::Vector3d(1, 2, 3));
  std::vector<Eigen::Vector3i> triangles;
  for (int i = 0; i + 2 < 100; ++i) triangles.push_back({i, i + 1, i + 2});
  const DecimatedMesh collapsed = decimate_mesh(same, triangles, 10);
  EXPECT_LE(collapsed.triangles.size(), 10u);
  expect_valid_mesh(collapsed);
  // Triangles naming missing vertices are left out, within budget or not.
  const Mesh sphere = uv_sphere(1, 8, 4);
  std::vector<Eigen::Vector3i> bad = sphere.triangles;
  bad.push_back({0, 1, 1000});
  bad.push_back({-1, 0, 1});
  const DecimatedMesh kept = decimate_mesh(sphere.vertices, bad, 1000);
  EXPECT_EQ(kept.triangles, sphere.triangles);
}

TEST(GeometryJson, LargeMeshIsDecimatedAndSaysHow) {
  WorldModel model;
  model.name = "mesh";
  model.multibody.add_tree("m", {make_link("m", -1, JointType::Floating)});
  const Mesh sphere = uv_sphere(0.3, 60, 30);
  model.geometries.push_back(make_geometry(0, sphere));
  GeometryJsonOptions options;
  options.max_mesh_triangles = 300;
  const json doc = json::parse(geometry_json(model, options));
  const json& mesh = doc["bodies"][0]["shapes"][0];
  EXPECT_LE(mesh["triangles"].size(), 300u);
  ASSERT_TRUE(mesh.contains("decimated"));
  EXPECT_EQ(mesh["decimated"]["method"], "vertex clustering");
  EXPECT_EQ(mesh["decimated"]["triangles"].get<std::size_t>(), sphere.triangles.size());
  EXPECT_EQ(mesh["decimated"]["vertices"].get<std::size_t>(), sphere.vertices.size());
  EXPECT_GT(mesh["decimated"]["cell"].get<double>(), 0.0);
}

}  // namespace
}  // namespace impetus
