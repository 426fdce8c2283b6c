// Stage 3, control (DESIGN.md): the scene's controllers read the model, the state and the ContactSet the
// collision stage found at the start of the step — never anything from later in the step — and write τ
// for the joints they drive, clamped to the URDF effort limits (which the ID variants honour inside the
// inverse dynamics, so that their prediction is that of the τ applied: control/inverse_dynamics/
// effort_limits.hpp). Stage 4 adds τ to the applied forces.
//
// For the inverse-dynamics controllers the stage builds the problem the simulator will solve in this
// step: M, h and v* (without the controllers' τ) as stage 4 computes them (sim/free_velocity.hpp), and
// the islands and ContactProblems of stage 5's assembly (sim/assembly.hpp) from the same ContactSet — the
// same rows N, S, T, tangents t1/t2, gaps and μ. The driven tree's island is its ID problem; a tree
// touching nothing gets a problem without contacts. What the prediction does not see: joint friction
// (stage 4's Coulomb joint friction reshapes v* afterwards), joint-limit rows, and τ of other controllers
// in the same island.
//
// Timing options of each controller (control/controller.hpp):
//   rate = k   a call every k steps (steps 0, k, 2k, …); τ is held in between (zero-order hold);
//   lag = L    the τ applied in step i was computed at the start of step i − L (sensing and
//              computation lag); until then the first computed τ is applied.
// id_sensed reads the impulses the simulator applied in the previous step (sensed_lag 1) or the one
// before (2), matched to this step's contacts by ContactKey.
// A call that fails keeps the τ held so far and is counted; nothing is thrown.
//
// A controller with a closed-loop source (a gait, control/trajectory_source.hpp) measures which links touch:
// those with a contact closed (φ ≤ kClosedGap) and not arriving (n·v ≥ −kArrivalSpeed), its
// Measurement::touching; its ID problem leaves out the contacts the source excludes.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "sim/step_data.hpp"

namespace impetus {

/// What the control stage carries from one step to the next; part of a restart point (sim/restart_point.hpp).
struct ControlMemory {
  struct Slot {                                   // one per <controller>
    Eigen::VectorXd held;                         // (na) τ applied (N·m or N)
    bool has_tau = false;                         // a τ has been computed (before: none to hold)
    std::deque<std::pair<long, Eigen::VectorXd>> pending;   // (apply at step, τ) of lagged calls
    ControllerMemory controller;
  };
  long step = 0;                                  // steps run: calls fall on multiples of `rate`
  ImpulseMemory applied_before;                   // the impulses of two steps back (sensed_lag 2)
  std::vector<Slot> slots;
};

class ControlStage {
 public:
  ControlStage(const WorldModel& model, double dt);

  bool empty() const { return slots_.empty(); }
  /// Stage 3 at the start of a step: `contacts` are this step's (stage 2), `applied` the impulses the
  /// simulator applied in the previous step. Writes data.tau_control (nv) and data.control.
  void run(const State& state, const ContactSet& contacts, const ImpulseMemory& applied, StepData& data);

  /// Makes the contact problems' buffers (sim/assembly.hpp reserve_problem_sizes) of every count up to the most
  /// contacts the world can hold, for the island of each controlled tree alone: the stepper's, as the stage does
  /// its own prediction's, so that a contact count first met once warm allocates nothing in either (issue 16).
  void reserve_problems(AssemblyScratch::ProblemBuffers& parked) const;

  ControlMemory memory() const;
  /// Continues from `memory` (one of this scene's): throws std::invalid_argument when its controllers are
  /// not this stage's.
  void restore(const ControlMemory& memory);

 private:
  /// (apply at step, τ) of lagged calls, oldest first: a ring whose entries keep their storage (at most
  /// lag + 1 are pending), so that a call allocates nothing once warm — a std::deque allocates a node every
  /// few pushes and a copy of τ every push.
  class PendingTorques {
   public:
    bool empty() const { return count_ == 0; }
    int size() const { return count_; }
    const std::pair<long, Eigen::VectorXd>& operator[](int i) const { return ring_[(first_ + i) % ring_.size()]; }
    const std::pair<long, Eigen::VectorXd>& front() const { return (*this)[0]; }
    void pop_front();
    void push_back(long step, const Eigen::VectorXd& tau);   // grows the ring when it is full
    void clear() { first_ = count_ = 0; }

   private:
    std::vector<std::pair<long, Eigen::VectorXd>> ring_;
    int first_ = 0, count_ = 0;
  };
  struct Slot {
    explicit Slot(const ControllerSpec& s) : spec(&s), controller(s.settings, s.trajectory, s.source) {}
    const ControllerSpec* spec = nullptr;
    Controller controller;
    std::vector<int> q_index, v_index;            // (na) in State::q, State::v
    std::vector<double> effort;                   // (na) URDF effort limit, 0: none
    Eigen::VectorXd held;                         // (na) τ applied (N·m or N)
    bool has_tau = false;
    PendingTorques pending;
    ContactProblem lone;                          // its tree's problem without contacts, for a step where it touches nothing
  };
  /// The slot's ID problem into `problem`; returns its contact problem (one of this stage's, writable).
  ContactProblem& build_problem(Slot& slot, double t, const ImpulseMemory& sensed, InverseDynamicsProblem& problem);

  const WorldModel& model_;
  double dt_;
  long step_ = 0;
  std::vector<Slot> slots_;
  StepData scratch_;                              // stage 4–5 quantities of the prediction
  ImpulseMemory applied_before_;                  // the impulses of two steps back (sensed_lag 2)
  ContactProblem selected_;                       // the island's problem without the contacts a source excludes
  std::vector<int> kept_;                         // rows of the island's problem in selected_
  std::vector<Eigen::VectorXd> sensed_parked_;    // problem_.sensed at the other sizes met (3 n_c)
  std::vector<int> touching_;                     // model links with a closed, non-arriving contact (Measurement)
  Eigen::VectorXd q_, qd_;
  InverseDynamicsProblem problem_;                // the call's ID problem (its buffers kept from call to call)
};

}  // namespace impetus
