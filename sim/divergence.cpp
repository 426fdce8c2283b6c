#include "sim/divergence.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

#include "collision/collision_shape.hpp"
#include "dynamics/energy.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/step_kinematics.hpp"

namespace impetus {

DivergenceMonitor::DivergenceMonitor(const WorldModel& model, const State& initial, double dt)
    : model_(model), dt_(dt), data_(model.multibody) {
  const MultibodyModel& mb = model.multibody;
  forward_kinematics(mb, data_, initial.q, initial.v);
  Eigen::AlignedBox3d scene;
  scene.setEmpty();
  for (std::size_t g = 0; g < model.geometries.size(); ++g) {
    const Geometry& geometry = model.geometries[g];
    try {
      scene.extend(world_bounds(prepare_shape(geometry, static_cast<int>(g)), data_.X_WL[geometry.link] * geometry.X_LG));
    } catch (const std::exception&) {
      // The loader refuses such a geometry; here it only leaves the scene's size to the others.
    }
  }
  L_ = scene.isEmpty() ? 1.0 : std::max(kMinSceneSize, scene.diagonal().norm());
  double M = 0;
  for (const Link& link : mb.links)
    if (mb.trees[link.tree].nv > 0) M += link.inertia.mass;
  const double KE0 = kinetic_energy(mb, data_);
  E0_ = KE0 + potential_energy(mb, data_);
  E_s_ = KE0 + M * mb.gravity.norm() * L_ + 0.5 * M * L_ * L_;
}

std::string DivergenceMonitor::check(const State& state, const StepData& step) {
  std::ostringstream why;
  if (!(state.q.allFinite() && state.v.allFinite())) return "the state is not finite";
  const MultibodyModel& mb = model_.multibody;
  // The step's own pass when it ended in `state` (sim/step_kinematics.hpp), else one of ours.
  const bool held = holds_kinematics_of(step, state.q, state.v);
  if (!held) forward_kinematics(mb, data_, state.q, state.v);
  const MultibodyData& kin = held ? step.multibody : data_;
  const double energy = kinetic_energy(mb, kin) + potential_energy(mb, kin);
  W_ += dt_ * step.tau.dot(state.v);
  const double rise = energy - E0_ - W_;
  if (std::isfinite(rise)) max_rise_ = std::max(max_rise_, rise);
  if (!std::isfinite(energy) || rise > kEnergyGrowth * E_s_) {
    why << "the energy rose by " << rise << " J with " << W_ << " J of work done (bound " << kEnergyGrowth << " x "
        << E_s_ << " J)";
    return why.str();
  }
  if (step.stats.max_penetration > L_) {
    why << "a penetration of " << step.stats.max_penetration << " m, deeper than the scene's size " << L_ << " m";
    return why.str();
  }
  for (std::size_t i = 0; i < mb.links.size(); ++i) {
    const Vec3 w = kin.V[i].head<3>();
    const Vec3 v = point_velocity(kin.V[i], kin.X_WL[i].translation());
    if (v.norm() * dt_ > L_) {
      why << "'" << mb.links[i].name << "' moves at " << v.norm() << " m/s, across the scene (" << L_
          << " m) in one step";
      return why.str();
    }
    if (w.norm() * dt_ > std::numbers::pi) {
      why << "'" << mb.links[i].name << "' turns at " << w.norm() << " rad/s, more than half a turn in one step";
      return why.str();
    }
  }
  return "";
}

}  // namespace impetus
