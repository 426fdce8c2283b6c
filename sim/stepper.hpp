// One time step = the pipeline of DESIGN.md:
//
//   state (q, v, t)
//     1. kinematics   link poses and velocities at q
//     2. collision    ContactSet: point, normal, gap φ per contact within the margin
//        control      the scene's controllers: τ of the joints they drive (sim/control_stage.hpp;
//                     DESIGN.md's stage 3, between collision and dynamics)
//     3. dynamics     M(q), h(q, v), τ (loads, actuators, controllers); v* = v + dt·M⁻¹(τ − h)
//     4. assembly     one ContactProblem per island: rows N, S, T, L; φ, μ
//        4b. (ecp only) body–plane pairs of the ECP bodies' convex hulls (sim/assembly_ecp.hpp)
//     5. contact      ContactModel::solve → v⁺, impulses, statistics
//     6. integration  q⁺ = q ⊕ dt·v⁺
//        6b. (ecp only) the ECP bodies' q⁺ from the model's solution (geometrically implicit)
//   state (q⁺, v⁺, t + dt)
//
// (7, recording, is the Recorder's, called by the run loop.)
#pragma once

#include <memory>
#include <optional>

#include "collision/collision_detector.hpp"
#include "contact/contact_model.hpp"
#include "sim/assembly_ecp.hpp"
#include "sim/control_stage.hpp"
#include "sim/step_data.hpp"
#include "sim/world.hpp"

namespace impetus {

class Stepper {
 public:
  /// `model` must outlive the stepper. contact_model: a name of contact/factory.hpp.
  Stepper(const WorldModel& model, const std::string& contact_model, double dt);

  /// Advances `state` by one step of dt.
  void step(State& state);

  const StepData& data() const { return data_; }
  /// The ECP stages (4b, 6b), present only under the "ecp" contact model.
  const EcpAssembly* ecp_assembly() const { return ecp_ ? &*ecp_ : nullptr; }
  double dt() const { return dt_; }
  const std::string& contact_model_name() const { return contact_model_name_; }
  /// The contact impulses of the last step, by contact: the warm start of the next. With the State
  /// it is all a step depends on under every contact model but ecp (whose stage 4b warm-starts from
  /// the last step's results in StepData), so the two make a restart point.
  const ImpulseMemory& impulse_memory() const { return previous_impulse_; }
  void restore_impulse_memory(ImpulseMemory memory) { previous_impulse_ = std::move(memory); }

 private:
  void compute_kinematics(const State& state);
  void detect_collisions();
  void run_controllers(const State& state);
  void compute_dynamics(const State& state);
  void resolve_joint_friction();
  void assemble_contact_problems(const State& state);
  void solve_contacts();
  void integrate_state(State& state);

  const WorldModel& model_;
  double dt_;
  std::string contact_model_name_;
  std::unique_ptr<ContactModel> contact_model_;
  CollisionDetector detector_;
  StepData data_;
  ControlStage control_;                   // stage 3

  ImpulseMemory previous_impulse_;         // warm start of the contact stage
  std::optional<EcpAssembly> ecp_;         // stages 4b and 6b; only when contact_model_name_ is "ecp"
};

}  // namespace impetus
