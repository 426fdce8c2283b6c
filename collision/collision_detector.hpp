// The FCL adapter: contact points, normals and signed gaps of every geometry pair within a margin.
#pragma once

#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "collision/contact_set.hpp"
#include "collision/geometry.hpp"

namespace impetus {

/// Which pairs are never tested, from the model's topology.
struct CollisionFilter {
  std::vector<int> link_parent;             // per link: parent link index, −1 for the world
  std::vector<bool> link_movable;           // per link: false for links that cannot move (nv = 0 trees)
  bool exclude_parent_child = true;         // skip pairs of a link and its parent link
  double margin = 0.005;                    // m: separated pairs closer than this are reported
  bool has_ground = false;                  // the plane z = 0 with normal +z
};

class CollisionDetector {
 public:
  CollisionDetector(const std::vector<Geometry>& geometries, const CollisionFilter& filter);
  ~CollisionDetector();
  CollisionDetector(const CollisionDetector&) = delete;
  CollisionDetector& operator=(const CollisionDetector&) = delete;

  /// X_WL: pose of every link. Replaces `contacts` with the contacts at these poses, in a
  /// deterministic order (by pair, then feature).
  void detect(const std::vector<Eigen::Isometry3d>& X_WL, ContactSet& contacts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impetus
