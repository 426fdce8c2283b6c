// Contact reduction (collision/contact_reduction.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "collision/contact_reduction.hpp"

namespace impetus {
namespace {

PairContact point(double x, double y, double phi, int feature) {
  PairContact c;
  c.p_W = Eigen::Vector3d(x, y, 0);
  c.phi = phi;
  c.feature = feature;
  return c;
}

// 16 points on a circle and 5 inside it, the deepest inside: 8 are kept, the deepest among them,
// the rest on the circle and spread around it (no two neighbours among the 16 both dropped… the
// kept polygon's area is that of the regular octagon, the largest 8-gon of the 16).
TEST(Reduction, KeepsTheDeepestAndTheExtremeCorners) {
  std::vector<PairContact> points;
  for (int k = 0; k < 16; ++k) points.push_back(point(std::cos(k * M_PI / 8), std::sin(k * M_PI / 8), 0.0, 100 + k));
  for (int k = 0; k < 5; ++k) points.push_back(point(0.1 * k, 0.05, k == 2 ? -1e-3 : 0.0, 200 + k));
  ContactReducer reducer;
  reducer.reduce(points);
  ASSERT_EQ(points.size(), 8u);
  int deepest = 0, on_circle = 0;
  for (const PairContact& p : points) {
    if (p.feature == 202) ++deepest;
    if (std::abs(p.p_W.norm() - 1) < 1e-12) ++on_circle;
  }
  EXPECT_EQ(deepest, 1);
  EXPECT_EQ(on_circle, 7);
}

TEST(Reduction, MergesCoincidentPointsAndMakesFeaturesUnique) {
  std::vector<PairContact> points = {point(0, 0, 0.0, 5), point(1e-9, 0, -1e-6, 9), point(1, 0, 0.0, 5),
                                     point(0, 1, 0.0, 6)};
  ContactReducer reducer;
  reducer.reduce(points);
  ASSERT_EQ(points.size(), 3u);   // the first two are one point, the deeper kept
  EXPECT_TRUE(std::any_of(points.begin(), points.end(), [](const PairContact& p) { return p.phi == -1e-6; }));
  for (size_t k = 1; k < points.size(); ++k) EXPECT_LT(points[k - 1].feature, points[k].feature);
}

// The fewest points: one is kept as it is; two that are one corner are one, the deeper kept.
TEST(Reduction, OnePointIsKeptAndTwoAtOnePlaceAreOne) {
  std::vector<PairContact> one = {point(0.25, -0.5, -1e-4, 7)};
  ContactReducer reducer;
  reducer.reduce(one);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].p_W, Eigen::Vector3d(0.25, -0.5, 0));
  EXPECT_EQ(one[0].phi, -1e-4);
  EXPECT_EQ(one[0].feature, 7);
  std::vector<PairContact> two = {point(0, 0, 0.0, 3), point(1e-9, 0, -1e-6, 4)};
  reducer.reduce(two);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].phi, -1e-6);
}

// The merge of reduce's step 1 as defined: the largest distance over all pairs, then each point in
// turn absorbing, in order, the later points within max(kMergeDistance, kMergeRelative · extent) of it
// as it is at that moment, a preferred one taking its place.
double merge_by_definition(std::vector<PairContact>& points) {
  double extent = 0;
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size(); ++j) extent = std::max(extent, (points[i].p_W - points[j].p_W).norm());
  const double within = std::max(kMergeDistance, kMergeRelative * extent);
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size();) {
      if ((points[i].p_W - points[j].p_W).norm() <= within) {
        const bool take = std::abs(points[j].phi - points[i].phi) > kMergeGapTie ? points[j].phi < points[i].phi
                                                                                 : points[j].feature < points[i].feature;
        if (take) points[i] = points[j];
        points.erase(points.begin() + j);
      } else {
        ++j;
      }
    }
  return extent;
}

