// (assembly_repeat.hpp)
#include "sim/assembly_repeat.hpp"

#include <cstdint>

#include "dynamics/same_bits.hpp"

namespace impetus {

namespace {

/// Every field of two contact points, doubles to the bit (the struct has padding: no memcmp of the whole).
bool same_point(const ContactPoint& a, const ContactPoint& b) {
  return a.geom_a == b.geom_a && a.geom_b == b.geom_b && a.link_a == b.link_a && a.link_b == b.link_b &&
         a.feature == b.feature && same_bits(a.p_W.data(), b.p_W.data(), 3) &&
         same_bits(a.n_W.data(), b.n_W.data(), 3) && same_bits(&a.phi, &b.phi, 1) && same_bits(&a.mu, &b.mu, 1);
}

/// M_eff[t] as free_velocity.cpp made it for dt (and unwritten since while its source stands).
bool effective_inertia_made(const StepData& data, int t, double dt) {
  const StepData::EffectiveInertiaSource& source = data.M_eff_source[t];
  return source.made && same_bits(&source.dt, &dt, 1);
}

}  // namespace

bool rows_repeat(const WorldModel& model, const StepData& data, int k, double dt) {
  const AssemblyScratch::RowsSource& source = data.assembly.rows_source[k];
  const Island& island = data.islands[k];
  const ContactProblem& P = data.problems[k];
  if (!source.held || !island.limit_dofs.empty() || !same_bits(&P.dt, &dt, 1) ||
      !same_bits(&P.touch_margin, &model.collision.margin, 1) || island.trees != source.trees ||
      island.contacts != source.contacts)
    return false;
  for (std::size_t i = 0; i < island.trees.size(); ++i)
    if (data.multibody.kinematics_pass[island.trees[i]] != source.passes[i]) return false;
  for (std::size_t r = 0; r < island.contacts.size(); ++r) {
    const int ci = island.contacts[r];
    if (!data.assembly.soft[ci].rigid() || !same_point(data.contacts[ci], source.points[r])) return false;
  }
  return true;
}

void hold_rows_source(const WorldModel& model, StepData& data, int k) {
  const MultibodyModel& mb = model.multibody;
  AssemblyScratch::RowsSource& source = data.assembly.rows_source[k];
  const Island& island = data.islands[k];
  source.held = island.limit_dofs.empty();
  for (int t : island.trees) source.held = source.held && !mb.trees[t].has_mimic();
  for (int ci : island.contacts) source.held = source.held && data.assembly.soft[ci].rigid();
  if (!source.held) return;
  // Assigned in place: grow-only buffers, nothing allocated once warm.
  source.trees.assign(island.trees.begin(), island.trees.end());
  source.contacts.assign(island.contacts.begin(), island.contacts.end());
  source.passes.resize(island.trees.size());
  source.M_writes.resize(island.trees.size());
  for (std::size_t i = 0; i < island.trees.size(); ++i) {
    source.passes[i] = data.multibody.kinematics_pass[island.trees[i]];
    source.M_writes[i] = data.M_eff_source[island.trees[i]].M_writes;
  }
  source.points.resize(island.contacts.size());
  for (std::size_t r = 0; r < island.contacts.size(); ++r) source.points[r] = data.contacts[island.contacts[r]];
}

bool refresh_velocities(const WorldModel& model, const State& state, StepData& data, int k) {
  const MultibodyModel& mb = model.multibody;
  AssemblyScratch::RowsSource& source = data.assembly.rows_source[k];
  ContactProblem& P = data.problems[k];
  bool same = true;
  int column = 0;   // the trees' columns in order (no soft column: rows_repeat), u = v (no mimic joint)
  for (std::size_t i = 0; i < source.trees.size(); ++i) {
    const int t = source.trees[i];
    const Tree& tree = mb.trees[t];
    const double* v = state.v.data() + tree.v_offset;
    const double* v_star = data.v_star.data() + tree.v_offset;
    same = same && same_bits(P.v.data() + column, v, tree.nv) && same_bits(P.v_star.data() + column, v_star, tree.nv);
    std::copy_n(v, tree.nv, P.v.data() + column);
    std::copy_n(v_star, tree.nv, P.v_star.data() + column);
    // P's block points at M_eff[t]: its bits are those P had while free_velocity.cpp has not made it again.
    const std::uint64_t writes = data.M_eff_source[t].M_writes;
    same = same && effective_inertia_made(data, t, P.dt) && writes == source.M_writes[i];
    source.M_writes[i] = writes;
    column += tree.nv;
  }
  return same;
}

}  // namespace impetus
