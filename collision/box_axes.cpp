// (BA1) of box_axes.hpp.
#include "collision/box_axes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/convex_shape.hpp"

namespace impetus {
namespace {

bool is_box(const ConvexShape& s) { return s.kind == ConvexShape::Kind::kPolytope && !s.box_half.isZero(); }

}  // namespace

bool box_axes(const PosedShape& A, const PosedShape& B, BoxAxes& axes) {
  axes.found = false;
  if (!is_box(*A.shape) || !is_box(*B.shape)) return false;
  const Eigen::Vector3d& a = A.shape->box_half;
  const Eigen::Vector3d& b = B.shape->box_half;
  const Eigen::Matrix3d C = A.X_WG.linear().transpose() * B.X_WG.linear();
  const Eigen::Matrix3d C_abs = C.cwiseAbs();
  const Eigen::Vector3d t = A.X_WG.linear().transpose() * (A.X_WG.translation() - B.X_WG.translation());
  if (!C.allFinite() || !t.allFinite()) return false;   // std::max would pass over a NaN gap
  double face = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) face = std::max(face, std::abs(t[i]) - a[i] - b.dot(C_abs.row(i).transpose()));
  for (int j = 0; j < 3; ++j)
    face = std::max(face, std::abs(C.col(j).dot(t)) - a.dot(C_abs.col(j)) - b[j]);
  double edge = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d n = Eigen::Vector3d::Unit(i).cross(C.col(j));   // r_A,i × r_B,j in A's frame
      // Parallel edges have no facet of their own (the faces' cover it); a nearly parallel pair's direction is
      // mostly round-off, but any direction's gap is a lower bound of the largest, so it can only make the
      // answer more cautious.
      const double length = n.norm();
      if (!(length > 0)) continue;
      const double h = a.dot(n.cwiseAbs()) + b.dot((C.transpose() * n).cwiseAbs());
      edge = std::max(edge, (std::abs(n.dot(t)) - h) / length);
    }
  axes = {face, edge, true};
  return true;
}

}  // namespace impetus
