// The free velocity of stage 4 (dynamics) as a function of the applied generalized forces, shared by the
// dynamics stage and by the control stage, which must predict the same v* its controllers' τ will add to.
//
//   M by CRBA, h by RNEA, τ = loads + <actuator>s (control/actuation.hpp) + τ_control,
//   joint damping D implicit:  (M + dt·D) v* = M v + dt(τ − h)
//   a free body's ω*: the gyroscopic torque implicit, by the midpoint rule (dynamics/free_body_rotation.hpp),
//   which conserves its kinetic energy and |L| when torque-free
#pragma once

#include "sim/step_data.hpp"
#include "sim/worker_pool.hpp"

namespace impetus {

/// Fills data.multibody.M, data.h, data.tau, data.M_eff, data.M_llt and data.v_star at `state`.
/// Needs forward kinematics at state.q in data.multibody. tau_control: (nv) or empty. With a pool, the trees
/// on its threads (the same bits).
void compute_free_velocity(const WorldModel& model, double dt, const State& state, const Eigen::VectorXd& tau_control,
                           StepData& data, WorkerPool* pool = nullptr);

}  // namespace impetus