// ContactReducer::merge looks pairs up by bounds (radii about the centroid, x) and compares squared
// distances away from the threshold; its result must be the definition's to the bit. Point sets like a
// robot foot's hull vertices within the margin (a spherical cap of up to 150 points), with near copies
// at the merge distance up to a few ulps either side, gaps that tie within kMergeGapTie and repeated
// feature ids.
TEST(Reduction, MergeIsThePairwiseDefinitionToTheBit) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  int boundary_pairs = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + static_cast<int>(unit(rng) * 120);
    const double radius = 0.005 + 0.05 * unit(rng), cap = 0.3 + unit(rng);
    const Eigen::Vector3d centre(unit(rng) - 0.5, unit(rng) - 0.5, radius);
    std::vector<PairContact> points;
    for (int i = 0; i < n; ++i) {
      const double polar = M_PI - cap * unit(rng), azimuth = 2 * M_PI * unit(rng);
      PairContact c;
      c.p_W = centre + radius * Eigen::Vector3d(std::sin(polar) * std::cos(azimuth), std::sin(polar) * std::sin(azimuth),
                                                std::cos(polar));
      c.phi = unit(rng) < 0.3 ? 0.0 : c.p_W.z() + (unit(rng) < 0.2 ? 1e-10 * unit(rng) : 0.0);
      c.feature = static_cast<int>(unit(rng) * 3 * n);
      points.push_back(c);
    }
    // Copies of interior points at the merge distance of the set, scaled by 1 + k·2⁻⁵², and exact copies.
    std::vector<PairContact> probe = points;
    const double within = std::max(kMergeDistance, kMergeRelative * merge_by_definition(probe));
    const int copies = static_cast<int>(unit(rng) * 10);
    for (int c = 0; c < copies; ++c) {
      PairContact p = points[static_cast<size_t>(unit(rng) * n)];
      const Eigen::Vector3d direction = Eigen::Vector3d(unit(rng) - 0.5, unit(rng) - 0.5, 0).normalized();
      const int k = static_cast<int>(unit(rng) * 9) - 4;
      if (unit(rng) < 0.8) p.p_W += within * (1 + k * std::ldexp(1.0, -52)) * direction;
      p.feature = static_cast<int>(unit(rng) * 3 * n);
      points.insert(points.begin() + static_cast<long>(unit(rng) * points.size()), p);
      ++boundary_pairs;
    }
    std::vector<PairContact> expected = points, merged = points;
    const double extent = merge_by_definition(expected);
    ContactReducer reducer;
    EXPECT_EQ(reducer.merge(merged), extent) << "trial " << trial;
    ASSERT_EQ(merged.size(), expected.size()) << "trial " << trial;
    for (size_t i = 0; i < merged.size(); ++i) {
      EXPECT_EQ(merged[i].p_W, expected[i].p_W) << "trial " << trial << " point " << i;
      EXPECT_EQ(merged[i].phi, expected[i].phi) << "trial " << trial << " point " << i;
      EXPECT_EQ(merged[i].feature, expected[i].feature) << "trial " << trial << " point " << i;
    }
  }
  EXPECT_GT(boundary_pairs, 0);
}

// Two points whose distance² lies one or two ulps above the merge distance², where ‖x‖ = √‖x‖² still
// rounds to the merge distance: merged, as the definition's ‖x‖ ≤ within says (a comparison of squares
// would keep them apart). Coordinates exact, so the distance² is the one constructed.
TEST(Reduction, MergeDecidesAtTheThresholdAsTheSquareRootDoes) {
  const double within = kMergeRelative * 1.0;   // the extent is 1: the points at x = ±0.5
  const double square = within * within, ulp = std::nextafter(square, 1.0) - square;
  int beyond_the_square = 0;
  for (int k = 1; k <= 16; ++k) {
    const double dy = std::sqrt(k * ulp / 4);
    const double d2 = Eigen::Vector3d(within, dy, 0).squaredNorm();
    if (d2 > square && std::sqrt(d2) <= within) ++beyond_the_square;
    std::vector<PairContact> points = {point(-0.5, 0, 0.0, 1), point(0, 0, 0.0, 2), point(0.5, 0, 0.0, 3),
                                       point(within, dy, 0.0, 4)};
    std::vector<PairContact> expected = points;
    merge_by_definition(expected);
    ContactReducer reducer;
    reducer.merge(points);
    ASSERT_EQ(points.size(), expected.size()) << "dy² = " << k << "/4 ulp";
    for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].p_W, expected[i].p_W);
  }
  EXPECT_GT(beyond_the_square, 0);
}

}  // namespace
}  // namespace impetus
