// The collision stage (DESIGN.md step 2).
//
//   1. poses        X_WG = X_WL[link] · X_LG for every geometry; its tight world box, grown by margin/2
//                   + s_g on every side, becomes its broad-phase box, so two boxes overlap exactly
//                   when the shapes' boxes are closer than the pair's margin m_ab = margin + s_a + s_b.
//                   Given LinkWrites, a geometry whose link is unwritten since the last detect() is not
//                   placed again: X_WG, the box and s_g are functions of X_WL[link], V_WL[link] and the
//                   motion's dt and speed gain alone, so they would get the bits they hold (a resting
//                   scene's bodies: ~85 % of the 1000 resting spheres' trees, issue 16).
//
// Speculative contact (with LinkMotion): s_g bounds how far any point of geometry g can move within the
// step, s_g = dt·(|v_O + ω × c_g| + |ω|·r_g + Δv), c_g and r_g the centre and half-diagonal of g's
// world box, Δv = |g|·dt what gravity adds within the step (a point moving under a constant twist
// moves at most dt times its largest speed; the integrator moves c by dt·v and turns about it).
// Every pair whose surfaces can meet within the step is then reported, with its gap φ ≤ m_ab, and
// the gap row N·v⁺ ≥ −φ/dt stops it at the surface. Guarantee: a pair that moves during the step with
// at most the speeds of its start (plus gravity's Δv) is seen before it penetrates; what remains is
// the linearisation of the row (a contact point and normal fixed over the step while the bodies
// turn, O(dt²|ω|²·r)) and speeds gained from other forces or impacts within the step, which the
// penetration recovery of sim/penetration_recovery.hpp removes. Pairs farther apart than m_ab cost
// nothing beyond the broad phase.
//   2. broad phase  sort and sweep (broad_phase.hpp) over the posed geometries' boxes: candidates = the
//                   overlapping pairs of movable × movable ∪ movable × immovable, sorted by geometry
//                   index, filtered (PairFilter); unless no box moved since the last.
//   3. narrow phase per geometry a in index order: its ground contacts (closed form,
//                   ground_contacts.hpp, or the height map's, height_field.hpp), then its pairs (a, b > a): convex pairs by FCL's queries
//                   and the manifold builder (manifold.hpp), pairs with a non-convex mesh by FCL alone
//                   (fcl_adapter.hpp); each pair's points reduced (contact_reduction.hpp).
// A = the lower geometry index, B = the higher one, or the ground. Every buffer of ours is reused
// from step to step; FCL itself allocates inside its queries (its GJK objects), which we cannot avoid.
// A geometry whose pose is not finite (a diverged state) gives no contacts.
#include "collision/collision_detector.hpp"

#include <fcl/fcl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "collision/broad_phase.hpp"
#include "collision/collision_shape.hpp"
#include "collision/contact_reduction.hpp"
#include "collision/fcl_adapter.hpp"
#include "collision/ground_contacts.hpp"
#include "collision/manifold.hpp"
#include "collision/pair_filter.hpp"

namespace impetus {
namespace {

bool same_box(const Eigen::AlignedBox3d& a, const Eigen::AlignedBox3d& b) {
  return (a.min().array() == b.min().array()).all() && (a.max().array() == b.max().array()).all();
}

}  // namespace

struct CollisionDetector::Impl {
  PairFilter filter;
  double margin;
  bool has_ground;
  std::shared_ptr<const HeightField> terrain;   // the ground's height map, or null: the plane
  LinkMotion motion;                                // of the current detect()
  LinkWrites writes;                                // of the current detect()
  const std::vector<Eigen::Isometry3d>* X_WL = nullptr;   // of the current detect()

  // Per geometry (immutable after construction).
  std::vector<int> link;
  std::vector<Eigen::Isometry3d> X_LG;
  std::vector<CollisionShape> shape;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> object;
  std::vector<std::shared_ptr<fcl::CollisionGeometryd>> core;   // swept shapes' cores (make_fcl_core), else null
  std::vector<int> movable_geometries, fixed_geometries;
  std::vector<char> movable;                        // per geometry: on a link not welded to the world
  bool fixed_placed = false;                        // the immovable geometries were placed at least once

