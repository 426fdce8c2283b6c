// Stage 3, control (control_stage.hpp).
#include "sim/control_stage.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "collision/contact_reduction.hpp"
#include "collision/pair_filter.hpp"
#include "contact/problem_copy.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/assembly.hpp"
#include "sim/collision_filter.hpp"
#include "sim/free_velocity.hpp"

namespace impetus {
namespace {

// A gait's ID problem (a controller with a closed-loop source) holds the contacts that are closed (φ ≤
// kClosedGap) and not arriving (n·v ≥ −kArrivalSpeed) and that the source does not let go of; their links are
// the source's Measurement::touching. Seed 004's ID is for non-impacting contact, and the gait's ID holds
// every contact it sees sticking (control/sticking_target.hpp): a foot comes into the ID's problem once it
// is down and at rest, its impact is the simulator's alone, and a foot hovering above the ground is not
// held. (Measured on links_trot flat_noslip, 5 s: holding also the contacts that close within the step at
// the measured speed, φ + Δt min(n·v, 0) ≤ kClosedGap, id_sensed fell at 1.35 s and id_qp_coulomb at
// 0.46 s; holding only resting ones, id_sensed trots 5 s and id_qp_coulomb falls at 0.70 s.)
// The trot's resting feet sit at φ ≤ 1e-7 m and move ≤ 1e-4 m/s along n (no_slip and stewart_trinkle,
// measured on links_trot): a foot 1 µm above the ground is in the air; one arriving at 1 mm/s brings
// ~2e-4 N·s into its impact (a 0.2 kg leg), 0.4 % of a step's weight impulse.
constexpr double kClosedGap = 1e-6;      // m
constexpr double kArrivalSpeed = 1e-3;   // m/s

/// X_WB of a tree's root link: its floating joint's pose, or its fixed place on the world at q = 0 (the
/// only base pose a closed-loop trajectory reads; scene_controller.cpp requires a floating base for them).
Eigen::Isometry3d base_pose(const MultibodyModel& mb, int tree, const Eigen::VectorXd& q) {
  const Joint& joint = mb.links[mb.trees[tree].first_link].joint;
  if (joint.type != JointType::Floating) return joint.X_PJ;
  const int i = joint.q_index;
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized().toRotationMatrix();
  X.translation() = q.segment<3>(i);
  return X;
}

/// The most contacts the ID's buffers are reserved for: they are 3 (na + 3) vectors of this many doubles per
/// controller (effort_limits.hpp), so a world that can hold more (a robot beside a pile of bodies: the bound
/// below grows with the square of the geometries) has them grown as its contacts are met instead.
constexpr int kMostReservedContacts = 1024;

/// The most contacts the world can hold at once, the bound of an ID problem's contact count: every geometry
/// pair the collision stage may test (the ground's included) at kMaxContactsPerPair points each; at most
/// kMostReservedContacts.
int most_contacts(const WorldModel& model) {
  const CollisionFilter filter = collision_filter(model);
  const PairFilter pairs(filter);
  const int geometries = static_cast<int>(model.geometries.size());
  const int most_pairs = kMostReservedContacts / kMaxContactsPerPair;
  int tested = 0;
  for (int a = 0; a < geometries && tested < most_pairs; ++a) {
    const int la = model.geometries[a].link;
    if (model.has_ground && pairs.allowed(la, kGround)) ++tested;
    for (int b = a + 1; b < geometries && tested < most_pairs; ++b) tested += pairs.allowed(la, model.geometries[b].link);
  }
  return std::min(tested, most_pairs) * kMaxContactsPerPair;
}

/// v resized to n: the vector of that size parked in `parked` when there is one (v's present one parked in
/// its place), so that a size met before is not allocated again. Contents unspecified.
void fit_size(Eigen::VectorXd& v, Eigen::Index n, std::vector<Eigen::VectorXd>& parked) {
  if (v.size() == n) return;
  for (Eigen::VectorXd& p : parked)
    if (p.size() == n) {
      v.swap(p);
      return;
    }
  parked.emplace_back();
  parked.back().swap(v);
  v.resize(n);
}

/// X resized to rows × cols, its entries dropped; an empty X of that shape is only emptied (Eigen's resize
/// reallocates the outer index at every call when there are no rows).
void resize_rows(SparseRows& X, Eigen::Index rows, Eigen::Index cols) {
  if (rows == 0 && X.rows() == 0 && X.cols() == cols) X.setZero();
  else X.resize(rows, cols);
}

/// `to` = `from` with only the contact rows `rows` (the joint-limit rows and the systems all kept); `parked`:
/// `to`'s buffers at the other sizes met (fit_problem_sizes).
void select_contacts(const ContactProblem& from, const std::vector<int>& rows, ContactProblem& to,
                     AssemblyScratch::ProblemBuffers& parked) {
  const int n = static_cast<int>(rows.size());
  fit_problem_sizes(parked, to, nullptr, from.v.size(), from.phi.size() == from.nc ? n : 0, from.phi_L.size());
  to.dt = from.dt;
  to.nv = from.nv;
  to.systems = from.systems;
  to.v = from.v;
  to.v_star = from.v_star;
  to.nc = n;
  // The kept rows copied in order (no selection matrix, triplets or product temporaries): `to` keeps its
  // storage from tick to tick, and its buffers at each number of kept rows (Eigen's outer index and the
  // picked vectors are sized by it), so this allocates only while their entries outgrow the storage.
  const auto copy_rows = [&](const SparseRows& x, SparseRows& out) {
    Eigen::Index entries = 0;
    for (int i = 0; i < n; ++i) entries += x.outerIndexPtr()[rows[i] + 1] - x.outerIndexPtr()[rows[i]];
    resize_rows(out, n, x.cols());
    out.reserve(entries);
    for (int i = 0; i < n; ++i) {
      out.startVec(i);
      for (SparseRows::InnerIterator it(x, rows[i]); it; ++it) out.insertBack(i, it.col()) = it.value();
    }
    out.finalize();
  };
  copy_rows(from.N, to.N);
  copy_rows(from.S, to.S);
  copy_rows(from.T, to.T);
  const auto pick = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    if (x.size() != from.nc) {
      out.resize(0);
      return;
    }
    out.resize(n);
    for (int i = 0; i < n; ++i) out[i] = x[rows[i]];
  };
  pick(from.phi, to.phi);
  pick(from.mu, to.mu);
  pick(from.mu_viscous, to.mu_viscous);
  pick(from.p_N_guess, to.p_N_guess);
  pick(from.p_S_guess, to.p_S_guess);
  pick(from.p_T_guess, to.p_T_guess);
  to.keys.clear();
  for (int r : rows) to.keys.push_back(from.keys[r]);
  to.touch_margin = from.touch_margin;
  to.nl = from.nl;
  copy_rows_of(from.L, to.L);
  to.phi_L = from.phi_L;
  to.p_L_guess = from.p_L_guess;
}

}  // namespace

