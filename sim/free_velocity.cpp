#include "sim/free_velocity.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "contact/small_llt_solve_vector.hpp"
#include "control/actuation.hpp"
#include "dynamics/free_body_rotation.hpp"
#include "dynamics/mimic.hpp"
#include "dynamics/rnea.hpp"
#include "dynamics/same_bits.hpp"

namespace impetus {

namespace {

bool is_free_body(const MultibodyModel& mb, const Tree& tree) {
  return tree.num_links == 1 && mb.links[tree.first_link].joint.type == JointType::Floating;
}

// A free body's ω* by the implicit midpoint rule (dynamics/free_body_rotation.hpp, (G1)) instead of the
// explicit gyroscopic term in h: v = [v_WC; ω], M = diag(m·1, I_C) (dynamics/model.hpp), so the angular
// rows of h are ω × I_C ω plus any other bias, which stays explicit in τ.
void rotate_free_body_implicitly(const Tree& tree, const Eigen::MatrixXd& M, double dt, const State& state,
                                 StepData& data) {
  const Eigen::Matrix3d I_C = M.bottomRightCorner<3, 3>();
  const Eigen::Vector3d omega = state.v.segment<3>(tree.v_offset + 3);
  const Eigen::Vector3d tau = data.tau.segment<3>(tree.v_offset + 3) - data.h.segment<3>(tree.v_offset + 3) +
                              omega.cross(I_C * omega);
  data.v_star.segment<3>(tree.v_offset + 3) = implicit_midpoint_angular_velocity(I_C, omega, tau, dt);
}

/// M_eff = M + dt·D of tree t, joint damping taken implicitly:
/// M(v⁺ − v) = dt(τ − h − D v⁺)  ⇒  (M + dt·D) v⁺ = M v + dt(τ − h).
void add_implicit_damping(const MultibodyModel& mb, const Tree& tree, double dt, Eigen::MatrixXd& M_eff) {
  for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
    const Joint& j = mb.links[i].joint;
    if (joint_nv(j.type) == 1) M_eff(j.v_index - tree.v_offset, j.v_index - tree.v_offset) += dt * j.damping;
  }
}

/// M_eff of tree t (no mimic joints) and its factor. They are functions of M's bits, dt and the model's damping
/// alone: while crba_of_tree has not written M since they were made (a body at rest, or a sphere, whose M does
/// not turn with it) and dt is the same, they stand as they are, without M's copy and the factor's compare.
void factor_effective_inertia(const MultibodyModel& mb, double dt, int t, StepData& data) {
  StepData::EffectiveInertiaSource& source = data.M_eff_source[t];
  const std::uint64_t writes = data.multibody.M_writes[t];
  const bool same_dt = std::bit_cast<std::uint64_t>(source.dt) == std::bit_cast<std::uint64_t>(dt);
  if (source.made && source.M_writes == writes && same_dt) return;
  Eigen::MatrixXd& M_eff = data.M_eff[t];
  M_eff = data.multibody.M[t];
  add_implicit_damping(mb, mb.trees[t], dt, M_eff);
  data.M_llt[t].compute(M_eff);
  source = {writes, dt, true};
}

/// Whether tree t's v* (no mimic joints) is the one it made last of the same inputs: M unwritten, the same dt and
/// the bits of v, τ and h. It is a function of these alone (the factor of M_eff follows from M and dt; a free
/// body's implicit rotation reads its M, ω, τ, h and dt), so it is then written again as it was, without the
/// product M v and the factor's solves (a body resting to the bit: v, and with it the RNEA's h, repeat).
bool free_velocity_kept(const Tree& tree, double dt, const State& state, int t, StepData& data) {
  StepData::FreeVelocitySource& source = data.v_star_source[t];
  const std::uint64_t writes = data.multibody.M_writes[t];
  const bool same_dt = std::bit_cast<std::uint64_t>(source.dt) == std::bit_cast<std::uint64_t>(dt);
  const int nv = tree.nv;
  double* kept = data.v_star_inputs.data() + 4 * tree.v_offset;   // v, τ, h, v*
  const double* v = state.v.data() + tree.v_offset;
  const double* tau = data.tau.data() + tree.v_offset;
  const double* h = data.h.data() + tree.v_offset;
  double* v_star = data.v_star.data() + tree.v_offset;
  if (source.made && source.M_writes == writes && same_dt && same_bits(kept, v, nv) &&
      same_bits(kept + nv, tau, nv) && same_bits(kept + 2 * nv, h, nv)) {
    std::copy_n(kept + 3 * nv, nv, v_star);
    return true;
  }
  std::copy_n(v, nv, kept);
  std::copy_n(tau, nv, kept + nv);
  std::copy_n(h, nv, kept + 2 * nv);
  source = {writes, dt, false};   // made once v* is (remember_free_velocity)
  return false;
}

/// Keeps tree t's v*, just made of the inputs free_velocity_kept noted.
void remember_free_velocity(const Tree& tree, int t, StepData& data) {
  std::copy_n(data.v_star.data() + tree.v_offset, tree.nv, data.v_star_inputs.data() + 4 * tree.v_offset + 3 * tree.nv);
  data.v_star_source[t].made = true;
}

/// v* of tree t without mimic joints (those use the shared data.mimic: free_velocity_with_mimic).
void free_velocity_of_tree(const WorldModel& model, double dt, const State& state, int t, StepData& data) {
  const MultibodyModel& mb = model.multibody;
  const Tree& tree = mb.trees[t];
  if (tree.nv == 0) return;
  const auto v = state.v.segment(tree.v_offset, tree.nv);
  if (!tree.has_mimic()) {
    if (free_velocity_kept(tree, dt, state, t, data)) return;
    factor_effective_inertia(mb, dt, t, data);
    auto Mv = data.Mv.segment(tree.v_offset, tree.nv);
    Mv.noalias() = data.multibody.M[t] * v;   // (no temporary: the product's bits as inside the sum)
    // v* = M_eff⁻¹(M v + dt(τ − h)): the right-hand side assigned and solved in place, as LLT::solve does.
    auto v_star = data.v_star.segment(tree.v_offset, tree.nv);
    v_star = Mv + dt * (data.tau.segment(tree.v_offset, tree.nv) - data.h.segment(tree.v_offset, tree.nv));
    small_llt_solve_vector_in_place(data.M_llt[t], v_star);
    if (is_free_body(mb, tree)) rotate_free_body_implicitly(tree, data.multibody.M[t], dt, state, data);
    remember_free_velocity(tree, t, data);
    return;
  }
  // Mimic joints eliminated, dynamics/mimic.hpp (2): (GᵀM_eff G) u* = Gᵀ(M v + dt(τ − h)), v* = G u*.
  Eigen::MatrixXd& M_eff = data.M_eff[t];
  M_eff = data.multibody.M[t];
  add_implicit_damping(mb, tree, dt, M_eff);
  auto& [M_full, rhs, rhs_u] = data.mimic;
  rhs = data.multibody.M[t] * v +
        dt * (data.tau.segment(tree.v_offset, tree.nv) - data.h.segment(tree.v_offset, tree.nv));
  rhs_u.resize(tree.nu);
  reduce_vector(tree, rhs, rhs_u);
  M_full = M_eff;
  reduce_matrix(tree, M_full, M_eff);
  data.M_llt[t].compute(M_eff);
  rhs_u = data.M_llt[t].solve(rhs_u);
  expand_independent(tree, rhs_u, data.v_star.segment(tree.v_offset, tree.nv));
}

}  // namespace

