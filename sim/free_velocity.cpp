#include "sim/free_velocity.hpp"

#include "contact/small_llt_solve_vector.hpp"
#include "control/actuation.hpp"
#include "dynamics/free_body_rotation.hpp"
#include "dynamics/mimic.hpp"
#include "dynamics/rnea.hpp"

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

/// v* of tree t without mimic joints (those use the shared data.mimic: free_velocity_with_mimic).
void free_velocity_of_tree(const WorldModel& model, double dt, const State& state, int t, StepData& data) {
  const MultibodyModel& mb = model.multibody;
  const Tree& tree = mb.trees[t];
  if (tree.nv == 0) return;
  // Joint damping implicit: M(v⁺ − v) = dt(τ − h − D v⁺)  ⇒  (M + dt·D) v⁺ = M v + dt(τ − h).
  Eigen::MatrixXd& M_eff = data.M_eff[t];
  M_eff = data.multibody.M[t];
  for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
    const Joint& j = mb.links[i].joint;
    if (joint_nv(j.type) == 1) M_eff(j.v_index - tree.v_offset, j.v_index - tree.v_offset) += dt * j.damping;
  }
  const auto v = state.v.segment(tree.v_offset, tree.nv);
  if (!tree.has_mimic()) {
    data.M_llt[t].compute(M_eff);
    auto Mv = data.Mv.segment(tree.v_offset, tree.nv);
    Mv.noalias() = data.multibody.M[t] * v;   // (no temporary: the product's bits as inside the sum)
    // v* = M_eff⁻¹(M v + dt(τ − h)): the right-hand side assigned and solved in place, as LLT::solve does.
    auto v_star = data.v_star.segment(tree.v_offset, tree.nv);
    v_star = Mv + dt * (data.tau.segment(tree.v_offset, tree.nv) - data.h.segment(tree.v_offset, tree.nv));
    small_llt_solve_vector_in_place(data.M_llt[t], v_star);
    if (is_free_body(mb, tree)) rotate_free_body_implicitly(tree, data.multibody.M[t], dt, state, data);
    return;
  }
  // Mimic joints eliminated, dynamics/mimic.hpp (2): (GᵀM_eff G) u* = Gᵀ(M v + dt(τ − h)), v* = G u*.
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