void ControlStage::PendingTorques::pop_front() {
  first_ = (first_ + 1) % static_cast<int>(ring_.size());
  --count_;
}

void ControlStage::PendingTorques::push_back(long step, const Eigen::VectorXd& tau) {
  if (count_ == static_cast<int>(ring_.size())) {   // full: the entries in order, then one more
    std::rotate(ring_.begin(), ring_.begin() + first_, ring_.end());
    first_ = 0;
    ring_.emplace_back();
  }
  std::pair<long, Eigen::VectorXd>& entry = ring_[(first_ + count_) % ring_.size()];
  entry.first = step;
  entry.second = tau;
  ++count_;
}

ControlStage::ControlStage(const WorldModel& model, double dt) : model_(model), dt_(dt), scratch_(model) {
  for (const ControllerSpec& spec : model.controllers) {
    Slot slot(spec);
    for (int link : spec.links) {
      const Joint& j = model.multibody.links[link].joint;
      slot.q_index.push_back(j.q_index);
      slot.v_index.push_back(j.v_index);
      slot.effort.push_back(j.effort);
    }
    slot.held.setZero(static_cast<int>(spec.links.size()));
    // The problem of a step where the tree touches nothing, its buffers sized here: a stance that first leaves
    // the ground once warm then allocates nothing (clearing the rows again reallocates Eigen's empty sparse rows).
    const int nv = model.multibody.trees[spec.tree].nv;
    slot.lone.clear_rows(nv);
    slot.lone.nv = nv;
    slot.lone.systems.reserve(1);
    slot.lone.v.resize(nv);
    slot.lone.v_star.resize(nv);
    slots_.push_back(std::move(slot));
  }
  // The ID's buffers sized by the contacts at the most the world can hold: a trot's feet first making a
  // contact count once warm then allocate nothing for it (issue 16).
  if (!slots_.empty()) {
    const int most = most_contacts(model);
    for (Slot& slot : slots_)
      slot.controller.reserve(model.multibody.trees[slot.spec->tree].nv, most);
    reserve_problems(scratch_.assembly.parked);
  }
}

