// Small helpers for the collision tests: a scene of geometries on links, and poses.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <vector>

#include "collision/collision_detector.hpp"
#include "collision/contact_set.hpp"
#include "collision/geometry.hpp"

namespace impetus::test {

/// Default margin of CollisionFilter (m).
constexpr double kMargin = 0.005;

inline Eigen::Isometry3d pose(const Eigen::Vector3d& p, const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = R;
  X.translation() = p;
  return X;
}

inline Eigen::Matrix3d rot(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Geometries, one link each unless told otherwise.
struct Scene {
  std::vector<Geometry> geometries;
  std::vector<Eigen::Isometry3d> X_WL;
  CollisionFilter filter;

  Scene() { filter.margin = kMargin; }

  /// A new link at X_WL carrying `shape`; returns the geometry index.
  int add(const Shape& shape, const Eigen::Isometry3d& X, bool movable = true, int parent = -1) {
    const int link = static_cast<int>(X_WL.size());
    X_WL.push_back(X);
    filter.link_parent.push_back(parent);
    filter.link_movable.push_back(movable);
    return add_to_link(link, shape);
  }
  /// Another geometry on an existing link, at X_LG.
  int add_to_link(int link, const Shape& shape, const Eigen::Isometry3d& X_LG = Eigen::Isometry3d::Identity()) {
    Geometry g;
    g.name = "g" + std::to_string(geometries.size());
    g.link = link;
    g.X_LG = X_LG;
    g.shape = shape;
    geometries.push_back(g);
    return static_cast<int>(geometries.size()) - 1;
  }
  ContactSet detect() const {
    CollisionDetector detector(geometries, filter);
    ContactSet contacts;
    detector.detect(X_WL, contacts);
    return contacts;
  }
};

inline Box box(double x, double y, double z) { return Box{Eigen::Vector3d(x, y, z)}; }

/// A closed triangle mesh of the box [−h, h] (two triangles per face, outward winding).
inline Mesh box_mesh(const Eigen::Vector3d& size) {
  Mesh m;
  m.filename = "box_mesh";
  const Eigen::Vector3d h = 0.5 * size;
  for (int i = 0; i < 8; ++i)
    m.vertices.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    m.triangles.emplace_back(q[0], q[1], q[2]);
    m.triangles.emplace_back(q[0], q[2], q[3]);
  }
  return m;
}

/// The contacts of one pair, in output order.
inline ContactSet pair_of(const ContactSet& contacts, int a, int b) {
  ContactSet out;
  for (const ContactPoint& c : contacts)
    if (c.geom_a == a && c.geom_b == b) out.push_back(c);
  return out;
}

/// Does `points` contain a contact at p (within tol)?
inline bool has_point(const ContactSet& contacts, const Eigen::Vector3d& p, double tol) {
  return std::any_of(contacts.begin(), contacts.end(), [&](const ContactPoint& c) { return (c.p_W - p).norm() <= tol; });
}

}  // namespace impetus::test
