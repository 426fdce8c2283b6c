// Contact reduction (collision/contact_reduction.hpp).
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace impetus
