// Stage 5, assembly: islands and their ContactProblems, from the contacts and the kinematics.
//
// It lives in sim/ and not in contact/ because it needs the Jacobians of dynamics/ and the contacts of
// collision/, while contact/ depends on Eigen only (STYLE.md 9).
//
// Rows (DESIGN.md conventions): for contact i between links A and B at p with normal n (B → A) and
// tangents t1, t2 = n × t1,
//     N_i = nᵀ (J_A(p) − J_B(p)),   S_i = t1ᵀ (J_A(p) − J_B(p)),   T_i = t2ᵀ (J_A(p) − J_B(p)),
// J_X the point Jacobian of link X (zero for the ground and static links). A joint at a limit gives a
// row L = ±e_k with gap φ_L = q − lower or upper − q.
#pragma once

#include "sim/step_data.hpp"

namespace impetus {

/// t1: the world x axis projected on the tangent plane (the world y axis when n is within 45° of x),
/// t2 = n × t1. Deterministic, and along the slope of an incline that rises along x.
void tangent_basis(const Eigen::Vector3d& n, Eigen::Vector3d& t1, Eigen::Vector3d& t2);

/// Distance from a joint limit under which its row enters the problem (rad or m), beyond the
/// distance the joint can travel in one step.
constexpr double kLimitActivationDistance = 1e-3;

/// How a compliant pair's contacts (<ground stiffness>, <contact stiffness>) enter the problems.
enum class Compliance {
  Soft,    // the soft rows (C3) of contact/compliance.hpp: the simulator's contact stage
  Rigid,   // rigid rows N·v⁺ ≥ −max(φ, 0)/dt: the rigid-contact model an inverse-dynamics controller assumes
};

/// The spring–damper of the contacts between links a and b (kGround: the ground): the pair's <contact>
/// stiffness if it gives one, else the ground's for a ground pair, else rigid.
SurfaceCompliance pair_compliance(const WorldModel& model, int link_a, int link_b);

/// Fills data.islands, data.problems (rows, φ, μ, M blocks, v*, warm-start guesses), data.t1/t2 and
/// data.problem_repeats; an island's rows that would be assembled of the same inputs as last step are left as they
/// are (sim/assembly_repeat.hpp). Needs stages 1–4 in `data`. `previous`: last step's impulses, for the warm-start
/// guesses.
///
/// Compliance::Soft: an island with soft contacts has, after its trees' columns, one column w_i per soft
/// contact i (a system block of size 1, mass 1/R_i, v = v* = 0) and N's row i a 1 there, and enters the
/// contact with φ̃_i: (C3) as a rigid row of the larger system (contact/compliance.hpp). k and b of a pair
/// are shared equally by its contact points of the island.
void assemble_contact_problems(const WorldModel& model, const State& state, double dt, const ImpulseMemory& previous,
                               StepData& data, Compliance compliance);

/// Gives `problem` (and `result`, when not null) buffers of sizes (nv, nc, nl): each one the buffer parked in
/// `parked` at its count, its present one parked in its place (AssemblyScratch::ProblemBuffers): nothing is
/// allocated for counts up to the most met or reserved. Contents are unspecified after: the caller writes every
/// entry.
void fit_problem_sizes(AssemblyScratch::ProblemBuffers& parked, ContactProblem& problem, ContactResult* result,
                       Eigen::Index nv, Eigen::Index nc, Eigen::Index nl);
/// Whether `link`'s joint bounds a coordinate of its own (one degree of freedom; a mimic tree's leader, its
/// followers' limits intersected into `lower`, `upper`): a row for each limit within reach of the step.
bool coordinate_limits(const MultibodyModel& mb, const Link& link, double& lower, double& upper);
/// The most joint-limit rows tree `tree` can bring into a problem: two per limited coordinate (both limits are
/// within reach of a fast or narrow joint).
int most_limit_rows(const MultibodyModel& mb, int tree);
/// Makes `parked`'s buffers of every count up to nc contacts and nl joint-limit rows, for islands of nv
/// coordinates (a bound the model gives: issue 16, a count first met once warm then allocates nothing).
void reserve_problem_sizes(AssemblyScratch::ProblemBuffers& parked, Eigen::Index nv, Eigen::Index nc, Eigen::Index nl);

}  // namespace impetus