  // Per-step scratch, reused.
  std::vector<GeometryReach> reaches;               // what reach(g) answers: X_WG, its box's sphere, s_g, ...
  std::vector<Eigen::AlignedBox3d> bounds_W;        // tight world boxes
  std::vector<Eigen::AlignedBox3d> grown_W;         // the broad phase's: bounds_W grown by margin/2 + s_g
  std::vector<std::uint64_t> placed_writes;         // the write count of g's link (LinkWrites) at its last place(g)
  std::vector<int> listed;                          // the posed geometries, given to the broad phase
  SweepAndPrune broad_phase;
  std::vector<PairKey> candidates;
  bool boxes_moved = true;                          // some box changed since the candidates were found
  std::vector<PairContact> points;
  std::vector<FclContact> mesh_contacts;
  FclNarrowPhase fcl_query;
  ManifoldBuilder manifold;
  ContactReducer reducer;

  explicit Impl(const CollisionFilter& f)
      : filter(f), margin(f.margin), has_ground(f.has_ground), terrain(f.has_ground ? f.terrain : nullptr) {}

  // The write count of g's link in this detect()'s LinkWrites (0 without).
  std::uint64_t writes_of(int g) const {
    return writes.count ? (*writes.count)[writes.group(link[g])] : 0;
  }

  // Whether place(g) would compute what it computed last for every geometry whose link is unwritten: this
  // detect()'s poses, motion and write counts are those of the last, which placed every geometry with them
  // (a detect() without LinkWrites, the recovery's at q⁺, breaks the chain: its successor places them all).
  bool placed_with(const std::vector<Eigen::Isometry3d>& X_WL_now, const LinkMotion& m, const LinkWrites& w) const {
    return w.count != nullptr && w.count == writes.count && w.group_of_link == writes.group_of_link && w.stride == writes.stride &&
           &X_WL_now == X_WL && m.V_WL == motion.V_WL && std::bit_cast<std::uint64_t>(m.dt) == std::bit_cast<std::uint64_t>(motion.dt) &&
           std::bit_cast<std::uint64_t>(m.speed_gain) == std::bit_cast<std::uint64_t>(motion.speed_gain);
  }

  void place(int g, const std::vector<Eigen::Isometry3d>& X_WL) {
    GeometryReach& r = reaches[g];
    ++r.placement;
    placed_writes[g] = writes_of(g);
    r.X_WG = X_WL[link[g]] * X_LG[g];
    // A pose that is not finite (a diverged state, which the stepper reports) gives no contacts and
    // must not reach FCL: a point box at the origin, left out of the broad phase.
    const bool was_posed = r.posed;
    r.posed = r.X_WG.matrix().allFinite();
    if (r.posed != was_posed) boxes_moved = true;
    if (!r.posed) {
      object[g]->setTransform(Eigen::Isometry3d::Identity());
      bounds_W[g] = Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
      r.centre.setZero();
      r.radius = 0;
      r.sweep = 0;
      set_box(g, bounds_W[g]);
      return;
    }
    object[g]->setTransform(r.X_WG);
    bounds_W[g] = world_bounds(shape[g], r.X_WG);
    r.centre = bounds_W[g].center();
    r.radius = 0.5 * bounds_W[g].diagonal().norm();
    r.sweep = sweep_of(g, r);
    Eigen::AlignedBox3d grown = bounds_W[g];
    grown.min().array() -= 0.5 * margin + r.sweep;
    grown.max().array() += 0.5 * margin + r.sweep;
    set_box(g, grown);
  }

  // The broad phase's answer is a function of the boxes (and which poses are finite) alone: while
  // every box is bitwise the last step's, so are the candidates (a resting scene's usual step).
  void set_box(int g, const Eigen::AlignedBox3d& box) {
    if (!same_box(grown_W[g], box)) boxes_moved = true;
    grown_W[g] = box;
  }

