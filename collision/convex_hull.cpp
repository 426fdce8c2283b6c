#include "collision/convex_hull.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace impetus {
namespace {

// Orders a face's vertices counter-clockwise seen from outside (against the outward normal u) and
// drops those that are not corners (collinear on an edge), by Andrew's monotone chain in the
// face's plane.
std::vector<int> ordered_corners(const std::vector<int>& ids, const std::vector<Eigen::Vector3d>& v,
                                 const Eigen::Vector3d& u, double tolerance) {
  const Eigen::Vector3d t1 = u.unitOrthogonal();
  const Eigen::Vector3d t2 = u.cross(t1);          // (t1, t2, u) right-handed: CCW in (t1, t2) is CCW seen from outside
  struct P { double x, y; int id; };
  std::vector<P> pts;
  for (int id : ids) pts.push_back({v[id].dot(t1), v[id].dot(t2), id});
  std::sort(pts.begin(), pts.end(), [](const P& a, const P& b) {
    return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.id < b.id);
  });
  auto cross = [](const P& o, const P& a, const P& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
  // A turn counts only when the point leaves the line by more than the tolerance (area = base · height).
  auto left_turn = [&](const P& o, const P& a, const P& b) {
    const double base = std::hypot(b.x - o.x, b.y - o.y);
    return cross(o, a, b) > tolerance * base;
  };
  std::vector<P> chain(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && !left_turn(chain[k - 2], chain[k - 1], pts[i])) --k;
    chain[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && !left_turn(chain[k - 2], chain[k - 1], pts[i])) --k;
    chain[k++] = pts[i];
  }
  std::vector<int> loop;
  for (size_t i = 0; i + 1 < k; ++i) loop.push_back(chain[i].id);
  return loop;
}

}  // namespace

HullResult convex_hull(const std::vector<Eigen::Vector3d>& points) {
  HullResult result;
  if (points.size() < 4) {
    result.error = "fewer than 4 points";
    return result;
  }
  Eigen::AlignedBox3d box;
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) {
      result.error = "a vertex is not finite";
      return result;
    }
    box.extend(p);
  }
  const double diameter = box.diagonal().norm();
  if (!(diameter > 0)) {
    result.error = "all points coincide";
    return result;
  }

  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Eigen::Vector3d& p : points) coords.insert(coords.end(), {p.x(), p.y(), p.z()});

  char options[96];
  std::snprintf(options, sizeof options, "qhull Qs C-%.3g Pp", kCoplanarMergeRelative * diameter);
  FILE* sink = std::fopen("/dev/null", "w");        // qhull reports errors there; we return our own
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, sink);
  const int exitcode = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, options,
                                    nullptr, sink);
  if (exitcode != 0) {
    result.error = "the points span no volume (flat, collinear or coincident)";
  } else {
    // Hull vertices are renumbered densely in the order of their input index (deterministic).
    std::map<int, int> renumber;
    facetT* facet;
    vertexT* vertex;
    vertexT** vertexp;
    FORALLfacets {
      FOREACHvertex_(facet->vertices) renumber.emplace(qh_pointid(qh, vertex->point), 0);
    }
    Polytope hull;
    for (auto& [input, dense] : renumber) {
      dense = static_cast<int>(hull.vertices.size());
      hull.vertices.push_back(points[input]);
    }
    const double tolerance = kCoplanarMergeRelative * diameter;
    FORALLfacets {
      Polytope::Face face;
      face.normal = Eigen::Vector3d(facet->normal[0], facet->normal[1], facet->normal[2]).normalized();
      std::vector<int> ids;
      FOREACHvertex_(facet->vertices) ids.push_back(renumber.at(qh_pointid(qh, vertex->point)));
      face.loop = ordered_corners(ids, hull.vertices, face.normal, tolerance);
      if (face.loop.size() < 3) continue;              // a sliver facet: its neighbours cover it
      face.offset = -std::numeric_limits<double>::infinity();
      for (int id : face.loop) face.offset = std::max(face.offset, face.normal.dot(hull.vertices[id]));
      hull.faces.push_back(std::move(face));
    }
    // Vertices that ended up on no face's corner list (collinear points on an edge) are dropped.
    std::vector<int> used(hull.vertices.size(), -1);
    std::vector<Eigen::Vector3d> corners;
    for (int i = 0; i < static_cast<int>(hull.vertices.size()); ++i)
      for (const Polytope::Face& f : hull.faces)
        if (std::find(f.loop.begin(), f.loop.end(), i) != f.loop.end()) {
          used[i] = static_cast<int>(corners.size());
          corners.push_back(hull.vertices[i]);
          break;
        }
    for (Polytope::Face& f : hull.faces)
      for (int& id : f.loop) id = used[id];
    hull.vertices = std::move(corners);
    // Faces sorted by their smallest vertex id then loop: an order independent of qhull's internals.
    for (Polytope::Face& f : hull.faces)
      std::rotate(f.loop.begin(), std::min_element(f.loop.begin(), f.loop.end()), f.loop.end());
    std::sort(hull.faces.begin(), hull.faces.end(),
              [](const Polytope::Face& a, const Polytope::Face& b) { return a.loop < b.loop; });
    if (hull.faces.size() < 4) {
      result.error = "the hull has fewer than 4 faces";
    } else {
      result.hull = std::move(hull);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (sink) std::fclose(sink);
  return result;
}

double max_distance_from_hull_surface(const Polytope& hull, const std::vector<Eigen::Vector3d>& vertices,
                                      const std::vector<Eigen::Vector3i>& triangles) {
  double farthest = 0;
  for (const Eigen::Vector3i& t : triangles) {
    double best_fit = std::numeric_limits<double>::infinity();
    for (const Polytope::Face& f : hull.faces) {
      double off = 0;
      for (int k = 0; k < 3; ++k) off = std::max(off, std::abs(f.normal.dot(vertices[t[k]]) - f.offset));
      best_fit = std::min(best_fit, off);
    }
    farthest = std::max(farthest, best_fit);
  }
  return farthest;
}

}  // namespace impetus
