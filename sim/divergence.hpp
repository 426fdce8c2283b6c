// When a run has diverged: what a user would call a blow-up, judged after every step against bounds
// set by the scene's own size and time step (README, "Run status").
//
//   L    scene size: the diagonal of the box around every collision geometry at the initial state
//        (at least kMinSceneSize);
//   E_s  energy scale: KE₀ + M·|g|·L + ½·M·(L / 1 s)², with M the mass of everything that moves:
//        the energy it started with, plus what falling across the whole scene, or crossing it in a
//        second, would give it;
//   W    work done on the system by <load>s and <actuator>s: Σ dt·τᵀv⁺ over the steps.
//
// A step has diverged when
//   - q or v is not finite;
//   - the energy rose by an order of magnitude without work done: E − E₀ − W > kEnergyGrowth · E_s;
//   - a body's origin moves farther than the scene in one step (|v|·dt > L), or it turns by more than
//     half a turn in one step (|ω|·dt > π, beyond which a rotation cannot be told from its opposite);
//   - a penetration is deeper than the scene is large (> L).
#pragma once

#include <string>

#include "dynamics/data.hpp"
#include "sim/step_data.hpp"
#include "sim/world.hpp"

namespace impetus {

/// Smallest scene size L (m): a scene of one small part is still judged on a human scale (a 1 cm
/// body would otherwise have its speed bound at 10 m/s for dt = 1 ms).
constexpr double kMinSceneSize = 0.1;
/// Growth of E − E₀ − W beyond which energy is said to blow up: an order of magnitude above the
/// energy scale, which already holds everything the scene could give itself. A sound run gains at
/// most a small fraction of E_s (integration and contact errors).
constexpr double kEnergyGrowth = 10;

class DivergenceMonitor {
 public:
  DivergenceMonitor(const WorldModel& model, const State& initial, double dt);

  /// After a step (`step`'s data) that ended in `state`: empty while within bounds, else what was
  /// exceeded (for the run's status).
  std::string check(const State& state, const StepData& step);

  double scene_size() const { return L_; }
  double energy_scale() const { return E_s_; }
  /// max over the steps so far of E − E₀ − W (J): the energy the run gained that nothing put in.
  double energy_max_rise() const { return max_rise_; }
  double work() const { return W_; }

 private:
  const WorldModel& model_;
  double dt_;
  double L_ = 1, E_s_ = 0, E0_ = 0, W_ = 0, max_rise_ = 0;
  MultibodyData data_;
};

}  // namespace impetus