  // s_g of the header: dt·(|v_O + ω × c| + |ω|·r + Δv), c and r those of g's reach; 0 without motion or for a
  // state not finite.
  double sweep_of(int g, const GeometryReach& reach) const {
    if (!motion.V_WL || link[g] >= static_cast<int>(motion.V_WL->size())) return 0;
    const Eigen::Matrix<double, 6, 1>& V = (*motion.V_WL)[link[g]];
    const Eigen::Vector3d omega = V.head<3>(), v_O = V.tail<3>();
    const Eigen::Vector3d& c = reach.centre;
    const double r = reach.radius;
    const double s = motion.dt * ((v_O + omega.cross(c)).norm() + omega.norm() * r + motion.speed_gain);
    return std::isfinite(s) ? s : 0;
  }

  void emit(int a, int b, ContactSet& contacts) {
    reducer.reduce(points);
    for (const PairContact& p : points) {
      ContactPoint c;
      c.geom_a = a;
      c.geom_b = b;
      c.link_a = link[a];
      c.link_b = b == kGround ? kGround : link[b];
      c.p_W = p.p_W;
      c.n_W = p.n_W;
      c.phi = p.phi;
      c.feature = p.feature;
      c.mu = p.mu;
      contacts.push_back(c);
    }
  }

  void ground_pair(int a, ContactSet& contacts) {
    const GeometryReach& r = reaches[a];
    const double m = margin + r.sweep;
    const double top = terrain ? std::max(0.0, terrain->max_height()) : 0.0;
    if (!has_ground || !r.posed || !filter.allowed(link[a], kGround) || bounds_W[a].min().z() > top + m) return;
    const Eigen::Isometry3d& X_WG_a = r.X_WG;
    points.clear();
    if (terrain && shape[a].convex) {
      height_field_contacts(*terrain, shape[a].convex_shape, X_WG_a, m, points);
    } else if (terrain) {
      height_field_contacts(*terrain, shape[a].ground_points, X_WG_a, m, points);
    } else if (shape[a].convex) {
      ground_contacts(shape[a].convex_shape, X_WG_a, m, points);
    } else {
      ground_contacts(shape[a].ground_points, X_WG_a, m, points);
    }
    emit(a, kGround, contacts);
  }

