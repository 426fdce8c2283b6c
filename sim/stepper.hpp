// One time step = the pipeline of DESIGN.md (its eight stages; the stepper runs 1–7):
//
//   state (q, v, t)
//     1. kinematics   link poses and velocities at q
//     2. collision    ContactSet: point, normal, gap φ per contact within the margin, grown per pair by
//                     how far it can move within the step (speculative contact)
//     3. control      the scene's controllers: τ of the joints they drive, from the model, the state and
//                     the ContactSet (sim/control_stage.hpp)
//     4. dynamics     M(q), h(q, v), τ (loads, actuators, controllers); v* = v + dt·M⁻¹(τ − h)
//     5. assembly     one ContactProblem per island: rows N, S, T, L; φ, μ; and what the model's
//                     ProblemNeeds (contact/factory.cpp) ask for: body–plane pairs of the free bodies'
//                     convex hulls (sim/assembly_ecp.hpp)
//     6. contact      ContactModel::solve → v⁺, impulses, statistics (and, from a geometrically implicit
//                     model, q⁺ and the contact points it chose); the step's reported contacts
//     7. integration  q⁺ = q ⊕ dt·v⁺, or the model's q⁺ for the systems whose q⁺ it decided; then
//                     penetration recovery: contacts detected again at q⁺, q⁺ moved out of penetration
//                     along their normals, v⁺ kept (post-stabilisation, M the metric; penetration_recovery.hpp)
//   state (q⁺, v⁺, t + dt)
//
// (8, recording, is the Recorder's, called by the run loop.)
#pragma once

#include <memory>

#include "collision/collision_detector.hpp"
#include "contact/contact_model.hpp"
#include "sim/assembly_stage.hpp"
#include "sim/control_stage.hpp"
#include "sim/penetration_recovery.hpp"
#include "sim/step_data.hpp"
#include "sim/worker_pool.hpp"
#include "sim/world.hpp"

namespace impetus {

/// Everything a step depends on beyond the State and the world.
struct StepperMemory {
  WarmStartMemory warm_start;              // stage 6's, for every model
  ControlMemory control;                   // stage 3's
};

class Stepper {
 public:
  /// `model` must outlive the stepper. contact_model: a name of contact/factory.hpp. threads: how many
  /// threads solve the contact stage's islands (0: every core); the results are the same bits for any count.
  Stepper(const WorldModel& model, const std::string& contact_model, double dt, int threads = 1);

  /// Advances `state` by one step of dt.
  void step(State& state);

  const StepData& data() const { return data_; }
  /// Stage 5, with the parts the contact model's ProblemNeeds ask for.
  const AssemblyStage& assembly() const { return assembly_; }
  double dt() const { return dt_; }
  const std::string& contact_model_name() const { return contact_model_name_; }
  /// What the last step leaves to the next: the contact stage's warm starts by contact identity and the
  /// control stage's memory. With the State it makes a restart point (sim/restart_point.hpp).
  StepperMemory memory() const { return {warm_start_, control_.memory()}; }
  /// Continues from `memory`; throws std::invalid_argument when its controllers are not the scene's.
  void restore(const StepperMemory& memory) {
    control_.restore(memory.control);
    warm_start_ = memory.warm_start;
  }

 private:
  void compute_kinematics(const State& state);
  void detect_collisions();
  void run_controllers(const State& state);
  void compute_dynamics(const State& state);
  void resolve_joint_friction();
  void assemble_contact_problems(const State& state);
  void solve_contacts();
  /// Stage 6's buffers for one chunk of islands (WorkerPool::chunk_of: with one thread, every island; with
  /// more, a contiguous run of islands always solved together by one thread). Not one per island: a thousand
  /// one-contact islands would each find theirs cold in memory, where a chunk's stay in cache from island to
  /// island. The model's workspace keeps its buffers at their high-water mark (contact/solvers/grow_only.hpp),
  /// so the islands of other sizes a chunk solves in turn allocate nothing once it has seen the largest.
  struct ChunkBuffers {
    std::unique_ptr<ContactWorkspace> workspace;   // the model's make_workspace()
    Eigen::VectorXd Mv;                            // (nv of the largest tree seen) scratch: M v⁺, M v*
  };
  void solve_island(int k, ChunkBuffers& buffers);
  /// Whether the next step's problem of this island can be `problem` to the bit: only if v⁺ = v (to the bit).
  static bool may_repeat(const ContactProblem& problem, const ContactResult& result);
  /// Whether island k's energy change, computed last step, is of the inputs it has now (given its kept answer).
  bool same_energy_source(int k) const;
  /// island_energy_change[k] = ½v⁺ᵀMv⁺ − ½v*ᵀMv* over its trees, and what it was computed of.
  void compute_energy_change(int k, ChunkBuffers& buffers);
  void report_contacts();
  void integrate_state(State& state);

  const WorldModel& model_;
  double dt_;
  std::string contact_model_name_;
  std::unique_ptr<const ContactModel> contact_model_;
  WorkerPool pool_;                        // threads of the stages that go tree by tree or island by island
  std::vector<ChunkBuffers> chunk_buffers_;      // stage 6's buffers, one per chunk of islands (grown, never shrunk)
  CollisionDetector detector_;
  StepData data_;
  ControlStage control_;                   // stage 3
  AssemblyStage assembly_;                 // stage 5, with what the model's ProblemNeeds ask for

  WarmStartMemory warm_start_;             // the contact stage's memory from step to step
  RecoveryScope recovery_scope_;           // stage 7's penetration recovery
};

}  // namespace impetus
