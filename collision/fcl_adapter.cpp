#include "collision/fcl_adapter.hpp"

#include <fcl/fcl.h>

#include <cmath>

namespace impetus {
namespace {

/// Nearest points closer than this (m) give no direction (F2).
constexpr double kDirectionless = 1e-12;

/// Tolerance of FCL's GJK and MPR iterations (its default is 1e-6): gaps enter the contact stage
/// through N·v⁺ ≥ −φ/dt, so a 1e-6 m error at dt = 1e-3 s is a 1 mm/s velocity error; and the
/// direction between GJK's nearest points, our normal for separated pairs, is only as good as
/// tolerance/distance (measured: 1e-9 leaves 6e-5 rad on a convex mesh 1 mm from a sphere, 1e-12
/// about 1e-5, 1e-15 about 1e-7).
constexpr double kGjkTolerance = 1e-15;

bool unit(const Eigen::Vector3d& n) { return n.allFinite() && std::abs(n.norm() - 1.0) < 1e-6; }

}  // namespace

std::shared_ptr<fcl::CollisionGeometry<double>> make_fcl_geometry(const Geometry& geometry, const CollisionShape& shape) {
  if (shape.convex) {
    const ConvexShape& c = shape.convex_shape;
    switch (c.kind) {
      case ConvexShape::Kind::kSphere: return std::make_shared<fcl::Sphered>(c.radius);
      case ConvexShape::Kind::kCapsule: return std::make_shared<fcl::Capsuled>(c.radius, 2 * c.half_length);
      case ConvexShape::Kind::kCylinder: return std::make_shared<fcl::Cylinderd>(c.radius, 2 * c.half_length);
      case ConvexShape::Kind::kPolytope: {
        if (const auto* box = std::get_if<Box>(&geometry.shape)) return std::make_shared<fcl::Boxd>(box->size);
        // Convex mesh: its hull, faces encoded as [k, i0, …, ik−1, …], counter-clockwise from outside.
        auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(c.polytope->vertices.begin(),
                                                                      c.polytope->vertices.end());
        auto faces = std::make_shared<std::vector<int>>();
        for (const Polytope::Face& f : c.polytope->faces) {
          faces->push_back(static_cast<int>(f.loop.size()));
          faces->insert(faces->end(), f.loop.begin(), f.loop.end());
        }
        return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(c.polytope->faces.size()), faces);
      }
    }
  }
  const Mesh& mesh = std::get<Mesh>(geometry.shape);
  auto bvh = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Vector3d> points(mesh.vertices.begin(), mesh.vertices.end());
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const Eigen::Vector3i& t : mesh.triangles) triangles.emplace_back(t.x(), t.y(), t.z());
  bvh->beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size()));
  bvh->addSubModel(points, triangles);
  bvh->endModel();
  bvh->computeLocalAABB();
  return bvh;
}

std::shared_ptr<fcl::CollisionGeometry<double>> make_fcl_core(const CollisionShape& shape) {
  if (!shape.convex) return nullptr;
  const ConvexShape& c = shape.convex_shape;
  if (c.kind == ConvexShape::Kind::kSphere) return std::make_shared<fcl::Sphered>(0.0);
  if (c.kind == ConvexShape::Kind::kCapsule) return std::make_shared<fcl::Capsuled>(0.0, 2 * c.half_length);
  return nullptr;
}

struct FclNarrowPhase::Impl {
  fcl::CollisionRequestd collision_request;
  fcl::CollisionResultd collision_result;
  fcl::DistanceRequestd distance_request;
  fcl::DistanceResultd distance_result;
};

FclNarrowPhase::FclNarrowPhase() : impl_(std::make_unique<Impl>()) {
  impl_->collision_request.enable_contact = true;
  impl_->collision_request.gjk_tolerance = kGjkTolerance;
  impl_->distance_request.enable_nearest_points = true;
  impl_->distance_request.distance_tolerance = kGjkTolerance;
}

FclNarrowPhase::~FclNarrowPhase() = default;