  void geometry_pair(int a, int b, ContactSet& contacts) {
    const double margin = this->margin + reaches[a].sweep + reaches[b].sweep;   // m_ab
    points.clear();
    if (shape[a].convex && shape[b].convex) {
      const PosedShape A{&shape[a].convex_shape, reaches[a].X_WG}, B{&shape[b].convex_shape, reaches[b].X_WG};
      NearestOfCores cores;
      const bool from_cores = ManifoldBuilder::normal_from_cores(A, B, cores);
      if (from_cores && A.shape->kind == ConvexShape::Kind::kSphere && B.shape->kind == ConvexShape::Kind::kSphere) {
        ManifoldBuilder::sphere_pair(A, B, cores, margin, points);   // build()'s bits without what finds nothing
      } else {
        NormalHint hint;
        BoxAxes axes;
        if (!from_cores && !ManifoldBuilder::boxes_overlap_at_a_face(A, B, margin, axes) &&
            !fcl_query.query(*object[a], *object[b], margin, hint))
          return;
        FclSeparation oracle(fcl_query, *object[a], *object[b], core[a].get(), core[b].get());
        manifold.build(A, B, hint, margin, &oracle, points, &cores, from_cores ? nullptr : &axes);
      }
    } else {
      fcl_query.query_all(*object[a], *object[b], margin, mesh_contacts);
      for (const FclContact& f : mesh_contacts) {
        if (!(f.phi <= margin)) continue;
        PairContact p;
        p.p_W = f.p_W;
        p.n_W = f.n_W;
        p.phi = f.phi;
        p.feature = feature_id({f.primitive_a, f.primitive_b});
        points.push_back(p);
      }
    }
    emit(a, b, contacts);
  }
};

CollisionDetector::CollisionDetector(const std::vector<Geometry>& geometries, const CollisionFilter& filter)
    : impl_(std::make_unique<Impl>(filter)) {
  Impl& d = *impl_;
  if (!(std::isfinite(filter.margin) && filter.margin >= 0)) {
    std::ostringstream message;
    message << "collision margin must be finite and non-negative, got " << filter.margin;
    throw std::invalid_argument(message.str());
  }
  const int n = static_cast<int>(geometries.size());
  for (int g = 0; g < n; ++g) {
    const Geometry& geometry = geometries[g];
    if (geometry.link < 0) {
      std::ostringstream message;
      message << "collision geometry " << g << " ('" << geometry.name << "') has no link (link = " << geometry.link << ")";
      throw std::invalid_argument(message.str());
    }
    d.link.push_back(geometry.link);
    d.X_LG.push_back(geometry.X_LG);
    d.shape.push_back(prepare_shape(geometry, g));
    d.object.push_back(std::make_unique<fcl::CollisionObjectd>(make_fcl_geometry(geometry, d.shape.back()),
                                                               fcl::Transform3d::Identity()));
    d.core.push_back(make_fcl_core(d.shape.back()));
    d.movable.push_back(d.filter.movable(geometry.link) ? 1 : 0);
    (d.movable.back() ? d.movable_geometries : d.fixed_geometries).push_back(g);
  }
  d.reaches.resize(n);
  d.bounds_W.resize(n);
  d.grown_W.resize(n);
  d.placed_writes.assign(n, 0);
}

CollisionDetector::~CollisionDetector() = default;

double CollisionDetector::margin() const { return impl_->margin; }

const GeometryReach& CollisionDetector::reach(int g) const { return impl_->reaches[g]; }

void CollisionDetector::detect(const std::vector<Eigen::Isometry3d>& X_WL, ContactSet& contacts,
                               const LinkMotion& motion, const LinkWrites& writes) {
  Impl& d = *impl_;
  const bool placed_with_these = d.placed_with(X_WL, motion, writes);
  d.motion = motion;
  d.writes = writes;
  d.X_WL = &X_WL;
  contacts.clear();
  for (int l : d.link)
    if (l >= static_cast<int>(X_WL.size())) {
      std::ostringstream message;
      message << "CollisionDetector::detect: " << X_WL.size() << " link poses for a geometry on link " << l;
      throw std::invalid_argument(message.str());
    }

  // 1. Poses and bounds. Immovable geometries are re-placed only when their links moved.
  for (int g : d.movable_geometries)
    if (!(placed_with_these && d.placed_writes[g] == d.writes_of(g))) d.place(g, X_WL);
  for (int g : d.fixed_geometries) {
    const Eigen::Isometry3d X = X_WL[d.link[g]] * d.X_LG[g];
    if (!d.fixed_placed || X.matrix() != d.reaches[g].X_WG.matrix()) d.place(g, X_WL);
  }
  d.fixed_placed = true;

  // 2. Broad phase, unless no box moved: then the candidates are the last step's.
  if (d.boxes_moved) {
    d.listed.clear();
    for (int g = 0; g < static_cast<int>(d.link.size()); ++g)
      if (d.reaches[g].posed) d.listed.push_back(g);
    d.broad_phase.overlapping_pairs(d.grown_W, d.listed, d.movable, d.candidates);
    std::erase_if(d.candidates, [&](PairKey k) { return !d.filter.allowed(d.link[first_of(k)], d.link[second_of(k)]); });
    d.boxes_moved = false;
  }

  // 3. Narrow phase, in pair order: (a, ground) before (a, b).
  auto next = d.candidates.begin();
  for (int a = 0; a < static_cast<int>(d.link.size()); ++a) {
    d.ground_pair(a, contacts);
    for (; next != d.candidates.end() && first_of(*next) == a; ++next) d.geometry_pair(a, second_of(*next), contacts);
  }
}

}  // namespace impetus
