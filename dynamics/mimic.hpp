// Mimic joints (URDF <mimic>) by coordinate elimination.
//
// A mimic joint m follows its leader l: q_m = g·q_l + o (g the multiplier, o the offset). A chain of
// mimics composes to its root leader r, the first joint of the chain that mimics nothing:
// q_c = g_b(g_a q_r + o_a) + o_b. Differentiated, v_m = g·v_r: a tree's velocities lie in the column
// space of a constant map G,
//     v = G u,     G_kc = g_k when dof k is (g_k = 1) or follows independent coordinate c, else 0,     (1)
// u the tree's nu independent coordinates: every dof but the mimic joints'. Substituted into the step's
// equation of motion M(v⁺ − v*) = Jᵀp (contact/problem.hpp), with M v* = M v + dt(τ − h), and multiplied
// by Gᵀ — the coupling's own impulses do no work on motions v = Gu (d'Alembert), so they drop out:
//     (GᵀMG)(u⁺ − u*) = (JG)ᵀ p,      (GᵀMG) u* = Gᵀ(M v + dt(τ − h)),      v⁺ = G u⁺.              (2)
// That is the same contact problem with M ← GᵀMG and every row J ← JG (joint-limit rows included): every
// contact model solves it as it solves any problem, and v⁺ = Gu⁺ meets the coupling exactly. GᵀMG is
// positive definite when M is (G has full column rank). Positions that meet q_m = g·q_r + o keep meeting
// it under q⁺ = q + dt·v⁺ (a 1-DoF coordinate integrates linearly), up to round-off.
//
// Why not bilateral rows: an equality row needs a free-signed multiplier in each model's solver (LCP,
// QP, NCP, ECP); elimination changes only what the models receive, is exact, and makes problems smaller.
#pragma once

#include <Eigen/Dense>

#include "dynamics/model.hpp"

namespace impetus {

/// q_link = gain · q_root + offset: a joint's root leader (itself, gain 1, offset 0, when not a mimic).
struct MimicRoot {
  int link = -1;
  double gain = 1, offset = 0;
};

/// The root leader of `link`'s joint. Throws std::invalid_argument when the chain of leaders is a cycle.
MimicRoot mimic_root(const MultibodyModel& model, int link);

/// Fills tree.nu, u_column, u_gain, u_dof, u_lower, u_upper from its links' mimic fields and limits
/// (links already in model.links). A joint's limits lower ≤ g·u + o ≤ upper bound u by
/// [(lower − o)/g, (upper − o)/g] (ends swapped when g < 0); a column's limits are the intersection of
/// its joints' (empty when they admit no common position: u_lower > u_upper).
/// Throws std::invalid_argument on a mimic that is not a 1-DoF joint following a 1-DoF joint, or a cycle.
void build_mimic_map(const MultibodyModel& model, Tree& tree);

/// Sets every mimic joint's coordinate from its root leader's: q_m = g·q_r + o (q: nq).
void enforce_mimic_positions(const MultibodyModel& model, Eigen::VectorXd& q);
/// Sets every mimic joint's rate from its root leader's: v_m = g·v_r (v: nv).
void enforce_mimic_velocities(const MultibodyModel& model, Eigen::VectorXd& v);

/// u = the independent entries of the tree's v (u_c = v[u_dof[c]]); v: nv of the tree, u: nu.
void gather_independent(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> u);
/// v = G u (1); u: nu, v: nv of the tree.
void expand_independent(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> v);
/// out = Gᵀ x; x: nv, out: nu.
void reduce_vector(const Tree& tree, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out);
/// out = Gᵀ A G; A: nv×nv, out: nu×nu (resized).
void reduce_matrix(const Tree& tree, const Eigen::MatrixXd& A, Eigen::MatrixXd& out);

}  // namespace impetus
