// Mass properties (collision/mass_properties.hpp): each shape's closed form against the divergence-
// theorem integral of a tessellation of the same shape (two independent computations, which must
// agree exactly for a box and converge at second order for curved shapes), the tetrahedron's
// textbook tensor, unions by the parallel-axis theorem, and the corpus's mesh inertials.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <fstream>
#include <numbers>

#include "collision/mass_properties.hpp"
#include "collision/mesh_io.hpp"
#include "tests/sim/shared_corpus.hpp"

namespace impetus {
namespace {

constexpr double kPi = std::numbers::pi;
// Sums of a few dozen products of O(1) numbers: round-off ~1e-15 relative.
constexpr double kExact = 1e-12;

// --- tessellations (outward winding) -------------------------------------------------------------------

Mesh box_mesh(const Eigen::Vector3d& size, const Eigen::Vector3d& centre = Eigen::Vector3d::Zero()) {
  Mesh m;
  for (int i = 0; i < 8; ++i)
    m.vertices.push_back(centre + 0.5 * size.cwiseProduct(Eigen::Vector3d(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1)));
  // Quads (outward) split in two: −x, +x, −y, +y, −z, +z.
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    m.triangles.emplace_back(q[0], q[1], q[2]);
    m.triangles.emplace_back(q[0], q[2], q[3]);
  }
  return m;
}

/// A solid of revolution about z through the profile points (r, z), r = 0 at both ends, with n
/// segments around: the polyhedron inscribed in it.
Mesh revolved_mesh(const std::vector<Eigen::Vector2d>& profile, int n) {
  Mesh m;
  std::vector<std::vector<int>> ring(profile.size());
  for (std::size_t k = 0; k < profile.size(); ++k) {
    const double r = profile[k].x(), z = profile[k].y();
    const int count = r == 0 ? 1 : n;
    for (int i = 0; i < count; ++i) {
      const double phi = 2 * kPi * i / n;
      ring[k].push_back(static_cast<int>(m.vertices.size()));
      m.vertices.emplace_back(r * std::cos(phi), r * std::sin(phi), z);
    }
  }
  // Profile runs from the bottom pole (z min) to the top pole: bands wind outwards as below.
  for (std::size_t k = 0; k + 1 < profile.size(); ++k) {
    const std::vector<int>& a = ring[k];
    const std::vector<int>& b = ring[k + 1];
    for (int i = 0; i < n; ++i) {
      const int j = (i + 1) % n;
      if (a.size() == 1) m.triangles.emplace_back(a[0], b[j], b[i]);
      else if (b.size() == 1) m.triangles.emplace_back(a[i], a[j], b[0]);
      else {
        m.triangles.emplace_back(a[i], a[j], b[j]);
        m.triangles.emplace_back(a[i], b[j], b[i]);
      }
    }
  }
  return m;
}

Mesh sphere_mesh(double r, int n) {
  std::vector<Eigen::Vector2d> profile;
  for (int k = 0; k <= n / 2; ++k) {
    const double theta = kPi * k / (n / 2);  // from the south pole
    profile.emplace_back(k == 0 || k == n / 2 ? 0.0 : r * std::sin(theta), -r * std::cos(theta));
  }
  return revolved_mesh(profile, n);
}

Mesh cylinder_mesh(double r, double h, int n) {
  return revolved_mesh({{0, -h / 2}, {r, -h / 2}, {r, h / 2}, {0, h / 2}}, n);
}

Mesh capsule_mesh(double r, double h, int n) {
  std::vector<Eigen::Vector2d> profile;
  const int quarter = n / 4;
  for (int k = 0; k <= quarter; ++k) {  // lower hemisphere
    const double theta = kPi / 2 * k / quarter;
    profile.emplace_back(k == 0 ? 0.0 : r * std::sin(theta), -h / 2 - r * std::cos(theta));
  }
  for (int k = 0; k <= quarter; ++k) {  // upper hemisphere
    const double theta = kPi / 2 * k / quarter;
    profile.emplace_back(k == quarter ? 0.0 : r * std::cos(theta), h / 2 + r * std::sin(theta));
  }
  return revolved_mesh(profile, n);
}

double relative_error(const MassProperties& a, const MassProperties& b) {
  const double gyration_radius = std::sqrt(b.I_C.trace() / b.mass);  // the body's length scale
  return std::max({std::abs(a.mass - b.mass) / b.mass, (a.com - b.com).norm() / gyration_radius,
                   (a.I_C - b.I_C).norm() / b.I_C.norm()});
}

void expect_physical(const MassProperties& p) {
  const Eigen::Vector3d l = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(p.I_C).eigenvalues();
  EXPECT_GT(l[0], 0);
  EXPECT_GE(l[0] + l[1], l[2] * (1 - kExact));  // triangle inequality
}

// --- each shape -------------------------------------------------------------------------------------------------

TEST(MassProperties, MeshCubeEqualsTheBox) {
  const Eigen::Vector3d size(0.3, 1.2, 0.7);
  const double rho = 850;
  const MassProperties box = shape_mass_properties(Box{size}, rho);
  // Away from the origin: the mesh's centroid must be found, and the tensor shifted back to it.
  const Eigen::Vector3d c(2, -1, 5);
  const MassProperties mesh = shape_mass_properties(box_mesh(size, c), rho);
  EXPECT_NEAR(mesh.mass, rho * size.prod(), kExact * mesh.mass);
  EXPECT_NEAR(box.mass, mesh.mass, kExact * mesh.mass);
  EXPECT_LT((mesh.com - c).norm(), kExact);
  EXPECT_LT((mesh.I_C - box.I_C).norm(), kExact * box.I_C.norm());
  expect_physical(box);
}

TEST(MassProperties, InwardWoundMeshIsTheSameSolid) {
  Mesh mesh = box_mesh({1, 2, 3});
  const MassProperties out = shape_mass_properties(mesh, 1);
  for (Eigen::Vector3i& t : mesh.triangles) std::swap(t[1], t[2]);
  const MassProperties in = shape_mass_properties(mesh, 1);
  EXPECT_NEAR(in.mass, out.mass, kExact);
  EXPECT_LT((in.I_C - out.I_C).norm(), kExact);
}

TEST(MassProperties, TetrahedronTextbookTensor) {
  // Unit tetrahedron (0, e₁, e₂, e₃): V = 1/6, C = (¼, ¼, ¼); about C, I_xx = 3m/40 and the tensor's
  // off-diagonal entries are −∫(x−¼)(y−¼)dm = +m/80 (Tonon 2004).
  Mesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  const double rho = 3;
  const MassProperties p = shape_mass_properties(m, rho);
  const double mass = rho / 6;
  EXPECT_NEAR(p.mass, mass, kExact);
  EXPECT_LT((p.com - Eigen::Vector3d::Constant(0.25)).norm(), kExact);
  Eigen::Matrix3d I = Eigen::Matrix3d::Constant(mass / 80);
  I.diagonal().setConstant(3 * mass / 40);
  EXPECT_LT((p.I_C - I).norm(), kExact);
}

// The inscribed polyhedron's error is c₂/n² + c₄/n⁴ + …: from n = 64 on the second term is a few
// per mille of the first, so the error ratio between n and 2n is 4 within 0.1 (measured 3.990–3.999).
constexpr double kSecondOrderRatio = 4.0, kRatioTolerance = 0.1;
// At n = 256 the relative error is 1.3e-4 (cylinder) to 4.2e-4 (sphere: c₂ ≈ 27, its UV mesh has only
// n/2 latitude bands); a wrong closed form is off by percents.
constexpr double kFineTessellationError = 1e-3;

/// The inscribed polyhedron's error shrinks as 1/n²: halving the segment angle quarters it.
void expect_second_order_convergence(const Shape& shape, const std::function<Mesh(int)>& tessellate) {
  const double rho = 1200;
  const MassProperties exact = shape_mass_properties(shape, rho);
  const double e64 = relative_error(shape_mass_properties(tessellate(64), rho), exact);
  const double e128 = relative_error(shape_mass_properties(tessellate(128), rho), exact);
  const double e256 = relative_error(shape_mass_properties(tessellate(256), rho), exact);
  EXPECT_NEAR(e64 / e128, kSecondOrderRatio, kRatioTolerance);
  EXPECT_NEAR(e128 / e256, kSecondOrderRatio, kRatioTolerance);
  EXPECT_LT(e256, kFineTessellationError);
  EXPECT_NEAR(shape_volume(shape), exact.mass / rho, kExact * exact.mass / rho);
  expect_physical(exact);
}

TEST(MassProperties, SphereClosedFormIsTheLimitOfItsTessellations) {
  expect_second_order_convergence(Sphere{0.4}, [](int n) { return sphere_mesh(0.4, n); });
}

TEST(MassProperties, CylinderClosedFormIsTheLimitOfItsTessellations) {
  expect_second_order_convergence(Cylinder{0.3, 1.1}, [](int n) { return cylinder_mesh(0.3, 1.1, n); });
}

TEST(MassProperties, CapsuleClosedFormIsTheLimitOfItsTessellations) {
  expect_second_order_convergence(Capsule{0.25, 0.8}, [](int n) { return capsule_mesh(0.25, 0.8, n); });
}

TEST(MassProperties, CapsuleOfZeroLengthIsASphere) {
  const MassProperties capsule = shape_mass_properties(Capsule{0.3, 0}, 7);
  const MassProperties sphere = shape_mass_properties(Sphere{0.3}, 7);
  EXPECT_NEAR(capsule.mass, sphere.mass, kExact);
  EXPECT_LT((capsule.I_C - sphere.I_C).norm(), kExact);
}

// --- unions -----------------------------------------------------------------------------------------------------

TEST(MassProperties, TwoBoxesSideBySideAreOneLongBox) {
  const Shape cube = Box{{1, 1, 1}};
  Eigen::Isometry3d left = Eigen::Isometry3d::Identity(), right = Eigen::Isometry3d::Identity();
  left.translation() << 1.5, 0, 0;  // the long box spans x ∈ [1, 3]
  right.translation() << 2.5, 0, 0;
  const MassProperties pair = union_mass_properties({{&cube, left}, {&cube, right}}, 2);
  const MassProperties whole = shape_mass_properties(Box{{2, 1, 1}}, 2);
  EXPECT_NEAR(pair.mass, whole.mass, kExact);
  EXPECT_LT((pair.com - Eigen::Vector3d(2, 0, 0)).norm(), kExact);
  EXPECT_LT((pair.I_C - whole.I_C).norm(), kExact);
}

TEST(MassProperties, RotatedShapeTurnsItsTensor) {
  const Shape rod = Cylinder{0.1, 2};  // long along its z
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(kPi / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();  // now along x
  const MassProperties p = union_mass_properties({{&rod, X}}, 1);
  const MassProperties own = shape_mass_properties(rod, 1);
  EXPECT_NEAR(p.I_C(0, 0), own.I_C(2, 2), kExact);  // the axial moment moved to x
  EXPECT_NEAR(p.I_C(2, 2), own.I_C(0, 0), kExact);
}

TEST(MassProperties, GivenMassFillsTheShapesUniformly) {
  const Shape a = Sphere{0.5}, b = Box{{1, 1, 1}};
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() << 0, 0, 2;
  const double mass = 3;
  const MassProperties p = union_mass_properties_for_mass({{&a, Eigen::Isometry3d::Identity()}, {&b, X}}, mass);
  EXPECT_NEAR(p.mass, mass, kExact);
  // The centre of mass divides the segment in the ratio of the volumes.
  const double Va = shape_volume(a), Vb = shape_volume(b);
  EXPECT_NEAR(p.com.z(), 2 * Vb / (Va + Vb), kExact);
}

TEST(MassProperties, MasslessPartsAddTheirRotationalInertiaOnly) {
  MassProperties frame;  // a bare frame with a rotational inertia, as some URDFs give
  frame.I_C = Eigen::Matrix3d::Identity() * 0.1;
  frame.com << 5, 5, 5;
  MassProperties body;
  body.mass = 2;
  body.I_C = Eigen::Matrix3d::Identity();
  const MassProperties c = combined({frame, body});
  EXPECT_EQ(c.mass, 2);
  EXPECT_LT((c.com - body.com).norm(), kExact);
  EXPECT_LT((c.I_C - 1.1 * Eigen::Matrix3d::Identity()).norm(), kExact);
}

// --- closure ------------------------------------------------------------------------------------------------------

TEST(MeshClosure, HolesFlipsAndExtraSheets) {
  Mesh cube = box_mesh({1, 1, 1});
  EXPECT_TRUE(mesh_closure(cube).closed());
  Mesh holed = cube;
  holed.triangles.pop_back();
  EXPECT_EQ(mesh_closure(holed).boundary_edges, 3);
  Mesh flipped = cube;
  std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
  EXPECT_EQ(mesh_closure(flipped).misoriented_edges, 3);
  Mesh sheet = cube;
  sheet.triangles.push_back(cube.triangles[0]);
  EXPECT_GT(mesh_closure(sheet).non_manifold_edges, 0);
}

// --- the corpus's mesh inertials -------------------------------------------------------------------------------

TEST(MassProperties, CorpusMeshInertialsAreTheUniformSolids) {
  SKIP_WITHOUT_URDF_CORPUS();
  // edge-cases/mesh_scale: each link's <inertial> is the uniform solid filling its scaled collision
  // mesh (EXPECTED.json's note); the file prints 9 significant digits.
  constexpr double kPrinted9 = 1e-8;
  const std::string dir = corpus::corpus_dir() + "/edge-cases/mesh_scale/meshes/";
  struct Case { const char* file; Eigen::Vector3d scale; double mass; Eigen::Vector3d com; Eigen::Matrix3d I; };
  Eigen::Matrix3d I_box = Eigen::Vector3d(0.00354166667, 0.00104166667, 0.00416666667).asDiagonal();
  Eigen::Matrix3d I_cube = Eigen::Vector3d(0.833333333, 0.208333333, 0.708333333).asDiagonal();
  Eigen::Matrix3d I_tetra = Eigen::Matrix3d::Constant(0.00625);
  I_tetra.diagonal().setConstant(0.0375);
  for (const Case& c : {Case{"box_mm_binary.stl", Eigen::Vector3d::Constant(0.001), 1.0, {0.05, 0.1, 0.025}, I_box},
                        Case{"unit_cube.obj", {0.5, 2, 1}, 2.0, {0, 0, 0}, I_cube},
                        Case{"TETRA_SOLID_HEADER.STL", Eigen::Vector3d::Ones(), 0.5, Eigen::Vector3d::Constant(0.25), I_tetra}}) {
    SCOPED_TRACE(c.file);
    const Shape mesh = load_mesh(dir + c.file, c.scale);
    const MassProperties p = union_mass_properties_for_mass({{&mesh, Eigen::Isometry3d::Identity()}}, c.mass);
    EXPECT_NEAR(p.mass, c.mass, kExact);
    EXPECT_LT((p.com - c.com).norm(), kPrinted9);
    EXPECT_LT((p.I_C - c.I).norm(), kPrinted9 * c.I.norm());
  }
}

}  // namespace
}  // namespace impetus