void ControlStage::reserve_problems(AssemblyScratch::ProblemBuffers& parked) const {
  if (slots_.empty()) return;
  const int most = most_contacts(model_);
  for (const Slot& slot : slots_) {
    const Tree& tree = model_.multibody.trees[slot.spec->tree];
    reserve_problem_sizes(parked, tree.nu, most, most_limit_rows(model_.multibody, slot.spec->tree));
  }
}

ContactProblem& ControlStage::build_problem(Slot& slot, double t, const ImpulseMemory& sensed,
                                            InverseDynamicsProblem& problem) {
  const MultibodyModel& mb = model_.multibody;
  const Tree& tree = mb.trees[slot.spec->tree];
  ContactProblem* cp = nullptr;
  int offset = 0;
  for (std::size_t k = 0; k < scratch_.islands.size() && !cp; ++k) {
    const Island& island = scratch_.islands[k];
    for (std::size_t i = 0; i < island.trees.size(); ++i)
      if (island.trees[i] == slot.spec->tree) {
        cp = &scratch_.problems[k];
        offset = cp->systems[i].offset;
        break;
      }
  }
  if (!cp) {   // the tree touches nothing: its own problem, without contacts (rows cleared by the constructor)
    ContactProblem& lone = slot.lone;
    lone.dt = dt_;
    lone.systems.assign(1, SystemBlock{0, tree.nv, &scratch_.M_eff[slot.spec->tree], &scratch_.M_llt[slot.spec->tree]});
    lone.v.setZero(tree.nv);   // v⁻ is not read by the ID variants (v* carries it)
    lone.v_star = scratch_.v_star.segment(tree.v_offset, tree.nv);
    cp = &lone;
    offset = 0;
  }
  if (const TrajectorySource* source = slot.spec->source.get()) {
    kept_.clear();
    touching_.clear();
    for (int r = 0; r < cp->nc; ++r) {
      const ContactKey& key = cp->keys[r];
      const double phi = cp->phi.size() == cp->nc ? cp->phi[r] : 0.0, v_n = cp->N.row(r).dot(cp->v);
      if (phi > kClosedGap || v_n < -kArrivalSpeed) continue;
      for (int g : {key.geom_a, key.geom_b})
        if (g >= 0 && model_.geometries[g].link >= 0) touching_.push_back(model_.geometries[g].link);
      const auto excluded = [&](int g) { return g >= 0 && source->excludes_contact(t, model_.geometries[g].link); };
      if (!excluded(key.geom_a) && !excluded(key.geom_b)) kept_.push_back(r);
    }
    if (static_cast<int>(kept_.size()) < cp->nc) {
      select_contacts(*cp, kept_, selected_, scratch_.assembly.parked);
      cp = &selected_;
    }
  }
  problem.contact = cp;
  problem.actuated.resize(slot.v_index.size());
  for (std::size_t a = 0; a < slot.v_index.size(); ++a) problem.actuated[a] = offset + slot.v_index[a] - tree.v_offset;
  problem.effort = Eigen::Map<const Eigen::VectorXd>(slot.effort.data(), static_cast<Eigen::Index>(slot.effort.size()));
  if (slot.spec->settings.type != "id_sensed") {
    problem.sensed.resize(0);
  } else {
    fit_size(problem.sensed, 3 * cp->nc, sensed_parked_);
    problem.sensed.setZero();
    for (int r = 0; r < cp->nc; ++r)
      if (auto it = sensed.find(cp->keys[r]); it != sensed.end()) {
        problem.sensed[r] = (*it).second[0];
        problem.sensed[cp->nc + r] = (*it).second[1];
        problem.sensed[2 * cp->nc + r] = (*it).second[2];
      }
  }
  return *cp;
}

ControlMemory ControlStage::memory() const {
  ControlMemory memory{step_, applied_before_, {}};
  for (const Slot& slot : slots_) {
    std::deque<std::pair<long, Eigen::VectorXd>> pending;
    for (int i = 0; i < slot.pending.size(); ++i) pending.push_back(slot.pending[i]);
    memory.slots.push_back({slot.held, slot.has_tau, std::move(pending), slot.controller.memory()});
  }
  return memory;
}

