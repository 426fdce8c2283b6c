// The height-map ground (collision/height_field.hpp, hill_terrain.hpp): contacts of spheres and boxes
// against sheets whose geometry is known in closed form (a tilted plane, a valley, a ridge), the cell's μ
// on every contact, and the seeded hill terrain of seed 004.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>

#include "collision/hill_terrain.hpp"
#include "collision_test_util.hpp"

namespace impetus::test {
namespace {

/// Closed-form products and sums of a few doubles of size ≤ 1: exact to a few ulps of 1 m.
constexpr double kExact = 1e-12;
constexpr double kCell = 0.02;
constexpr int kCells = 20;   // a 0.4 m square from (−0.2, −0.2)

/// A sheet with node heights z(x, y) and cell μ = 0.1 + 0.001·(cell index): every cell's μ distinct.
HeightField sheet(const std::function<double(double, double)>& z) {
  std::vector<double> heights, mu;
  for (int j = 0; j <= kCells; ++j)
    for (int i = 0; i <= kCells; ++i) heights.push_back(z(-0.2 + i * kCell, -0.2 + j * kCell));
  for (int k = 0; k < kCells * kCells; ++k) mu.push_back(0.1 + 0.001 * k);
  return HeightField(Eigen::Vector2d(-0.2, -0.2), kCell, kCells, kCells, std::move(heights), std::move(mu));
}

double cell_mu_at(const HeightField& f, double x, double y) {
  const Eigen::Vector2i c = f.cell_of(x, y);
  return f.cell_mu(c.x(), c.y());
}

ContactSet on(const HeightField& field, const Shape& shape, const Eigen::Isometry3d& X) {
  Scene scene;
  scene.filter.has_ground = true;
  scene.filter.terrain = std::make_shared<const HeightField>(field);
  scene.add(shape, X);
  return scene.detect();
}

// A plane z = a x + b y + c sampled on the grid: every triangle lies in it.
constexpr double kA = 0.3, kB = -0.2, kC = 0.05;
double tilted(double x, double y) { return kA * x + kB * y + kC; }
const Eigen::Vector3d kTiltedNormal = Eigen::Vector3d(-kA, -kB, 1).normalized();

TEST(HeightField, SlopeNormalAndHeight) {
  const HeightField f = sheet(tilted);
  for (const auto& [x, y] : {std::pair{0.013, -0.071}, {0.1, 0.1}, {-0.19, 0.17}}) {
    Eigen::Vector3d n;
    EXPECT_NEAR(f.height(x, y, &n), tilted(x, y), kExact);
    EXPECT_LT((n - kTiltedNormal).norm(), kExact);
  }
}

TEST(HeightField, SphereRestingOnACellTouchesItOnceWithThatCellsMu) {
  // The sphere's centre sits r + gap along the slope's normal from a surface point p_s: one contact at
  // p_s + gap/2·n with φ = gap and n the slope's normal, and the μ of the cell under p_s. Points inside a
  // cell, on an edge and on a node (where 2 or 6 triangles meet and must give one contact).
  const HeightField f = sheet(tilted);
  const double r = 0.01;
  for (const auto& [x, y] : {std::pair{0.013, -0.071}, {0.03, -0.05}, {0.04, 0.04}, {-0.105, 0.06}})
    for (double gap : {-1e-3, 0.0, 2e-3}) {
      const Eigen::Vector3d p_s(x, y, tilted(x, y));
      const ContactSet c = on(f, Sphere{r}, pose(p_s + (r + gap) * kTiltedNormal));
      ASSERT_EQ(c.size(), 1u) << x << " " << y << " gap " << gap;
      EXPECT_NEAR(c[0].phi, gap, kExact);
      EXPECT_LT((c[0].n_W - kTiltedNormal).norm(), kExact);
      EXPECT_LT((c[0].p_W - (p_s + 0.5 * gap * kTiltedNormal)).norm(), kExact);
      EXPECT_EQ(c[0].link_b, kGround);
    }
  // Inside a cell, its μ.
  const Eigen::Vector3d p_s(0.013, -0.071, tilted(0.013, -0.071));
  const ContactSet c = on(f, Sphere{r}, pose(p_s + r * kTiltedNormal));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].mu, cell_mu_at(f, 0.013, -0.071));
  EXPECT_EQ(c[0].mu, 0.1 + 0.001 * (6 * kCells + 10));   // cell (10, 6): ⌊0.213/0.02⌋, ⌊0.129/0.02⌋
}

TEST(HeightField, SphereInAValleyTouchesBothFaces) {
  // z = s|x − 0.02| (the valley along the grid line x = 0.02): a sphere centred over the valley at height
  // z_c is z_c/√(1+s²) from each face: two contacts, normals (∓s, 0, 1)/√(1+s²).
  const double s = 0.5, r = 0.01, x_v = 0.02;
  const HeightField f = sheet([&](double x, double) { return s * std::abs(x - x_v); });
  const double k = std::sqrt(1 + s * s);
  for (double gap : {0.0, 1e-3}) {
    const double z_c = (r + gap) * k;
    const ContactSet c = on(f, Sphere{r}, pose({x_v, 0.011, z_c}));
    ASSERT_EQ(c.size(), 2u) << "gap " << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_NEAR(std::abs(p.n_W.x()), s / k, kExact);
      EXPECT_NEAR(p.n_W.z(), 1 / k, kExact);
      EXPECT_NEAR(p.n_W.y(), 0, kExact);
    }
    EXPECT_LT(c[0].n_W.x() * c[1].n_W.x(), 0) << "one on each face";
  }
}

