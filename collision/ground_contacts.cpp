#include "collision/ground_contacts.hpp"

#include <cmath>

#include "collision/manifold.hpp"

namespace impetus {
namespace {

/// sin of the tilt below which a cylinder's cap counts as level: its rim then has no single lowest
/// point, and the samples alone describe it. Below this, the lowest point and the nearest sample
/// differ in height by less than r·1e-12.
constexpr double kLevelCap = 1e-12;

void add(const Eigen::Vector3d& x_W, double margin, int feature, std::vector<PairContact>& out) {
  const double phi = x_W.z();
  if (!(phi <= margin)) return;
  PairContact c;
  c.p_W = Eigen::Vector3d(x_W.x(), x_W.y(), 0.5 * phi);
  c.n_W = Eigen::Vector3d::UnitZ();
  c.phi = phi;
  c.feature = feature;
  out.push_back(c);
}

}  // namespace

void ground_contacts(const ConvexShape& shape, const Eigen::Isometry3d& X_WG, double margin,
                     std::vector<PairContact>& out) {
  const Eigen::Vector3d c = X_WG.translation();
  const Eigen::Vector3d a = X_WG.linear().col(2);
  const Eigen::Vector3d down(0, 0, -1);
  switch (shape.kind) {
    case ConvexShape::Kind::kSphere:
      add(c + shape.radius * down, margin, 0, out);
      break;
    case ConvexShape::Kind::kCapsule:
      add(c + shape.half_length * a + shape.radius * down, margin, 0, out);
      add(c - shape.half_length * a + shape.radius * down, margin, 1, out);
      break;
    case ConvexShape::Kind::kCylinder: {
      const Eigen::Vector3d w = Eigen::Vector3d::UnitZ() - a.z() * a;   // ẑ − (ẑ·a)a, |w| = sin(tilt)
      const double r = shape.radius, l = shape.half_length;
      constexpr int K = kCylinderRimSamples;
      for (int cap = 0; cap < 2; ++cap) {
        const double z = cap == 0 ? l : -l;
        for (int k = 0; k < K; ++k) {
          const double angle = 2.0 * M_PI * k / K;
          add(X_WG * Eigen::Vector3d(r * std::cos(angle), r * std::sin(angle), z), margin, cap * (K + 1) + k, out);
        }
        if (w.norm() > kLevelCap) add(c + z * a - r * w.normalized(), margin, cap * (K + 1) + K, out);
      }
      break;
    }
    case ConvexShape::Kind::kPolytope:
      ground_contacts(shape.polytope->vertices, X_WG, margin, out);
      break;
  }
}

void ground_contacts(const std::vector<Eigen::Vector3d>& points_G, const Eigen::Isometry3d& X_WG, double margin,
                     std::vector<PairContact>& out) {
  for (int i = 0; i < static_cast<int>(points_G.size()); ++i) add(X_WG * points_G[i], margin, i, out);
}

}  // namespace impetus