void ControlStage::restore(const ControlMemory& memory) {
  if (memory.slots.size() != slots_.size())
    throw std::invalid_argument("the control memory has " + std::to_string(memory.slots.size()) +
                                " controllers, the scene " + std::to_string(slots_.size()));
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const long na = static_cast<long>(slots_[s].v_index.size());
    const ControlMemory::Slot& m = memory.slots[s];
    bool sizes = m.held.size() == na && m.controller.integral.size() == na;
    for (const auto& [step, tau] : m.pending) sizes = sizes && tau.size() == na;
    if (!sizes)
      throw std::invalid_argument("controller " + std::to_string(s) + " of the control memory does not drive " +
                                  std::to_string(na) + " joints");
  }
  step_ = memory.step;
  applied_before_ = memory.applied_before;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    Slot& slot = slots_[s];
    const ControlMemory::Slot& m = memory.slots[s];
    slot.held = m.held;
    slot.has_tau = m.has_tau;
    slot.pending.clear();
    for (const auto& [step, tau] : m.pending) slot.pending.push_back(step, tau);
    slot.controller.restore(m.controller);
  }
}

void ControlStage::run(const State& state, const ContactSet& contacts, const ImpulseMemory& applied, StepData& data) {
  data.control.resize(slots_.size());
  if (slots_.empty()) {   // no τ to add: stage 3 leaves the forces of a scene without controllers untouched
    data.tau_control.resize(0);
    return;
  }
  data.tau_control.setZero(model_.multibody.nv);

  bool prediction_built = false;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    Slot& slot = slots_[s];
    ControlStepRecord& record = data.control[s];
    const ControllerSettings& settings = slot.controller.settings();
    record.called = step_ % settings.rate == 0;
    if (record.called) {
      const int na = static_cast<int>(slot.v_index.size());
      q_.resize(na);
      qd_.resize(na);
      for (int a = 0; a < na; ++a) {
        q_[a] = state.q[slot.q_index[a]];
        qd_[a] = state.v[slot.v_index[a]];
      }
      InverseDynamicsProblem* id = nullptr;
      ContactProblem* contact = nullptr;
      if (slot.controller.needs_problem()) {
        if (!prediction_built) {   // what stages 4 and 5 will see, without the controllers' τ
          forward_kinematics(model_.multibody, scratch_.multibody, state.q, state.v);
          compute_free_velocity(model_, dt_, state, Eigen::VectorXd(), scratch_);
          scratch_.contacts = contacts;
          assemble_contact_problems(model_, state, dt_, applied, scratch_, Compliance::Rigid);
          prediction_built = true;
        }
        contact = &build_problem(slot, state.t, settings.sensed_lag == 2 ? applied_before_ : applied, problem_);
        id = &problem_;
      }
      const Eigen::Isometry3d X_WB = base_pose(model_.multibody, slot.spec->tree, state.q);
      const bool measures_contacts = id && slot.spec->source;
      slot.controller.compute(state.t, dt_, Measurement{q_, qd_, X_WB, measures_contacts ? &touching_ : nullptr}, id,
                              contact, record.call);
      const bool failed = record.call.stats.status == SolveStatus::Failed;
      record.status = failed ? "failed" : record.call.stats.status == SolveStatus::Fallback ? "fallback" : "ok";
      // A failed call's impulses are no prediction (a Lemke ray's iterate reached 8e7 N on arm7_grasp):
      // NaN, which control.csv writes as an empty field and the replay metrics skip.
      record.normal_force = failed ? std::numeric_limits<double>::quiet_NaN()
                            : record.call.p_N.size() > 0 ? record.call.p_N.sum() / dt_
                                                         : 0.0;
      if (!failed) slot.pending.push_back(step_ + settings.lag, record.call.tau);
    } else {
      record.status = "held";
    }
    // Lagged τ become due; until the first is due, the first computed stands (no τ = 0 start).
    while (!slot.pending.empty() && (slot.pending.front().first <= step_ || !slot.has_tau)) {
      slot.held = slot.pending.front().second;
      slot.has_tau = true;
      if (slot.pending.front().first > step_) break;
      slot.pending.pop_front();
    }
    // Effort limits of the URDF: pid's τ and a fallback's are clamped here; the ID variants' τ are within
    // them already, with the impulses predicted for them (control/inverse_dynamics/effort_limits.hpp).
    record.tau = slot.held;
    record.clamped = false;
    for (int a = 0; a < record.tau.size(); ++a)
      if (slot.effort[a] > 0 && std::abs(record.tau[a]) > slot.effort[a]) {
        record.tau[a] = std::clamp(record.tau[a], -slot.effort[a], slot.effort[a]);
        record.clamped = true;
      }
    for (int a = 0; a < record.tau.size(); ++a) data.tau_control[slot.v_index[a]] += record.tau[a];
  }
  applied_before_ = applied;
  ++step_;
}

}  // namespace impetus
