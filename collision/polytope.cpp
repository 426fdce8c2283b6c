#include "collision/polytope.hpp"

#include <Eigen/Geometry>

namespace impetus {

double Polytope::diameter() const {
  if (vertices.empty()) return 0;
  Eigen::AlignedBox3d box;
  for (const Eigen::Vector3d& v : vertices) box.extend(v);
  return box.diagonal().norm();
}

Polytope make_box_polytope(const Eigen::Vector3d& size) {
  const Eigen::Vector3d h = 0.5 * size;
  Polytope box;
  for (int i = 0; i < 8; ++i)
    box.vertices.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  // Faces −x, +x, −y, +y, −z, +z; each loop is counter-clockwise seen from outside.
  const int loops[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const double sign = (f % 2 == 0) ? -1.0 : 1.0;
    Polytope::Face face;
    face.normal = sign * Eigen::Vector3d::Unit(axis);
    face.offset = h[axis];
    face.loop.assign(loops[f], loops[f] + 4);
    box.faces.push_back(std::move(face));
  }
  return box;
}

}  // namespace impetus
