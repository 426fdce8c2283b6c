#include "collision/collision_shape.hpp"

#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "collision/convex_hull.hpp"
#include "collision/polytope.hpp"

namespace impetus {
namespace {

[[noreturn]] void refuse(const Geometry& g, int index, const std::string& why) {
  std::ostringstream message;
  message << "collision geometry " << index;
  if (!g.name.empty()) message << " ('" << g.name << "')";
  message << " (" << shape_kind(g.shape) << "): " << why;
  throw std::invalid_argument(message.str());
}

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

CollisionShape prepare_shape(const Geometry& g, int index) {
  CollisionShape out;
  ConvexShape& c = out.convex_shape;
  if (const auto* s = std::get_if<Sphere>(&g.shape)) {
    // Radius 0 is a contact point (Drake's convention for feet): a sphere whose core is all of it.
    if (!(std::isfinite(s->radius) && s->radius >= 0)) refuse(g, index, "radius must be non-negative and finite");
    c.kind = ConvexShape::Kind::kSphere;
    c.radius = s->radius;
  } else if (const auto* b = std::get_if<Box>(&g.shape)) {
    if (!positive(b->size.x()) || !positive(b->size.y()) || !positive(b->size.z()))
      refuse(g, index, "every edge length must be positive and finite");
    c.kind = ConvexShape::Kind::kPolytope;
    c.polytope = std::make_shared<const Polytope>(make_box_polytope(b->size));
    c.box_half = 0.5 * b->size;
  } else if (const auto* y = std::get_if<Cylinder>(&g.shape)) {
    if (!positive(y->radius) || !positive(y->length)) refuse(g, index, "radius and length must be positive and finite");
    c.kind = ConvexShape::Kind::kCylinder;
    c.radius = y->radius;
    c.half_length = 0.5 * y->length;
  } else if (const auto* p = std::get_if<Capsule>(&g.shape)) {
    // A capsule of zero cylinder length is a sphere; a negative one is an error.
    if (!positive(p->radius) || !(std::isfinite(p->length) && p->length >= 0))
      refuse(g, index, "radius must be positive and length non-negative, both finite");
    c.kind = ConvexShape::Kind::kCapsule;
    c.radius = p->radius;
    c.half_length = 0.5 * p->length;
  } else {
    const Mesh& m = std::get<Mesh>(g.shape);
    if (m.vertices.empty()) refuse(g, index, "the mesh has no vertices ('" + m.filename + "')");
    for (const Eigen::Vector3d& v : m.vertices)
      if (!v.allFinite()) refuse(g, index, "a vertex of '" + m.filename + "' is not finite");
    for (const Eigen::Vector3i& t : m.triangles)
      if ((t.array() < 0).any() || (t.array() >= static_cast<int>(m.vertices.size())).any())
        refuse(g, index, "a triangle of '" + m.filename + "' indexes a missing vertex");
    if (m.hull) {   // kept by prepare_shape_keeping_hull: a hull with volume, of a mesh that collides as it
      c.kind = ConvexShape::Kind::kPolytope;
      c.polytope = m.hull;
      return out;
    }
    HullResult hull = convex_hull(m.vertices);
    if (hull.hull) {
      const double tolerance = kConvexityRelative * hull.hull->diameter();
      if (!m.exact || max_distance_from_hull_surface(*hull.hull, m.vertices, m.triangles) <= tolerance) {
        c.kind = ConvexShape::Kind::kPolytope;
        c.polytope = std::make_shared<const Polytope>(std::move(*hull.hull));
        return out;
      }
      out.ground_points = hull.hull->vertices;
    } else {
      // Flat or degenerate: no volume, no hull. Its triangles still collide through FCL's BVH.
      if (m.triangles.empty()) refuse(g, index, "'" + m.filename + "' has no triangles and " + hull.error);
      out.ground_points = m.vertices;
    }
    out.convex = false;
    out.bounds_G.setEmpty();
    for (const Eigen::Vector3d& v : m.vertices) out.bounds_G.extend(v);
  }
  return out;
}

CollisionShape prepare_shape_keeping_hull(Geometry& g, int index) {
  CollisionShape out = prepare_shape(g, index);
  if (auto* m = std::get_if<Mesh>(&g.shape); m && out.convex) m->hull = out.convex_shape.polytope;
  return out;
}

Eigen::AlignedBox3d world_bounds(const CollisionShape& shape, const Eigen::Isometry3d& X_WG) {
  if (shape.convex) return world_bounds(shape.convex_shape, X_WG);
  // |R|·half-extents around the transformed centre: a box containing the rotated local box.
  const Eigen::Vector3d centre = X_WG * shape.bounds_G.center();
  const Eigen::Vector3d half = X_WG.linear().cwiseAbs() * (0.5 * shape.bounds_G.sizes());
  return Eigen::AlignedBox3d(centre - half, centre + half);
}

}  // namespace impetus
