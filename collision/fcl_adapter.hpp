// Everything that speaks FCL: building its geometries, asking it about a pair, and translating its
// answers into our convention — once, here.
//
// FCL 0.7's convention (fcl/narrowphase/contact.h, checked by tests/collision/fcl_convention_test.cpp
// for every pair of shape kinds in both orders):
//   Contact::normal              unit, pointing from o1 to o2
//   Contact::penetration_depth   ≥ 0
//   Contact::pos                 a point of the overlap (world frame)
//   DistanceResult::nearest_points[k]   the nearest point on o(k+1), world frame
// Ours (contact_set.hpp): A = o1, B = o2, n from B towards A, φ signed. Hence
//   penetrating:  n = −normal,  φ = −penetration_depth,  p = pos                             (F1)
//   apart:        n = (x_A − x_B)/|x_A − x_B|,  φ = min_distance,  p = (x_A + x_B)/2          (F2)
// with x_A = nearest_points[0], x_B = nearest_points[1].
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "collision/collision_shape.hpp"
#include "collision/geometry.hpp"
#include "collision/manifold.hpp"

namespace fcl {
template <typename S>
class CollisionGeometry;
template <typename S>
class CollisionObject;
}  // namespace fcl

namespace impetus {

/// At most this many contacts are taken from FCL for a pair involving a non-convex mesh (one per
/// intersecting triangle pair); the reducer keeps the extreme ones.
constexpr int kMaxFclContacts = 64;

/// FCL's geometry for a prepared shape: Sphered, Boxd, Capsuled, Cylinderd, Convexd (convex meshes,
/// as their hull) or BVHModel<OBBRSSd> (non-convex meshes, their triangles).
std::shared_ptr<fcl::CollisionGeometry<double>> make_fcl_geometry(const Geometry& geometry, const CollisionShape& shape);

/// FCL's geometry of a swept shape's core (collision/manifold.hpp, M1): a sphere of radius 0 at a
/// sphere's centre, a capsule of radius 0 along a capsule's segment; null for other shapes.
std::shared_ptr<fcl::CollisionGeometry<double>> make_fcl_core(const CollisionShape& shape);

/// FCL's contact for a pair involving a non-convex mesh, in our convention; primitive_* are the
/// triangle indices (−1 for a shape).
struct FclContact {
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();
  double phi = 0;
  int primitive_a = -1, primitive_b = -1;
};

/// Pair queries with reused request and result objects.
class FclNarrowPhase {
 public:
  FclNarrowPhase();
  ~FclNarrowPhase();
  FclNarrowPhase(const FclNarrowPhase&) = delete;
  FclNarrowPhase& operator=(const FclNarrowPhase&) = delete;

  /// Convex pairs. False when FCL finds the pair apart by more than `margin`. Otherwise true, and
  /// `hint` holds FCL's deepest contact (F1) or nearest points (F2); hint.valid is false when FCL's
  /// answer has no usable direction (zero-length normal, nearest points that coincide, or a
  /// collision test and a distance query that contradict each other, as FCL 0.7 does for some
  /// capsule pairs within 1e-9 m of touching).
  bool query(const fcl::CollisionObject<double>& a, const fcl::CollisionObject<double>& b, double margin,
             NormalHint& hint);

  /// With A translated by `shift`: if FCL finds the pair apart, the unit direction from B's nearest
  /// point x_B to A's x_A (F2), and true.
  bool separated_direction(const fcl::CollisionObject<double>& a, const fcl::CollisionObject<double>& b,
                           const Eigen::Vector3d& shift, Eigen::Vector3d& n, Eigen::Vector3d& x_A,
                           Eigen::Vector3d& x_B);

  /// The nearest points of `core` (placed like the object it belongs to: a when core_of_A, else b)
  /// and the other object, if they are apart (F2).
  bool core_distance(const fcl::CollisionObject<double>& a, const fcl::CollisionObject<double>& b,
                     const fcl::CollisionGeometry<double>& core, bool core_of_A, Eigen::Vector3d& x_core,
                     Eigen::Vector3d& x_other);

  /// Pairs involving a non-convex mesh: every contact FCL reports when they overlap (up to
  /// kMaxFclContacts), else the nearest points if within `margin` (F1, F2). Replaces `out`.
  void query_all(const fcl::CollisionObject<double>& a, const fcl::CollisionObject<double>& b, double margin,
                 std::vector<FclContact>& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The SeparationOracle of one pair (collision/manifold.hpp, M1), by FCL's distance query.
/// core_a, core_b: the objects' cores (make_fcl_core), or null.
class FclSeparation final : public SeparationOracle {
 public:
  FclSeparation(FclNarrowPhase& fcl, const fcl::CollisionObject<double>& a, const fcl::CollisionObject<double>& b,
                const fcl::CollisionGeometry<double>* core_a, const fcl::CollisionGeometry<double>* core_b)
      : fcl_(fcl), a_(a), b_(b), core_a_(core_a), core_b_(core_b) {}
  bool separated_direction(const Eigen::Vector3d& shift, Eigen::Vector3d& n, Eigen::Vector3d& x_A,
                           Eigen::Vector3d& x_B) override {
    return fcl_.separated_direction(a_, b_, shift, n, x_A, x_B);
  }
  bool core_distance(bool core_of_A, Eigen::Vector3d& x_core, Eigen::Vector3d& x_other) override {
    const fcl::CollisionGeometry<double>* core = core_of_A ? core_a_ : core_b_;
    return core && fcl_.core_distance(a_, b_, *core, core_of_A, x_core, x_other);
  }

 private:
  FclNarrowPhase& fcl_;
  const fcl::CollisionObject<double>& a_;
  const fcl::CollisionObject<double>& b_;
  const fcl::CollisionGeometry<double>* core_a_;
  const fcl::CollisionGeometry<double>* core_b_;
};

}  // namespace impetus
