// The FCL adapter: contact points, normals and signed gaps of every geometry pair within a margin.
#pragma once

#include <Eigen/Geometry>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "collision/contact_set.hpp"
#include "collision/geometry.hpp"
#include "collision/height_field.hpp"

namespace impetus {

/// A pair of links, either of which may be kGround (the plane).
struct LinkPair {
  int a = -1, b = -1;
};

/// Which pairs are never tested (collision/pair_filter.hpp says how they combine).
struct CollisionFilter {
  std::vector<int> link_parent;             // per link: parent link index, −1 for the world
  std::vector<bool> link_movable;           // per link: false for links welded to the world
  /// Per link: the rigid body it belongs to, named by a link: the nearest link at or above it whose
  /// joint moves (or its tree's root when it is welded to the world). Empty: each link is a body.
  std::vector<int> link_body;
  bool exclude_parent_child = true;         // skip pairs of a link and its parent link
  std::vector<LinkPair> excluded;           // pairs never tested (a self-collision policy, <exclude>)
  std::vector<LinkPair> included;           // pairs tested whatever the rules above say (<include>)
  double margin = 0.005;                    // m: separated pairs closer than this are reported
  bool has_ground = false;                  // the plane z = 0 with normal +z
  std::shared_ptr<const HeightField> terrain;   // when set (with has_ground): the ground is this height map
                                                // on its rectangle and the plane beyond it
};

/// How the links move over the coming step, for speculative contact (collision_detector.cpp, "margin").
/// Empty V_WL: no lookahead, every pair has the fixed margin.
struct LinkMotion {
  const std::vector<Eigen::Matrix<double, 6, 1>>* V_WL = nullptr;   // per link: [ω; v_O] in W, v_O the
                                                                     // velocity of the link's point at W's origin
  double dt = 0;                            // s: the step looked ahead
  double speed_gain = 0;                    // m/s: how much a speed can grow within the step (|g|·dt)
};

/// Which links are unwritten since the last detect(), so that their geometries keep the poses, boxes and sweeps
/// it computed: count[group(l)] changes whenever X_WL[l] or (*LinkMotion::V_WL)[l] may have changed
/// (the stepper passes dynamics/data.hpp's kinematics_pass, per tree). Empty: every link counts as written.
/// The groups are read in place, where the caller keeps them: link l's is the int `stride` bytes after link l − 1's,
/// so a field of an array of records serves (the stepper's: &MultibodyModel::links[0].tree, stride sizeof(Link)).
struct LinkWrites {
  const std::vector<std::uint64_t>* count = nullptr;   // per group
  const int* group_of_link = nullptr;                  // link 0's group
  std::size_t stride = sizeof(int);                    // bytes from one link's group to the next's

  int group(int link) const {
    return *reinterpret_cast<const int*>(reinterpret_cast<const char*>(group_of_link) + stride * link);
  }
};

/// A geometry as the last detect() saw it: its pose, a sphere that holds it (about its world box's centre,
/// radius half the box's diagonal) and s_g, how far it could move within the step (0 without motion). The
/// collision stage keeps these and computes s_g from the sphere.
struct GeometryReach {
  Eigen::Isometry3d X_WG = Eigen::Isometry3d::Identity();   // as placed: not finite when !posed
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();         // 0 when !posed
  double radius = 0;     // m; 0 when !posed
  double sweep = 0;      // m: s_g; 0 when !posed
  bool posed = false;    // its pose was finite (else it took part in no pair)
  std::uint64_t placement = 0;   // how many times detect() has placed g: while unchanged, so is all of the above
};

class CollisionDetector {
 public:
  CollisionDetector(const std::vector<Geometry>& geometries, const CollisionFilter& filter);
  ~CollisionDetector();
  CollisionDetector(const CollisionDetector&) = delete;
  CollisionDetector& operator=(const CollisionDetector&) = delete;

  /// X_WL: pose of every link. Replaces `contacts` with the contacts at these poses, in a
  /// deterministic order (by pair, then feature). With `motion`, each pair's margin grows by how far
  /// its two geometries can move within the step (speculative contact). With `writes`, a geometry whose link
  /// is unwritten since the last detect() (given the same X_WL, motion and writes) keeps what that detect()
  /// computed for it, the bits it would compute again.
  void detect(const std::vector<Eigen::Isometry3d>& X_WL, ContactSet& contacts, const LinkMotion& motion = {},
              const LinkWrites& writes = {});

  /// Geometry g (an index into the geometries given at construction) at the last detect(). A pair that
  /// detect() did not report is farther apart than the margin plus the two sweeps, so it stays apart while
  /// neither geometry moves by more than its sweep.
  /// The detector's own record (no copy), valid until the next detect().
  const GeometryReach& reach(int g) const;
  /// m: the margin every pair's report threshold starts from (CollisionFilter::margin).
  double margin() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impetus
