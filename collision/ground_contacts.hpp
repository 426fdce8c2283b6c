// Contacts of a geometry with the ground, the plane z = 0 with normal +z, in closed form.
//
// The ground is always B, so n = +z. A point x of the shape's surface at height z = x_z gives the gap
// φ = x_z and the contact point p = (x_x, x_y, x_z/2), midway between x and the plane. Which surface
// points are tested, per shape (G the geometry's frame):
//   sphere     its lowest point, centre − r·ẑ                             feature 0
//   capsule    the lowest points of its two end spheres                   features 0 (+z end), 1 (−z end)
//   box        its 8 corners (corner i as in make_box_polytope)          feature i
//   cylinder   per cap c (0: +z, 1: −z), kCylinderRimSamples rim samples  feature c·(K+1) + k
//              and, unless the cap is level, the rim's exact lowest point
//              c_c − r·w, w = unit(ẑ − (ẑ·a)a) (a the axis)               feature c·(K+1) + K
//   polytope   its vertices (a mesh's convex hull: the lowest points of   feature i
//              any mesh are hull vertices)
// Only points with φ ≤ margin are reported. A cylinder lying on its side thus rests on the two ends
// of its bottom line, and standing on a cap on the octagon of rim samples.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "collision/convex_shape.hpp"
#include "collision/pair_contact.hpp"

namespace impetus {

/// Appends the ground contacts of the posed shape within `margin` (not yet reduced).
void ground_contacts(const ConvexShape& shape, const Eigen::Isometry3d& X_WG, double margin,
                     std::vector<PairContact>& out);

/// The same for a point set in G (a non-convex mesh's hull vertices, or its vertices when it has no
/// hull): every point with φ ≤ margin, feature = its index.
void ground_contacts(const std::vector<Eigen::Vector3d>& points_G, const Eigen::Isometry3d& X_WG, double margin,
                     std::vector<PairContact>& out);

}  // namespace impetus