TEST(HeightField, SphereOnARidgeTouchesItsEdgeOnce) {
  // z = H − s|x − 0.02|: over the ridge the nearest point is on the ridge line, straight below: one
  // contact, normal +z, φ = z_c − H − r (the faces' own closest points are that same edge point).
  const double s = 0.5, r = 0.01, H = 0.03, x_v = 0.02;
  const HeightField f = sheet([&](double x, double) { return H - s * std::abs(x - x_v); });
  const ContactSet c = on(f, Sphere{r}, pose({x_v, 0.011, H + r + 1e-3}));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].phi, 1e-3, kExact);
  EXPECT_LT((c[0].n_W - Eigen::Vector3d::UnitZ()).norm(), kExact);
}

TEST(HeightField, FlatBoxRestsOnItsFourCornersWithTheirCellsMu) {
  const double H = 0.01;
  const HeightField f = sheet([&](double, double) { return H; });
  const Eigen::Vector3d size(0.1, 0.06, 0.04), centre(0.011, -0.023, 0);
  for (double gap : {0.0, -5e-4, 2e-3}) {
    const ContactSet c = on(f, box(size.x(), size.y(), size.z()), pose(centre + Eigen::Vector3d(0, 0, H + 0.02 + gap)));
    ASSERT_EQ(c.size(), 4u) << "gap " << gap;
    for (const ContactPoint& p : c) {
      EXPECT_NEAR(p.phi, gap, kExact);
      EXPECT_LT((p.n_W - Eigen::Vector3d::UnitZ()).norm(), kExact);
      EXPECT_EQ(p.mu, cell_mu_at(f, p.p_W.x(), p.p_W.y()));
    }
  }
}

TEST(HeightField, BeyondTheMapTheGroundIsThePlane) {
  const HeightField f = sheet(tilted);
  const double r = 0.05;
  const ContactSet c = on(f, Sphere{r}, pose({0.5, 0.5, r + 1e-3}));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].phi, 1e-3, kExact);
  EXPECT_TRUE(std::isnan(c[0].mu)) << "the ground's own μ";
}

TEST(HeightField, NothingAboveTheMargin) {
  const HeightField f = sheet(tilted);
  const double r = 0.01;
  const Eigen::Vector3d p_s(0.013, -0.071, tilted(0.013, -0.071));
  EXPECT_TRUE(on(f, Sphere{r}, pose(p_s + (r + 1.01 * kMargin) * kTiltedNormal)).empty());
}

TEST(HillTerrain, SeedFourTerrainHasItsSizeBumpsAndFrictionRange) {
  const HillTerrainParameters p;   // the paper's: 3 m, 2 cm, bumps ≤ 3 cm, μ ~ U(0.1, 1.5)
  const HeightField f = make_hill_terrain(p);
  ASSERT_EQ(f.nx(), 150);
  ASSERT_EQ(f.ny(), 150);
  EXPECT_NEAR(f.origin().x(), -1.5, kExact);
  double lo = INFINITY, hi = -INFINITY;
  for (int j = 0; j <= 150; ++j)
    for (int i = 0; i <= 150; ++i) {
      lo = std::min(lo, f.node_height(i, j));
      hi = std::max(hi, f.node_height(i, j));
    }
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 0.03);
  double sum = 0, mu_lo = INFINITY, mu_hi = -INFINITY;
  for (int j = 0; j < 150; ++j)
    for (int i = 0; i < 150; ++i) {
      sum += f.cell_mu(i, j);
      mu_lo = std::min(mu_lo, f.cell_mu(i, j));
      mu_hi = std::max(mu_hi, f.cell_mu(i, j));
    }
  EXPECT_GE(mu_lo, 0.1);
  EXPECT_LT(mu_hi, 1.5);
  // 22500 draws of U(0.1, 1.5): mean 0.8, standard error 1.4/√12/150 = 0.0027; five of them.
  EXPECT_NEAR(sum / (150 * 150), 0.8, 5 * 0.0027);
  // The whole range is used: the extremes of 22500 uniforms are within 1.4·(1e-3) of the ends but with
  // probability (1 − 1e-3)^22500 ≈ 2e-10.
  EXPECT_LT(mu_lo, 0.1 + 1.4e-3);
  EXPECT_GT(mu_hi, 1.5 - 1.4e-3);
}

TEST(HillTerrain, SameSeedSameTerrainOtherSeedAnother) {
  HillTerrainParameters p;
  p.hills = 50;
  const HeightField a = make_hill_terrain(p), b = make_hill_terrain(p);
  p.seed = 2;
  const HeightField c = make_hill_terrain(p);
  bool differs = false;
  for (int j = 0; j <= 150; ++j)
    for (int i = 0; i <= 150; ++i) {
      ASSERT_EQ(a.node_height(i, j), b.node_height(i, j));
      differs |= a.node_height(i, j) != c.node_height(i, j);
    }
  for (int j = 0; j < 150; ++j)
    for (int i = 0; i < 150; ++i) ASSERT_EQ(a.cell_mu(i, j), b.cell_mu(i, j));
  EXPECT_TRUE(differs);
}

TEST(HillTerrain, BadParametersAreRefused) {
  HillTerrainParameters p;
  p.cell = 0.07;   // 3 m is no whole number of 7 cm cells
  EXPECT_THROW(make_hill_terrain(p), std::invalid_argument);
  p = HillTerrainParameters{};
  p.mu_min = 2;
  EXPECT_THROW(make_hill_terrain(p), std::invalid_argument);
}

}  // namespace
}  // namespace impetus::test
