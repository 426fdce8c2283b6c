#include "sim/stepper.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "contact/factory.hpp"
#include "contact/hull_plane.hpp"
#include "dynamics/integration.hpp"
#include "dynamics/mimic.hpp"
#include "sim/free_velocity.hpp"
#include "sim/collision_filter.hpp"
#include "sim/joint_friction_stage.hpp"
#include "sim/penetration_recovery.hpp"
#include "sim/step_kinematics.hpp"

namespace impetus {

namespace {

ModelOptions options_of(const WorldModel& model, const std::string& name) {
  auto it = model.physics.model_options.find(name);
  return it == model.physics.model_options.end() ? ModelOptions{} : it->second;
}

/// Adds the seconds since `start` to `slot` and restarts the clock.
class StageClock {
 public:
  void lap(double& slot) {
    const auto now = std::chrono::steady_clock::now();
    slot += std::chrono::duration<double>(now - start_).count();
    start_ = now;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

Stepper::Stepper(const WorldModel& model, const std::string& contact_model, double dt, int threads)
    : model_(model),
      dt_(dt),
      contact_model_name_(contact_model),
      contact_model_(make_contact_model(contact_model, options_of(model, contact_model))),
      pool_(resolve_thread_count(threads)),
      detector_(model.geometries, collision_filter(model)),
      data_(model),
      control_(model, dt),
      assembly_(model, contact_model_info(contact_model).needs),
      recovery_scope_(model) {
  control_.reserve_problems(data_.assembly.parked);
}

void Stepper::step(State& state) {
  data_.times = {};
  data_.stats = {};
  StageClock clock;
  compute_kinematics(state);
  clock.lap(data_.times.kinematics);
  detect_collisions();
  clock.lap(data_.times.collision);
  run_controllers(state);
  clock.lap(data_.times.control);
  compute_dynamics(state);
  resolve_joint_friction();
  clock.lap(data_.times.dynamics);
  assemble_contact_problems(state);
  clock.lap(data_.times.assembly);
  solve_contacts();
  clock.lap(data_.times.contact);
  integrate_state(state);
  clock.lap(data_.times.integration);
}

void Stepper::compute_kinematics(const State& state) {
  kinematics_at(model_.multibody, data_, state.q, state.v, &pool_);   // the last step's final pass, unless the state moved
}

void Stepper::detect_collisions() {
  // Speculative contact: every pair that can touch within the step (collision/collision_detector.cpp).
  const LinkMotion motion{&data_.multibody.V, dt_, model_.multibody.gravity.norm() * dt_};
  // A tree's links are written by its kinematics passes alone: one unwritten since the last detection keeps
  // its geometries' poses, boxes and sweeps (most trees of a resting scene).
  const std::vector<Link>& links = model_.multibody.links;
  const LinkWrites writes{&data_.multibody.kinematics_pass, links.empty() ? nullptr : &links[0].tree, sizeof(Link)};
  detector_.detect(data_.multibody.X_WL, data_.contacts, motion, writes);
  data_.stats.contacts = static_cast<int>(data_.contacts.size());
  for (const ContactPoint& c : data_.contacts) data_.stats.max_penetration = std::max(data_.stats.max_penetration, -c.phi);
}

// Coulomb joint friction (seed 002 QP4) between dynamics and assembly: sim/joint_friction_stage.hpp.
// Its time counts as dynamics in the statistics, since it only reshapes v*.
void Stepper::resolve_joint_friction() { apply_joint_friction(model_, dt_, data_); }

void Stepper::run_controllers(const State& state) {
  control_.run(state, data_.contacts, warm_start_.impulses, data_);
}

void Stepper::compute_dynamics(const State& state) {
  compute_free_velocity(model_, dt_, state, data_.tau_control, data_, &pool_);
}

void Stepper::assemble_contact_problems(const State& state) { assembly_.assemble(state, dt_, warm_start_, data_); }

void Stepper::solve_contacts() {
  data_.v_plus = data_.v_star;  // trees in no island move freely
  data_.impulse.assign(data_.contacts.size(), Eigen::Vector3d::Zero());
  data_.results.resize(data_.islands.size());
  data_.answered.resize(data_.islands.size());
  data_.island_energy_change.resize(data_.islands.size());
  data_.energy_source.resize(data_.islands.size());
  // Islands share no tree and no contact: each writes only its own slots, so the bits are those of a
  // sequential loop whatever the thread count.
  const int islands = static_cast<int>(data_.islands.size());
  while (static_cast<int>(chunk_buffers_.size()) < pool_.chunks(islands))
    chunk_buffers_.push_back({contact_model_->make_workspace(), Eigen::VectorXd()});
  auto solve = [this, islands](int k, int) { solve_island(k, chunk_buffers_[pool_.chunk_of(k, islands)]); };
  pool_.run(islands, solve);

  // Statistics in island order (the energy's sum in a fixed order).
  StepStatistics& s = data_.stats;
  s.islands = static_cast<int>(data_.islands.size());
  for (std::size_t k = 0; k < data_.islands.size(); ++k) {
    const ContactResult& result = data_.results[k];
    ++s.solver_calls;
    s.solver_iterations += result.stats.iterations;
    s.solver_max_iterations = std::max(s.solver_max_iterations, result.stats.iterations);
    if (result.stats.status == SolveStatus::Fallback) ++s.solver_fallbacks;
    if (result.stats.status == SolveStatus::Failed) ++s.solver_failures;
    s.contact_energy_change += data_.island_energy_change[k];
  }
  assembly_.remember(data_, warm_start_);
  report_contacts();
}

void Stepper::solve_island(int k, ChunkBuffers& buffers) {
  const MultibodyModel& mb = model_.multibody;
  const Island& island = data_.islands[k];
  const ContactProblem& problem = data_.problems[k];
  ContactResult& result = data_.results[k];
  // The model's answer is a function of the problem alone (contact/problem_bits.hpp): a problem that is, to the
  // bit, the one results[k] answered last step has that answer already. One the assembly found to be unwritten
  // since (sim/assembly_repeat.hpp) is the one answered kept, if any, without the compare.
  ProblemBits& answered = data_.answered[k];
  const bool kept = data_.problem_repeats[k] ? answered.kept() && problem.extension.empty() : answered.same(problem);
  if (!kept) {
    answered.forget();   // results[k] answers nothing until the model returns
    contact_model_->solve(problem, result, *buffers.workspace);
    if (may_repeat(problem, result)) answered.keep(problem);
  }

  for (std::size_t i = 0; i < island.trees.size(); ++i) {
    const Tree& tree = mb.trees[island.trees[i]];
    const SystemBlock& block = problem.systems[i];
    // v⁺ = G u⁺ where mimic joints were eliminated (dynamics/mimic.hpp (2)); G = 1 elsewhere.
    auto v_plus = data_.v_plus.segment(tree.v_offset, tree.nv);
    if (tree.has_mimic()) expand_independent(tree, result.v_plus.segment(block.offset, block.size), v_plus);
    else v_plus = result.v_plus.segment(block.offset, block.size);
  }
  if (!(kept && same_energy_source(k))) compute_energy_change(k, buffers);
  for (int r = 0; r < problem.nc; ++r)
    data_.impulse[island.contacts[r]] << result.p_N[r], result.p_S[r], result.p_T[r];
}

bool Stepper::may_repeat(const ContactProblem& problem, const ContactResult& result) {
  // The next step's problem starts from v = this v⁺ (integrate_state): unless v⁺ is this problem's v to the bit, the
  // next problem's v differs from this one's, and so does the problem; its bits would be copied for no compare that
  // can succeed (every island of a falling pile, every step: ~3 % of its step, issue 16). Only the copy is saved:
  // results are those of a solve either way.
  return result.v_plus.size() == problem.v.size() &&
         std::memcmp(result.v_plus.data(), problem.v.data(), sizeof(double) * problem.v.size()) == 0;
}

bool Stepper::same_energy_source(int k) const {
  // With the island's problem and result kept, ½v⁺ᵀMv⁺ − ½v*ᵀMv* of its one tree is of the same bits: v⁺ is the
  // result's, v* the problem's (u = v without mimic joints, and the tree's columns come first), and M unwritten.
  const std::vector<int>& trees = data_.islands[k].trees;
  const StepData::EnergySource& source = data_.energy_source[k];
  return trees.size() == 1 && source.tree == trees[0] && source.M_writes == data_.multibody.M_writes[trees[0]];
}

void Stepper::compute_energy_change(int k, ChunkBuffers& buffers) {
  const MultibodyModel& mb = model_.multibody;
  const Island& island = data_.islands[k];
  double kinetic_change = 0;
  for (std::size_t i = 0; i < island.trees.size(); ++i) {
    const Tree& tree = mb.trees[island.trees[i]];
    const auto v_plus = data_.v_plus.segment(tree.v_offset, tree.nv);
    const auto v_star = data_.v_star.segment(tree.v_offset, tree.nv);
    const Eigen::MatrixXd& M = data_.multibody.M[island.trees[i]];
    if (buffers.Mv.size() < tree.nv) buffers.Mv.resize(tree.nv);   // grow-only: no resize per tree
    auto Mv = buffers.Mv.head(tree.nv);
    Mv.noalias() = M * v_plus;
    const double twice_kinetic_plus = v_plus.dot(Mv);
    Mv.noalias() = M * v_star;
    kinetic_change += 0.5 * (twice_kinetic_plus - v_star.dot(Mv));
  }
  data_.island_energy_change[k] = kinetic_change;
  StepData::EnergySource& source = data_.energy_source[k];
  const bool one_plain_tree = island.trees.size() == 1 && !mb.trees[island.trees[0]].has_mimic();
  source.tree = one_plain_tree ? island.trees[0] : -1;
  source.M_writes = one_plain_tree ? data_.multibody.M_writes[island.trees[0]] : 0;
}

void Stepper::report_contacts() {
  // A row the assembly marked as stood for by a point the model chose (a body–plane pair's ECP) is
  // reported through that point, unless the model solved its island without such points (a fallback
  // to point contacts: contact/ecp/ecp_model.hpp), which gave the row its own impulse.
  for (std::size_t k = 0; k < data_.islands.size(); ++k) {
    const HullPlaneResult* chosen = data_.results[k].extension.find<HullPlaneResult>();
    if (chosen != nullptr && !chosen->pairs.empty()) continue;
    for (int c : data_.islands[k].contacts) data_.replaced[c] = 0;
  }
  data_.reported.clear();
  for (std::size_t i = 0; i < data_.contacts.size(); ++i) {
    if (data_.replaced[i]) continue;
    const ContactPoint& c = data_.contacts[i];
    data_.reported.push_back({c.link_a, c.link_b, c.p_W, c.n_W, c.phi, data_.impulse[i]});
  }
  for (const ContactResult& result : data_.results)
    data_.reported.insert(data_.reported.end(), result.contacts.begin(), result.contacts.end());
}

void Stepper::integrate_state(State& state) {
  integrate(model_.multibody, state.q, data_.v_plus, dt_, data_.q_plus);
  project_onto_joint_limits(model_.multibody, data_.q_plus);
  // A geometrically implicit model's q⁺ is the configuration its constraints hold at (equal to the
  // integrator's to round-off: contact/ecp/ecp_model.hpp (E3)), so that its no-penetration is the state's.
  for (std::size_t k = 0; k < data_.islands.size(); ++k) {
    const std::vector<int>& trees = data_.islands[k].trees;
    const ContactResult& result = data_.results[k];
    for (int system : result.q_plus_systems) {
      int offset = 0;   // q⁺ lays the systems out one after the other (ContactResult::q_plus)
      for (int i = 0; i < system; ++i) offset += model_.multibody.trees[trees[i]].nq;
      const Tree& tree = model_.multibody.trees[trees[system]];
      data_.q_plus.segment(tree.q_offset, tree.nq) = result.q_plus.segment(offset, tree.nq);
    }
  }
  kinematics_at(model_.multibody, data_, data_.q_plus, data_.v_plus, &pool_);   // recover_penetration's first pass
  recover_penetration(model_, detector_, recovery_scope_, data_);
  state.q = data_.q_plus;
  state.v = data_.v_plus;
  state.t += dt_;
  kinematics_at(model_.multibody, data_, state.q, state.v, &pool_);   // a pass only when the recovery moved q⁺
}

StageTimes& StageTimes::operator+=(const StageTimes& o) {
  kinematics += o.kinematics;
  collision += o.collision;
  control += o.control;
  dynamics += o.dynamics;
  assembly += o.assembly;
  contact += o.contact;
  integration += o.integration;
  recording += o.recording;
  return *this;
}

StepData::StepData(const WorldModel& model)
    : multibody(model.multibody),
      h(Eigen::VectorXd::Zero(model.multibody.nv)),
      tau(Eigen::VectorXd::Zero(model.multibody.nv)),
      Mv(Eigen::VectorXd::Zero(model.multibody.nv)),
      v_star(Eigen::VectorXd::Zero(model.multibody.nv)),
      v_plus(Eigen::VectorXd::Zero(model.multibody.nv)),
      q_plus(Eigen::VectorXd::Zero(model.multibody.nq)) {
  for (const Tree& tree : model.multibody.trees) {
    M_eff.push_back(Eigen::MatrixXd::Zero(tree.nu, tree.nu));
    M_llt.emplace_back(tree.nu);
  }
  M_eff_source.resize(model.multibody.trees.size());
  v_star_source.resize(model.multibody.trees.size());
  v_star_inputs = Eigen::VectorXd::Zero(4 * model.multibody.nv);
}

}  // namespace impetus