void compute_free_velocity(const WorldModel& model, double dt, const State& state, const Eigen::VectorXd& tau_control,
                           StepData& data, WorkerPool* pool) {
  const MultibodyModel& mb = model.multibody;
  const int trees = static_cast<int>(mb.trees.size());
  // Trees share no link and no coordinate, so each item below writes only its own tree's slots: the bits of
  // the sequential loop whatever the thread count. A tree with mimic joints uses the one data.mimic, so those
  // run on this thread afterwards.
  auto inertia_and_bias = [&](int t, int) { crba_and_bias_forces_of_tree(mb, data.multibody, state.v, t); };
  for_each_item(pool, trees, inertia_and_bias);
  data.h = data.multibody.tau;
  data.tau.setZero();
  add_actuation(mb, data.multibody, model.loads, model.actuators, state.q, state.v, state.t, data.tau);
  if (tau_control.size() == data.tau.size()) data.tau += tau_control;
  auto solve = [&](int t, int) {
    if (!mb.trees[t].has_mimic()) free_velocity_of_tree(model, dt, state, t, data);
  };
  for_each_item(pool, trees, solve);
  for (int t = 0; t < trees; ++t)
    if (mb.trees[t].has_mimic()) free_velocity_of_tree(model, dt, state, t, data);
}

}  // namespace impetus
