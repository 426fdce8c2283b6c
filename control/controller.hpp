// A joint controller of one <model>: a desired trajectory, error feedback, and a law that turns them into
// joint torques — joint PID, or one of seed 004's inverse-dynamics variants (control/inverse_dynamics/).
//
// Feedback (seed 004 §7.3: the same PID error feedback for every controller, accumulated into q̈_des for
// the ID variants; e = q_des − q, ė = q̇_des − q̇, ∫e summed over the calls):
//   pid            τ = kp e + kd ė + ki ∫e                   (kp N·m/rad, kd N·m·s/rad, ki N·m/(rad·s))
//   id_* variants  q̈_cmd = q̈_des + kp e + kd ė + ki ∫e     (kp 1/s², kd 1/s, ki 1/s³)
//                  q̇_target = q̇ + Δt q̈_cmd  (seed 004 Eqs. 38–39; no M⁻¹f_ext term, notes §6.3)
//                  τ = (ID impulse)/Δt with P v⁺ = q̇_target.
// Controller names (DESIGN.md): id_lcp_noslip, id_lcp_coulomb, id_qp_coulomb, id_qp_noslip, pid,
// id_sensed, id_no_contact.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "contact/solvers/grow_only.hpp"
#include "control/inverse_dynamics/effort_limits.hpp"
#include "control/inverse_dynamics/id_solver.hpp"
#include "control/sticking_target.hpp"
#include "control/trajectory.hpp"
#include "control/trajectory_source.hpp"

namespace impetus {

/// The attributes of <controller>, typed (README documents each).
struct ControllerSettings {
  std::string type;              // a name of controller_names()
  double kp = 0, kd = 0, ki = 0; // feedback gains (units above)
  int rate = 1;                  // a call every `rate` steps; τ held in between (zero-order hold); ≥ 1
  int lag = 0;                   // sensing lag in steps (0, 1, 2): τ applied in step i was computed from
                                 // the state and contacts at the start of step i − lag
  int sensed_lag = 1;            // id_sensed: the simulator's impulses from 1 or 2 steps earlier
  int friction_edges = 4;        // id_lcp_coulomb, id_qp_coulomb: pyramid edges (as the contact model's)
  bool stage_two = true;         // id_qp_*, id_lcp_noslip: Stage II (minimum ‖τ‖ among the impulses of the same v⁺)
  bool warm_start = true;        // id_lcp_noslip: warm-started principal pivoting (§4.6); id_qp_*: QP19
  double mu_infinity = 100;      // id_qp_noslip: the μ that stands for ∞
};

/// Every controller name, in the order of DESIGN.md.
const std::vector<std::string>& controller_names();

/// Parses the attributes (name → value, as written) other than the trajectory's; throws
/// std::invalid_argument naming the attribute and what it expects.
ControllerSettings parse_controller_settings(const std::string& type, const std::map<std::string, std::string>& attributes);

/// What one control call produced (before the stage's effort clamp).
struct ControlCall {
  Eigen::VectorXd q_des, qd_des, qdd_des;   // (na) the trajectory at t
  Eigen::VectorXd qd_target;                // (na) ID variants: the q̇_des of P v⁺ = q̇_des (Eqs. 38–39)
  Eigen::VectorXd tau;                      // (na) N·m or N
  Eigen::VectorXd p_N, p_S, p_T;            // (nc of the island) predicted impulses (N·s); empty for pid
  SolverStatistics stats;                   // Failed: τ is not to be applied (the stage holds the last)
  int fallbacks = 0;
  int saturated = 0;                        // driven joints the ID held at their effort limit (effort_limits.hpp)
  int effort_rounds = 0;                    // ID solves of the call (1 + re-solves for effort limits); 0 for pid
  double seconds = 0;                       // wall time of the call
};

/// What a controller carries from one call to the next; with the control stage's own memory it is part of
/// a restart point (sim/restart_point.hpp).
struct ControllerMemory {
  Eigen::VectorXd integral;                 // (na) ∫e (rad·s)
  PredictionMemory prediction;              // the ID solver's last p_N by contact (§4.6); empty if it keeps none
  Eigen::VectorXd source;                   // a closed-loop trajectory's memory (TrajectorySource); empty without
};

class Controller {
 public:
  /// With a `source`, q_des, q̇_des, q̈_des come from it (closed loop) and `trajectory` is not read.
  Controller(ControllerSettings settings, DesiredTrajectory trajectory,
             std::shared_ptr<const TrajectorySource> source = nullptr);

  const ControllerSettings& settings() const { return settings_; }
  int size() const { return source_ ? source_->size() : trajectory_.size(); }
  /// Whether the call needs the island's contact problem (every ID variant).
  bool needs_problem() const { return solver_ != nullptr; }
  /// One call at time t from the measured q, q̇ (na) of the driven joints (the base pose and the touching
  /// links are read by a closed-loop source only). `problem`: the island's ID problem for the ID variants
  /// (its qd_des is set here; with a source, made consistent with its contacts sticking:
  /// sticking_target.hpp; its effort limits are honoured inside the ID: effort_limits.hpp), null for pid.
  /// `contact`: *problem->contact, writable (the effort limits' re-solves lend it their v* and give it back),
  /// null with `problem`. Never throws.
  void compute(double t, double dt, const Measurement& measured, InverseDynamicsProblem* problem, ContactProblem* contact,
               ControlCall& call);
  /// Sizes the ID's buffers of the contacts up front, for islands of nv coordinates and up to `most_contacts`
  /// contacts (the most the model can make): a contact count first met once warm then allocates nothing
  /// there (issue 16). Optional; pid has none.
  void reserve(int nv, int most_contacts);
  /// The ID solver (null for pid), for tests.
  InverseDynamicsSolver* solver() { return solver_.get(); }
  ControllerMemory memory() const;
  void restore(const ControllerMemory& memory);

 private:
  ControllerSettings settings_;
  DesiredTrajectory trajectory_;
  std::shared_ptr<const TrajectorySource> source_;
  Eigen::VectorXd source_memory_;
  std::unique_ptr<InverseDynamicsSolver> solver_;
  EffortLimits effort_limits_;              // every ID variant's call under problem->effort
  Eigen::VectorXd integral_;                // ∫e (rad·s)
  InverseDynamicsSolution solution_;
  // Per-call scratch (no allocation once warm): e, ė, the feedback, and the sticking target's workspace.
  Eigen::VectorXd e_, e_dot_, feedback_;
  ParkedBySize<Eigen::VectorXd> call_p_N_parked_, call_p_S_parked_, call_p_T_parked_;   // the call's impulses at
                                                                                      // the other sizes met
  StickingTargetWorkspace sticking_;
};

}  // namespace impetus
