// A rigid height-map ground: heights on a regular grid, each cell split into two triangles, a Coulomb
// friction coefficient per cell (seed 004 §7.1's rough terrain, notes 004 §3.3).
//
// Grid: nodes (i, j), i = 0 … nx, j = 0 … ny, at p_ij = (x₀ + i·h, y₀ + j·h, z_ij); cell (i, j) spans
// [x₀ + i·h, x₀ + (i+1)·h] × [y₀ + j·h, y₀ + (j+1)·h] and is split along its diagonal p_ij → p_(i+1)(j+1)
// into triangle 0 (p_ij, p_(i+1)j, p_(i+1)(j+1)) and triangle 1 (p_ij, p_(i+1)(j+1), p_i(j+1)), each with
// its upward unit normal. The surface is this piecewise-planar sheet; beyond the grid's rectangle the ground
// is the plane z = 0 (collision/ground_contacts.hpp). The ground is B of every contact: n_W points from the
// surface towards the shape.
//
// Contacts with a shape (as the plane's, ground_contacts.hpp: one record per point, φ ≤ margin reported,
// p_W midway between the surfaces; μ of the cell holding the contact's point on the sheet, p_W − (φ/2)n, a
// point on a cell's edge belonging to the cell above and right of it, cell_of()):
//   sphere (and a capsule's end spheres)  the local minima of the distance from its centre c to the sheet:
//       per triangle near c, its closest point q (Ericson, Real-Time Collision Detection §5.1.5); a q inside
//       the triangle always counts; a q on an edge or vertex only when no triangle sharing that edge or
//       vertex comes closer to c (a ridge or a peak: a true minimum; otherwise a neighbour's face is
//       closer and the edge point is no contact); one contact per point (a valley gives one per face). n = (c − q)/|c − q| (the triangle's
//       normal when c lies below its plane, φ then negative), φ = ±|c − q| − r.
//   box, mesh hull, cylinder rim   each test point x of ground_contacts over a cell: the plane of the
//       triangle under x gives n and φ = n·(x − p_tri) (exact on a planar patch; within the slope change
//       across a cell otherwise).
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "collision/convex_shape.hpp"
#include "collision/pair_contact.hpp"

namespace impetus {

class HeightField {
 public:
  /// heights: (nx+1)(ny+1) node heights, node (i, j) at index j·(nx+1) + i; mu: nx·ny cell coefficients,
  /// cell (i, j) at j·nx + i. Throws std::invalid_argument for sizes that do not match, h ≤ 0, a
  /// non-finite height or a μ < 0.
  HeightField(Eigen::Vector2d origin, double cell, int nx, int ny, std::vector<double> heights, std::vector<double> mu);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  double cell_size() const { return h_; }
  const Eigen::Vector2d& origin() const { return origin_; }
  double node_height(int i, int j) const { return z_[j * (nx_ + 1) + i]; }
  Eigen::Vector3d node(int i, int j) const;
  double cell_mu(int i, int j) const { return mu_[j * nx_ + i]; }
  /// Whether (x, y) lies on the grid (its closed rectangle).
  bool contains(double x, double y) const;
  /// The cell (i, j) under (x, y), clamped to the grid.
  Eigen::Vector2i cell_of(double x, double y) const;
  /// The sheet's height and upward unit normal at (x, y) on the grid (the triangle under it).
  double height(double x, double y, Eigen::Vector3d* normal = nullptr) const;
  /// Largest node height (the sheet's top).
  double max_height() const { return z_max_; }

 private:
  Eigen::Vector2d origin_;
  double h_;
  int nx_, ny_;
  std::vector<double> z_, mu_;
  double z_max_ = 0;
};

/// Appends the height field's contacts with the posed shape within margin (above), each with its cell's μ.
/// Test points beyond the grid are the plane's (ground_contacts), with μ = NaN (the ground's own μ applies).
void height_field_contacts(const HeightField& field, const ConvexShape& shape, const Eigen::Isometry3d& X_WG,
                           double margin, std::vector<PairContact>& out);

/// The same for a point set in G (a non-convex mesh's ground points), as the box's vertices above.
void height_field_contacts(const HeightField& field, const std::vector<Eigen::Vector3d>& points_G,
                           const Eigen::Isometry3d& X_WG, double margin, std::vector<PairContact>& out);

}  // namespace impetus