bool FclNarrowPhase::query(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b, double margin,
                           NormalHint& hint) {
  hint = NormalHint{};
  Impl& q = *impl_;
  q.collision_request.num_max_contacts = 1;
  q.collision_result.clear();
  fcl::collide(&a, &b, q.collision_request, q.collision_result);
  if (q.collision_result.isCollision()) {
    // (F1), the deepest of FCL's contacts.
    const fcl::Contactd* deepest = &q.collision_result.getContact(0);
    for (size_t k = 1; k < q.collision_result.numContacts(); ++k)
      if (q.collision_result.getContact(k).penetration_depth > deepest->penetration_depth)
        deepest = &q.collision_result.getContact(k);
    hint.n_W = -deepest->normal;
    hint.phi = -deepest->penetration_depth;
    hint.p_W = deepest->pos;
    hint.valid = unit(hint.n_W) && std::isfinite(hint.phi) && hint.p_W.allFinite();
    return true;
  }
  q.distance_result.clear();
  fcl::distance(&a, &b, q.distance_request, q.distance_result);
  const double d = q.distance_result.min_distance;
  if (d > margin) return false;
  if (d < 0) return true;                    // FCL contradicts itself: touching, direction unknown
  // (F2)
  const Eigen::Vector3d x_A = q.distance_result.nearest_points[0], x_B = q.distance_result.nearest_points[1];
  const Eigen::Vector3d diff = x_A - x_B;
  hint.phi = d;
  hint.p_W = 0.5 * (x_A + x_B);
  if (diff.norm() > kDirectionless) {
    hint.n_W = diff.normalized();
    hint.valid = hint.n_W.allFinite() && hint.p_W.allFinite();
  }
  return true;
}

bool FclNarrowPhase::separated_direction(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b,
                                         const Eigen::Vector3d& shift, Eigen::Vector3d& n, Eigen::Vector3d& x_A,
                                         Eigen::Vector3d& x_B) {
  Impl& q = *impl_;
  fcl::Transform3d X_a = a.getTransform();
  X_a.translation() += shift;
  q.distance_result.clear();
  fcl::distance(a.collisionGeometry().get(), X_a, b.collisionGeometry().get(), b.getTransform(), q.distance_request,
                q.distance_result);
  if (!(q.distance_result.min_distance > 0)) return false;
  x_A = q.distance_result.nearest_points[0];
  x_B = q.distance_result.nearest_points[1];
  const Eigen::Vector3d diff = x_A - x_B;   // (F2)
  if (!(diff.norm() > kDirectionless)) return false;
  n = diff.normalized();
  return n.allFinite() && x_A.allFinite() && x_B.allFinite();
}

bool FclNarrowPhase::core_distance(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b,
                                   const fcl::CollisionGeometryd& core, bool core_of_A, Eigen::Vector3d& x_core,
                                   Eigen::Vector3d& x_other) {
  Impl& q = *impl_;
  q.distance_result.clear();
  if (core_of_A) {
    fcl::distance(&core, a.getTransform(), b.collisionGeometry().get(), b.getTransform(), q.distance_request,
                  q.distance_result);
  } else {
    fcl::distance(a.collisionGeometry().get(), a.getTransform(), &core, b.getTransform(), q.distance_request,
                  q.distance_result);
  }
  if (!(q.distance_result.min_distance > 0)) return false;
  x_core = q.distance_result.nearest_points[core_of_A ? 0 : 1];
  x_other = q.distance_result.nearest_points[core_of_A ? 1 : 0];
  return x_core.allFinite() && x_other.allFinite();
}

void FclNarrowPhase::query_all(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b, double margin,
                               std::vector<FclContact>& out) {
  out.clear();
  Impl& q = *impl_;
  q.collision_request.num_max_contacts = kMaxFclContacts;
  q.collision_result.clear();
  fcl::collide(&a, &b, q.collision_request, q.collision_result);
  if (q.collision_result.isCollision()) {
    for (size_t k = 0; k < q.collision_result.numContacts(); ++k) {
      const fcl::Contactd& c = q.collision_result.getContact(k);
      FclContact f;                          // (F1)
      f.n_W = -c.normal;
      f.phi = -c.penetration_depth;
      f.p_W = c.pos;
      f.primitive_a = static_cast<int>(c.b1);
      f.primitive_b = static_cast<int>(c.b2);
      if (unit(f.n_W) && std::isfinite(f.phi) && f.p_W.allFinite()) out.push_back(f);
    }
    return;
  }
  q.distance_result.clear();
  fcl::distance(&a, &b, q.distance_request, q.distance_result);
  const double d = q.distance_result.min_distance;
  if (!(d >= 0 && d <= margin)) return;
  const Eigen::Vector3d x_A = q.distance_result.nearest_points[0], x_B = q.distance_result.nearest_points[1];
  const Eigen::Vector3d diff = x_A - x_B;
  if (!(diff.norm() > kDirectionless)) return;   // touching without a direction: the next step decides
  FclContact f;                              // (F2)
  f.n_W = diff.normalized();
  f.phi = d;
  f.p_W = 0.5 * (x_A + x_B);
  f.primitive_a = static_cast<int>(q.distance_result.b1);
  f.primitive_b = static_cast<int>(q.distance_result.b2);
  out.push_back(f);
}

}  // namespace impetus
