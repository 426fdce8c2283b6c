// What the collision stage hands to assembly: one record per contact point.
//
// Convention (DESIGN.md): the normal n_W points from B towards A (A is pushed along +n); the gap φ
// is > 0 when separated and < 0 when penetrating. The ground, when it takes part, is always B.
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <vector>

namespace impetus {

constexpr int kGround = -1;                 // geometry / link index of the ground plane

struct ContactPoint {
  int geom_a = -1, geom_b = kGround;        // indices into WorldModel::geometries; kGround for the plane
  int link_a = -1, link_b = kGround;        // their links; kGround for the plane
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();   // contact point, world frame: midway between the surfaces
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();  // unit normal, from B towards A
  double phi = 0;                           // signed gap (m)
  int feature = 0;                          // stable id of this point within its pair (warm starts)
  /// The ground surface's Coulomb μ at this point: a height map's cell (collision/height_field.hpp). NaN
  /// for every other contact, whose μ is its pair's (<contact>, <ground mu>, <physics mu>). A <contact>
  /// naming the pair overrides it.
  double mu = std::numeric_limits<double>::quiet_NaN();
};

using ContactSet = std::vector<ContactPoint>;

}  // namespace impetus
