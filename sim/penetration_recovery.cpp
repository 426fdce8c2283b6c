#include "sim/penetration_recovery.hpp"

#include <algorithm>

#include "contact/ecp/ecp_system.hpp"
#include "contact/solvers/grow_only.hpp"
#include "contact/sparse_fill.hpp"
#include "dynamics/crba.hpp"
#include "dynamics/integration.hpp"
#include "dynamics/jacobian.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/assembly.hpp"
#include "sim/step_kinematics.hpp"

namespace impetus {

static_assert(ecp::kGapFloorSlop == kRecoverySlop,
              "the depth the ECP model's (E6′) leaves to the recovery must be the depth the recovery corrects");

namespace {

/// The tree of `link` when the recovery may move it (a coordinate neither fixed nor held), else −1.
int movable_tree(const MultibodyModel& mb, const RecoveryScope& scope, int link) {
  if (link < 0) return -1;
  const int t = mb.links[link].tree;
  return scope.free_coordinates[t] > 0 ? t : -1;
}

/// Whether (R2) corrects contact c: not a compliant pair's (its penetration is the spring's deflection,
/// contact/compliance.hpp), and one of its links movable.
bool recovered_here(const WorldModel& model, const RecoveryScope& scope, const ContactPoint& c) {
  const MultibodyModel& mb = model.multibody;
  return pair_compliance(model, c.link_a, c.link_b).rigid() &&
         (movable_tree(mb, scope, c.link_a) >= 0 || movable_tree(mb, scope, c.link_b) >= 0);
}

/// The columns of (R3): the independent coordinates u (dynamics/mimic.hpp (1)) no controller holds of every
/// tree of a row, with the metric GᵀM(q⁺)G over them and its factor (the held coordinates' δ is zero, so
/// (R2) over the rest has that block as its metric; a mimic follower moves with its leader, δ_v = G δ_u).
/// Without mimic joints G = 1, the columns are the tree's coordinates not held, as before mimic support.
void gather_systems(const MultibodyModel& mb, const MultibodyData& kin, const RecoveryScope& scope, RecoveryScratch& s) {
  ContactProblem& P = s.problem;
  s.tree_added.assign(mb.trees.size(), 0);
  s.column_of.assign(mb.nv, -1);
  s.gain_of.assign(mb.nv, 1.0);
  P.systems.clear();
  int nv = 0;
  auto add = [&](int t) {
    if (t < 0 || s.tree_added[t]) return;
    s.tree_added[t] = 1;
    const Tree& tree = mb.trees[t];
    const int n = scope.free_coordinates[t];
    const Eigen::MatrixXd* M = &kin.M[t];
    if (tree.has_mimic()) {   // GᵀMG over the free columns of u
      std::vector<int>& local = s.local_column;
      local.assign(tree.nu, -1);
      for (int c = 0, fc = 0; c < tree.nu; ++c)
        if (!scope.held_column[tree.v_offset + c]) local[c] = fc++;
      s.M_free[t].setZero(n, n);
      for (int i = 0; i < tree.nv; ++i) {
        const int a = local[tree.u_column[i]];
        if (a < 0) continue;
        for (int j = 0; j < tree.nv; ++j) {
          const int b = local[tree.u_column[j]];
          if (b >= 0) s.M_free[t](a, b) += tree.u_gain[i] * tree.u_gain[j] * kin.M[t](i, j);
        }
      }
      for (int i = 0; i < tree.nv; ++i) {
        const int a = local[tree.u_column[i]];
        if (a < 0) continue;
        s.column_of[tree.v_offset + i] = nv + a;
        s.gain_of[tree.v_offset + i] = tree.u_gain[i];
      }
      M = &s.M_free[t];
    } else {
      if (n < tree.nv) {   // the block over the free coordinates
        s.M_free[t].resize(n, n);
        for (int i = 0, fi = 0; i < tree.nv; ++i) {
          if (scope.held[tree.v_offset + i]) continue;
          for (int j = 0, fj = 0; j < tree.nv; ++j)
            if (!scope.held[tree.v_offset + j]) s.M_free[t](fi, fj++) = kin.M[t](i, j);
          ++fi;
        }
        M = &s.M_free[t];
      }
      for (int i = 0, c = nv; i < tree.nv; ++i)
        if (!scope.held[tree.v_offset + i]) s.column_of[tree.v_offset + i] = c++;
    }
    s.M_llt[t].compute(*M);
    P.systems.push_back({nv, n, M, &s.M_llt[t]});
    nv += n;
  };
  for (int r : s.rows) {
    add(movable_tree(mb, scope, s.contacts[r].link_a));
    add(movable_tree(mb, scope, s.contacts[r].link_b));
  }
  P.nv = nv;
}

/// N⁺G of (R3), the rows' normal wrenches at q⁺ (as sim/assembly.cpp's N) on the columns of u, and the
/// rows' gaps φ⁺; then the limit rows of (R7) of s.limits: +1 (lower) or −1 (upper) on their column.
void assemble_rows(const MultibodyModel& mb, const MultibodyData& kin, const RecoveryScope& scope, RecoveryScratch& s) {
  ContactProblem& P = s.problem;
  s.triplets.clear();
  const int nc = static_cast<int>(s.rows.size()), nl = static_cast<int>(s.limits.size());
  // Rows past nc + nl, up to the most met, are left empty with gap 0 (issue 16: Eigen reallocates a sparse
  // matrix's row index, and A, at every change of row count); solve_projection reads the first nc + nl only.
  const int rows = std::max(nc + nl, static_cast<int>(P.N.rows()));
  s.gap.resize(rows);
  s.gap.tail(rows - nc - nl).setZero();
  for (int i = 0; i < nc; ++i) {
    const ContactPoint& c = s.contacts[s.rows[i]];
    s.gap[i] = c.phi;
    auto add_link = [&](int link, double sign) {
      if (movable_tree(mb, scope, link) < 0) return;
      for_each_point_jacobian_column(mb, kin, link, c.p_W, [&](int k, const Eigen::Vector3d& col) {
        if (s.column_of[k] >= 0) s.triplets.emplace_back(i, s.column_of[k], s.gain_of[k] * (sign * c.n_W.dot(col)));
      });
    };
    add_link(c.link_a, +1.0);
    add_link(c.link_b, -1.0);
  }
  for (int i = 0; i < nl; ++i) {
    const RecoveryLimitRow& l = s.limits[i];
    s.gap[nc + i] = l.gap;
    s.triplets.emplace_back(nc + i, l.column, l.sign);
  }
  P.nc = rows;
  set_from_row_ordered_triplets(P.N, P.nc, P.nv, s.triplets);
}

/// (R3) by projected Gauss–Seidel: w = Aλ + φ⁺ kept current, λᵢ ← max(0, λᵢ − wᵢ/Aᵢᵢ). Over the first
/// nc + nl rows (assemble_rows): λ is 0 on the empty ones after them, w is not kept there.
void solve_projection(RecoveryScratch& s) {
  const int n = static_cast<int>(s.rows.size() + s.limits.size());
  s.lambda.setZero(s.gap.size());
  if (s.w.size() < n) s.w.resize(s.gap.size());
  // The layout and alignment of a VectorXd of size n (contact/solvers/grow_only.hpp): the same bits.
  VectorView lambda(s.lambda.data(), n), w(s.w.data(), n);
  w = ConstVectorView(s.gap.data(), n);
  for (int sweep = 0; sweep < kRecoveryMaxSweeps; ++sweep) {
    for (int i = 0; i < n; ++i) {
      if (!(s.A(i, i) > 0)) continue;
      const double lambda_i = std::max(0.0, lambda[i] - w[i] / s.A(i, i));
      const double change = lambda_i - lambda[i];
      if (change == 0) continue;
      w += change * s.A.col(i).head(n);
      lambda[i] = lambda_i;
    }
    if (!(-w.minCoeff() > kRecoveryTolerance)) break;
  }
}

/// Adds to s.limits a row (R7) for each limited column of u in the problem that q⁺ ⊕ δ puts beyond its
/// limit, unless it has one; true when it added any.
bool add_violated_limits(const MultibodyModel& mb, const RecoveryScope& scope, const Eigen::VectorXd& q,
                         RecoveryScratch& s) {
  bool added = false;
  for (std::size_t t = 0; t < mb.trees.size(); ++t) {
    if (!s.tree_added[t]) continue;
    const Tree& tree = mb.trees[t];
    for (int c = 0; c < tree.nu; ++c) {
      const int dof = tree.v_offset + tree.u_dof[c], column = s.column_of[dof], iq = scope.q_index_of[dof];
      if (column < 0 || iq < 0) continue;
      const double lower = tree.u_lower[c], upper = tree.u_upper[c];
      if (!(lower <= upper)) continue;   // limits that admit no position (refused by the loader)
      const double position = q[iq], moved = position + s.delta[column];
      const double sign = moved < lower ? 1.0 : moved > upper ? -1.0 : 0.0;
      if (sign == 0) continue;
      const bool has_row = std::any_of(s.limits.begin(), s.limits.end(),
                                       [&](const RecoveryLimitRow& l) { return l.column == column && l.sign == sign; });
      if (has_row) continue;
      s.limits.push_back({column, sign, sign > 0 ? position - lower : upper - position});
      added = true;
    }
  }
  return added;
}

}  // namespace

namespace {

/// One projection (R2) at data.q_plus; returns the deepest penetration it found.
double project_once(const WorldModel& model, CollisionDetector& detector, const RecoveryScope& scope, StepData& data) {
  const MultibodyModel& mb = model.multibody;
  RecoveryScratch& s = data.recovery;
  MultibodyData& kin = data.multibody;
  kinematics_at(mb, data, data.q_plus, data.v_plus);   // recover_penetration's own pass on the first one
  detector.detect(kin.X_WL, s.contacts);

  double depth = 0;
  for (const ContactPoint& c : s.contacts)
    if (recovered_here(model, scope, c)) depth = std::max(depth, -c.phi);
  if (!(depth > kRecoverySlop)) return 0;

  // Rows whose gap the correction can close: those within the deepest penetration of touching.
  s.rows.clear();
  for (std::size_t i = 0; i < s.contacts.size(); ++i)
    if (recovered_here(model, scope, s.contacts[i]) && s.contacts[i].phi < depth) s.rows.push_back(static_cast<int>(i));
  s.M_llt.resize(mb.trees.size());
  s.M_free.resize(mb.trees.size());
  crba(mb, kin);
  gather_systems(mb, kin, scope, s);
  s.limits.clear();
  // (R7): solve with the limit rows found violated so far, until δ violates none (each round adds one
  // row at least, of finitely many); with none violated the solve is (R3)'s alone.
  while (true) {
    assemble_rows(mb, kin, scope, s);
    s.problem.delassus(s.problem.N, s.problem.N, s.A, s.delassus);
    solve_projection(s);
    s.impulse.noalias() = s.problem.N.transpose() * s.lambda;
    s.problem.solve_M(s.impulse, s.delta);                                 // δ_u = (GᵀMG)⁻¹ [N⁺G; L]ᵀλ
    if (!add_violated_limits(mb, scope, data.q_plus, s)) break;
  }
  s.delta_global.setZero(mb.nv);
  for (int k = 0; k < mb.nv; ++k)
    if (s.column_of[k] >= 0) s.delta_global[k] = s.gain_of[k] * s.delta[s.column_of[k]];   // δ_v = G δ_u
  integrate(mb, data.q_plus, s.delta_global, 1.0, data.q_plus);            // q⁺ ⊕ δ
  // The limit rows hold to kRecoveryTolerance; what Gauss–Seidel left of them is put on the limit exactly.
  if (!s.limits.empty()) project_onto_joint_limits(mb, data.q_plus);
  return depth;
}

/// How far any point of the sphere (c, ρ) moves under the rigid motion x ↦ ΔX x: |ΔX c − c| + |ΔR − I|·ρ,
/// with |ΔR − I| = 2 sin(θ/2) = 2|vec(quaternion of ΔR)|.
double sphere_displacement(const Eigen::Isometry3d& delta, const GeometryReach& r) {
  return (delta * r.centre - r.centre).norm() + 2 * Eigen::Quaterniond(delta.linear()).vec().norm() * r.radius;
}

/// (R4)'s bound on how far the gap of a pair (a, b) of moving geometries moves in the step. The pair at q⁺ is
/// (ΔX_a A, ΔX_b B), congruent to (R A, B) and to (A, R⁻¹ B) with R = ΔX_b⁻¹ ΔX_a: only the relative motion
/// moves a gap, by at most how far R moves a's sphere, or R⁻¹ b's. Bodies falling together (a pile in free
/// fall) move their gaps by round-off, where D_a + D_b is both their falls.
double relative_displacement(const Eigen::Isometry3d& delta_a, const GeometryReach& a, const Eigen::Isometry3d& delta_b,
                             const GeometryReach& b) {
  const Eigen::Isometry3d R = delta_b.inverse() * delta_a;
  return std::min(sphere_displacement(R, a), sphere_displacement(R.inverse(), b));
}

/// ΔX_g of (R4), the rigid motion of geometry g over the step, x ↦ ΔX x: X_WG(q⁺) X_WG(q)⁻¹, with X_WG(q⁺) from the
/// kinematics at q⁺ that data.multibody holds and X_WG(q) the pose r of the step's collision stage.
Eigen::Isometry3d step_motion(const WorldModel& model, const StepData& data, const GeometryReach& r, std::size_t g) {
  const Eigen::Isometry3d X_plus = data.multibody.X_WL[model.geometries[g].link] * model.geometries[g].X_LG;
  return X_plus * r.X_WG.inverse();
}

/// D_g of (R4), recomputed only when its inputs may have changed: it is a function of X_WG(q⁺) (the pose of g's
/// link at q⁺, written only by its tree's kinematics passes) and of g's reach in the collision stage (its pose,
/// box and sweep, unchanged while the detector has not placed g again). A resting body's are those of the last
/// step (issue 16: ~85 % of the 1000 resting spheres), and so are the bits of its D_g.
double displacement_of(const WorldModel& model, const CollisionDetector& detector, StepData& data, std::size_t g) {
  const int gi = static_cast<int>(g);
  const std::uint64_t pass = data.multibody.kinematics_pass[model.multibody.links[model.geometries[g].link].tree];
  RecoveryScratch::DisplacementSource& source = data.recovery.displacement_source[g];
  const GeometryReach& r = detector.reach(gi);
  if (source.placement == r.placement && source.pass == pass) return data.recovery.displacement[g];
  source = {r.placement, pass};
  return data.recovery.displacement[g] = sphere_displacement(step_motion(model, data, r, g), r);
}

/// (R4): true when no contact (R2) would correct can penetrate deeper than kRecoverySlop at q⁺; then the
/// collision pass at q⁺ is not needed. data.multibody holds the kinematics at q⁺.
bool penetration_excluded(const WorldModel& model, const CollisionDetector& detector, const RecoveryScope& scope,
                          StepData& data) {
  std::vector<double>& D = data.recovery.displacement;
  D.resize(model.geometries.size());
  data.recovery.displacement_source.resize(model.geometries.size());
  if (data.recovery.displacement_detector != &detector) {   // placements count another detector's
    std::fill(data.recovery.displacement_source.begin(), data.recovery.displacement_source.end(),
              RecoveryScratch::DisplacementSource{});
    data.recovery.displacement_detector = &detector;
  }
  // A quarter of the margin over s_g: a free fall's D_g is its s_g (dt(|v| + |g|dt)) up to round-off.
  const double slack = 0.25 * detector.margin();
  for (std::size_t g = 0; g < model.geometries.size(); ++g) {
    const GeometryReach& r = detector.reach(static_cast<int>(g));
    if (!r.posed) return false;
    if (!(displacement_of(model, detector, data, g) <= r.sweep + slack))
      return false;   // a pair the collision stage did not report may touch
  }
  for (const ContactPoint& c : data.contacts) {
    if (!recovered_here(model, scope, c)) continue;
    double moved = D[c.geom_a] + (c.geom_b == kGround ? 0.0 : D[c.geom_b]);
    if (!(c.phi - moved >= -kRecoverySlop) && c.geom_b != kGround) {
      const GeometryReach& a = detector.reach(c.geom_a);
      const GeometryReach& b = detector.reach(c.geom_b);
      moved = std::min(moved, relative_displacement(step_motion(model, data, a, c.geom_a), a,
                                                    step_motion(model, data, b, c.geom_b), b));
    }
    if (!(c.phi - moved >= -kRecoverySlop)) return false;
  }
  return true;
}

}  // namespace

RecoveryScope::RecoveryScope(const WorldModel& model) {
  const MultibodyModel& mb = model.multibody;
  held.assign(mb.nv, 0);
  for (const ControllerSpec& spec : model.controllers)
    for (int link : spec.links) held[mb.links[link].joint.v_index] = 1;
  held_column.assign(mb.nv, 0);
  free_coordinates.assign(mb.trees.size(), 0);
  for (std::size_t t = 0; t < mb.trees.size(); ++t) {
    const Tree& tree = mb.trees[t];
    for (int i = 0; i < tree.nv; ++i)   // a column is held when any coordinate that follows it is
      if (held[tree.v_offset + i]) held_column[tree.v_offset + tree.u_column[i]] = 1;
    for (int c = 0; c < tree.nu; ++c) free_coordinates[t] += held_column[tree.v_offset + c] ? 0 : 1;
  }
  q_index_of.assign(mb.nv, -1);
  for (const Link& link : mb.links)
    if (joint_nv(link.joint.type) == 1) q_index_of[link.joint.v_index] = link.joint.q_index;
}

void recover_penetration(const WorldModel& model, CollisionDetector& detector, const RecoveryScope& scope,
                         StepData& data) {
  data.stats.recovered_penetration = 0;
  kinematics_at(model.multibody, data, data.q_plus, data.v_plus);
  if (penetration_excluded(model, detector, scope, data)) return;
  for (int pass = 0; pass < kRecoveryPasses; ++pass) {
    const double depth = project_once(model, detector, scope, data);
    ++data.stats.recovery_passes;
    if (pass == 0) data.stats.recovered_penetration = depth;
    if (depth == 0 || (pass > 0 && depth <= kRecoveryTolerance)) break;
  }
}

}  // namespace impetus
