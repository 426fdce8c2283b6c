#include "sim/assembly.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "contact/contact_rows_fill.hpp"
#include "contact/sparse_fill.hpp"
#include "dynamics/jacobian.hpp"
#include "dynamics/mimic.hpp"
#include "dynamics/same_bits.hpp"
#include "sim/assembly_repeat.hpp"

namespace impetus {

namespace {

/// Disjoint sets of trees, joined by contacts; the islands of the step. `storage` holds the parents.
struct TreeUnion {
  std::vector<int>& parent;
  TreeUnion(std::vector<int>& storage, int n) : parent(storage) {
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // smallest tree index is the root: deterministic
  }
};

int movable_tree(const WorldModel& model, int link) {
  if (link < 0) return -1;
  const int t = model.multibody.links[link].tree;
  return model.multibody.trees[t].nv > 0 ? t : -1;
}

/// A contact's friction: its pair's <contact>, else the ground's surface μ at the point (a height map's
/// cell, ContactPoint::mu), else <ground> or <physics>.
void pair_friction(const WorldModel& model, const ContactPoint& c, double& mu, double& mu_viscous) {
  const int link_a = c.link_a, link_b = c.link_b;
  for (const PairMaterial& m : model.pair_materials) {
    if ((m.link_a == link_a && m.link_b == link_b) || (m.link_a == link_b && m.link_b == link_a)) {
      mu = m.mu;
      mu_viscous = m.mu_viscous;
      return;
    }
  }
  const bool ground = link_a == kGround || link_b == kGround;
  mu = ground ? (std::isnan(c.mu) ? model.ground_mu : c.mu) : model.physics.mu;
  mu_viscous = ground ? model.ground_mu_viscous : model.physics.mu_viscous;
}

using LimitRow = AssemblyScratch::LimitRow;

/// scratch.soft: for each contact in an island, its share of its pair's spring–damper (the pair's k and b
/// over the number of the pair's points this step), rigid() for rigid pairs. Returns how many are soft.
int share_compliance(const WorldModel& model, const ContactSet& contacts, const std::vector<int>& contact_island,
                     AssemblyScratch& scratch) {
  scratch.soft.assign(contacts.size(), SurfaceCompliance{});
  auto& pairs = scratch.soft_pairs;
  pairs.clear();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (contact_island[i] < 0) continue;
    const ContactPoint& c = contacts[i];
    const SurfaceCompliance compliance = pair_compliance(model, c.link_a, c.link_b);
    if (compliance.rigid()) continue;
    scratch.soft[i] = compliance;
    pairs.push_back({{std::min(c.link_a, c.link_b), std::max(c.link_a, c.link_b)}, static_cast<int>(i)});
  }
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t begin = 0; begin < pairs.size();) {
    std::size_t end = begin + 1;
    while (end < pairs.size() && pairs[end].first == pairs[begin].first) ++end;
    const double points = static_cast<double>(end - begin);
    for (std::size_t j = begin; j < end; ++j) {
      SurfaceCompliance& share = scratch.soft[pairs[j].second];
      share.stiffness /= points;
      share.damping /= points;
    }
    begin = end;
  }
  return static_cast<int>(pairs.size());
}

}  // namespace

SurfaceCompliance pair_compliance(const WorldModel& model, int link_a, int link_b) {
  for (const PairMaterial& m : model.pair_materials)
    if (m.compliance && ((m.link_a == link_a && m.link_b == link_b) || (m.link_a == link_b && m.link_b == link_a)))
      return *m.compliance;
  return link_a == kGround || link_b == kGround ? model.ground_compliance : SurfaceCompliance{};
}

void tangent_basis(const Eigen::Vector3d& n, Eigen::Vector3d& t1, Eigen::Vector3d& t2) {
  const Eigen::Vector3d e = std::abs(n.x()) > M_SQRT1_2 ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitX();
  t1 = (e - n * n.dot(e)).normalized();
  t2 = n.cross(t1);
}

void fit_problem_sizes(AssemblyScratch::ProblemBuffers& parked, ContactProblem& P, ContactResult* R, Eigen::Index nv,
                       Eigen::Index nc, Eigen::Index nl) {
  parked.v.fit(P.v, nv, 1);
  parked.v_star.fit(P.v_star, nv, 1);
  parked.phi.fit(P.phi, nc, 1);
  parked.mu.fit(P.mu, nc, 1);
  parked.mu_viscous.fit(P.mu_viscous, nc, 1);
  parked.p_N_guess.fit(P.p_N_guess, nc, 1);
  parked.p_S_guess.fit(P.p_S_guess, nc, 1);
  parked.p_T_guess.fit(P.p_T_guess, nc, 1);
  parked.phi_L.fit(P.phi_L, nl, 1);
  parked.p_L_guess.fit(P.p_L_guess, nl, 1);
  parked.N.fit(P.N, nc, nv);
  parked.S.fit(P.S, nc, nv);
  parked.T.fit(P.T, nc, nv);
  parked.L.fit(P.L, nl, nv);
  if (R == nullptr) return;
  parked.v_plus.fit(R->v_plus, nv, 1);
  parked.p_N.fit(R->p_N, nc, 1);
  parked.p_S.fit(R->p_S, nc, 1);
  parked.p_T.fit(R->p_T, nc, 1);
  parked.p_L.fit(R->p_L, nl, 1);
}

namespace {

/// P's guesses p_N, p_S, p_T: the last step's impulses of its contacts' keys (zero for a key not held). A loop of
/// its own rather than a find per row among the rows' Jacobians: each find waits on two cache misses (the bucket,
/// then the node) and a 64-bit division, and finds one after another, independent of each other, overlap those
/// waits, where a find between two rows' Jacobians waited alone (perf of the granular pile's free fall, ~2300 keys:
/// the finds among the rows ~8 % of its step, in this loop ~2 %; issue 16). The same entries read into the same
/// slots: the same bits. Returns whether they are the bits P held (sim/assembly_repeat.hpp).
bool warm_start_guesses(const ImpulseMemory& previous, ContactProblem& P) {
  bool same = true;
  for (int r = 0; r < P.nc; ++r) {
    const auto it = previous.find(P.keys[r]);
    const Eigen::Vector3d guess = it != previous.end() ? it->second : Eigen::Vector3d::Zero();
    const double held[3] = {P.p_N_guess[r], P.p_S_guess[r], P.p_T_guess[r]};
    same = same && same_bits(held, guess.data(), 3);
    P.p_N_guess[r] = guess[0];
    P.p_S_guess[r] = guess[1];
    P.p_T_guess[r] = guess[2];
  }
  return same;
}

}  // namespace

bool coordinate_limits(const MultibodyModel& mb, const Link& link, double& lower, double& upper) {
  const Joint& j = link.joint;
  if (joint_nv(j.type) != 1) return false;
  const Tree& tree = mb.trees[link.tree];
  lower = j.lower;
  upper = j.upper;
  if (!tree.has_mimic()) return j.has_limits;
  // One pair of rows per independent coordinate, its joints' limits intersected.
  if (j.mimic >= 0) return false;
  const int c = tree.u_column[j.v_index - tree.v_offset];
  lower = tree.u_lower[c];
  upper = tree.u_upper[c];
  return std::isfinite(lower) || std::isfinite(upper);
}

int most_limit_rows(const MultibodyModel& mb, int tree) {
  int rows = 0;
  double lower = 0, upper = 0;
  for (const Link& link : mb.links)
    if (link.tree == tree && coordinate_limits(mb, link, lower, upper)) rows += 2;   // both within reach at speed
  return rows;
}

void reserve_problem_sizes(AssemblyScratch::ProblemBuffers& parked, Eigen::Index nv, Eigen::Index nc, Eigen::Index nl) {
  for (ParkedByCount<Eigen::VectorXd>* x : {&parked.v, &parked.v_star, &parked.v_plus}) x->reserve(nv, 1);
  for (ParkedByCount<Eigen::VectorXd>* x : {&parked.phi, &parked.mu, &parked.mu_viscous, &parked.p_N_guess,
                                            &parked.p_S_guess, &parked.p_T_guess, &parked.p_N, &parked.p_S, &parked.p_T})
    x->reserve(nc, 1);
  for (ParkedByCount<Eigen::VectorXd>* x : {&parked.phi_L, &parked.p_L_guess, &parked.p_L}) x->reserve(nl, 1);
  for (ParkedByCount<SparseRows>* x : {&parked.N, &parked.S, &parked.T}) x->reserve(nc, nv);
  parked.L.reserve(nl, nv);
}

void assemble_contact_problems(const WorldModel& model, const State& state, double dt, const ImpulseMemory& previous,
                               StepData& data, Compliance compliance) {
  const MultibodyModel& mb = model.multibody;
  const int num_trees = static_cast<int>(mb.trees.size());

  AssemblyScratch& scratch = data.assembly;
  // Joint limits within reach of this step.
  std::vector<LimitRow>& limits = scratch.limits;
  limits.clear();
  for (const Link& link : mb.links) {
    const Joint& j = link.joint;
    double lower = 0, upper = 0;
    if (!coordinate_limits(mb, link, lower, upper)) continue;
    const double q = state.q[j.q_index], reach = kLimitActivationDistance + std::abs(state.v[j.v_index]) * dt;
    if (q - lower < reach) limits.push_back({link.tree, j.v_index, +1.0, q - lower});
    if (upper - q < reach) limits.push_back({link.tree, j.v_index, -1.0, upper - q});
  }

  // Islands: trees joined by contacts; an island exists where there is a row to solve.
  TreeUnion sets(scratch.tree_parent, num_trees);
  for (const ContactPoint& c : data.contacts) {
    const int ta = movable_tree(model, c.link_a), tb = movable_tree(model, c.link_b);
    if (ta >= 0 && tb >= 0) sets.join(ta, tb);
  }
  std::vector<int>& island_of_root = scratch.island_of_root;
  island_of_root.assign(num_trees, -1);
  int num_islands = 0;
  auto island_of_tree = [&](int t) {
    const int r = sets.find(t);
    if (island_of_root[r] < 0) island_of_root[r] = num_islands++;
    return island_of_root[r];
  };
  // Islands are numbered in the order of their first contact; the contact order is deterministic.
  std::vector<int>& contact_island = scratch.contact_island;
  contact_island.assign(data.contacts.size(), -1);
  for (std::size_t i = 0; i < data.contacts.size(); ++i) {
    const ContactPoint& c = data.contacts[i];
    const int t = std::max(movable_tree(model, c.link_a), movable_tree(model, c.link_b));
    if (t >= 0) contact_island[i] = island_of_tree(t);
  }
  for (const LimitRow& l : limits) island_of_tree(l.tree);

  data.islands.resize(num_islands);
  data.problems.resize(num_islands);   // one per island, always
  // Grow-only (no allocation once warm); the sources past the islands are of problems now gone.
  if (static_cast<int>(scratch.rows_source.size()) < num_islands) scratch.rows_source.resize(num_islands);
  for (std::size_t k = num_islands; k < scratch.rows_source.size(); ++k) scratch.rows_source[k].held = false;
  data.problem_repeats.assign(num_islands, 0);
  for (Island& island : data.islands) {
    island.trees.clear();
    island.contacts.clear();
    island.limit_dofs.clear();
    island.limit_sign.clear();
  }
  for (int t = 0; t < num_trees; ++t) {
    if (mb.trees[t].nv == 0) continue;
    const int r = sets.find(t);
    if (island_of_root[r] >= 0) data.islands[island_of_root[r]].trees.push_back(t);
  }
  for (std::size_t i = 0; i < data.contacts.size(); ++i)
    if (contact_island[i] >= 0) data.islands[contact_island[i]].contacts.push_back(static_cast<int>(i));
  for (const LimitRow& l : limits) {
    Island& island = data.islands[island_of_root[sets.find(l.tree)]];
    island.limit_dofs.push_back(l.dof);
    island.limit_sign.push_back(l.sign);
  }

  // Soft contacts: one 1×1 block of M per contact, kept at a fixed address for the step's solves.
  const int num_soft = compliance == Compliance::Soft ? share_compliance(model, data.contacts, contact_island, scratch) : 0;
  if (compliance != Compliance::Soft) scratch.soft.assign(data.contacts.size(), SurfaceCompliance{});
  if (static_cast<int>(scratch.soft_M.size()) < num_soft) {
    scratch.soft_M.resize(num_soft, Eigen::MatrixXd::Zero(1, 1));
    scratch.soft_llt.resize(num_soft, Eigen::LLT<Eigen::MatrixXd>(1));
  }
  int soft_used = 0;

  data.t1.resize(data.contacts.size());
  data.t2.resize(data.contacts.size());
  std::vector<int>& column_of_tree = scratch.column_of_tree;
  column_of_tree.assign(num_trees, -1);
  std::vector<ContactRowsEntry>& entries = scratch.rows;
  std::vector<Eigen::Triplet<double>>& tL = scratch.L;

  for (int k = 0; k < num_islands; ++k) {
    const Island& island = data.islands[k];
    ContactProblem& P = data.problems[k];
    if (rows_repeat(model, data, k, dt)) {   // sim/assembly_repeat.hpp
      const bool same_velocities = refresh_velocities(model, state, data, k);
      const bool same_guesses = warm_start_guesses(previous, P);
      data.problem_repeats[k] = same_velocities && same_guesses;
      continue;
    }
    P.dt = dt;
    P.touch_margin = model.collision.margin;
    P.systems.clear();
    int nv = 0;
    for (int t : island.trees) {
      column_of_tree[t] = nv;
      P.systems.push_back({nv, mb.trees[t].nu, &data.M_eff[t], &data.M_llt[t]});
      nv += mb.trees[t].nu;
    }
    const int nc = static_cast<int>(island.contacts.size());
    int island_soft = 0;   // the soft contacts' coordinates w follow the trees' (w = w* = 0)
    for (int ci : island.contacts) island_soft += scratch.soft[ci].rigid() ? 0 : 1;
    const int nv_trees = nv;
    nv += island_soft;
    fit_problem_sizes(scratch.parked, P, k < static_cast<int>(data.results.size()) ? &data.results[k] : nullptr,
                      nv, nc, static_cast<Eigen::Index>(island.limit_dofs.size()));
    P.nv = nv;
    P.v.resize(nv);
    P.v_star.resize(nv);
    // Velocities in the independent coordinates u (dynamics/mimic.hpp; u = v without mimic joints).
    for (int t : island.trees) {
      const Tree& tree = mb.trees[t];
      gather_independent(tree, state.v.segment(tree.v_offset, tree.nv), P.v.segment(column_of_tree[t], tree.nu));
      gather_independent(tree, data.v_star.segment(tree.v_offset, tree.nv), P.v_star.segment(column_of_tree[t], tree.nu));
    }
    P.v.tail(island_soft).setZero();
    P.v_star.tail(island_soft).setZero();

    // Contact rows.
    int w = nv_trees;   // the next soft contact's column
    P.nc = nc;
    P.phi.resize(nc);
    P.mu.resize(nc);
    P.mu_viscous.resize(nc);
    P.keys.resize(nc);
    P.p_N_guess.setZero(nc);
    P.p_S_guess.setZero(nc);
    P.p_T_guess.setZero(nc);
    entries.clear();
    for (int r = 0; r < nc; ++r) {
      const int ci = island.contacts[r];
      const ContactPoint& c = data.contacts[ci];
      Eigen::Vector3d& t1 = data.t1[ci];
      Eigen::Vector3d& t2 = data.t2[ci];
      tangent_basis(c.n_W, t1, t2);
      // Rows J·G (dynamics/mimic.hpp (2)): a mimic dof's column goes to its leader's, times its gain.
      auto add_link = [&](int link, double sign) {
        if (movable_tree(model, link) < 0) return;
        const Tree& tree = mb.trees[mb.links[link].tree];
        const int base = column_of_tree[mb.links[link].tree];
        for_each_point_jacobian_column(mb, data.multibody, link, c.p_W, [&](int gk, const Eigen::Vector3d& col) {
          const int k = gk - tree.v_offset, u = base + tree.u_column[k];
          const double g = sign * tree.u_gain[k];
          entries.push_back({r, u, g * c.n_W.dot(col), g * t1.dot(col), g * t2.dot(col), false});
        });
      };
      add_link(c.link_a, +1.0);
      add_link(c.link_b, -1.0);  // same link on both sides (self-contact) sums to the relative Jacobian
      if (const SurfaceCompliance& soft = scratch.soft[ci]; !soft.rigid()) {   // (C3): N_i v⁺ + R_i p_N,i ≥ −φ̃_i/dt
        const SoftRow row = soft_row(soft.stiffness, soft.damping, dt);
        Eigen::MatrixXd& M_w = scratch.soft_M[soft_used];
        M_w(0, 0) = row.mass;
        scratch.soft_llt[soft_used].compute(M_w);
        P.systems.push_back({w, 1, &M_w, &scratch.soft_llt[soft_used]});
        ++soft_used;
        entries.push_back({r, w++, 1.0, 0.0, 0.0, true});   // N's alone
        P.phi[r] = soft_gap(c.phi, row);
      } else {
        P.phi[r] = std::max(c.phi, 0.0);   // (R1) of sim/penetration_recovery.hpp: no push-out at −φ/dt
      }
      pair_friction(model, c, P.mu[r], P.mu_viscous[r]);
      P.keys[r] = {c.geom_a, c.geom_b, c.feature};
    }
    warm_start_guesses(previous, P);
    set_contact_rows_from_row_ordered_entries(P.N, P.S, P.T, nc, nv, entries);

    // Joint-limit rows.
    const int nl = static_cast<int>(island.limit_dofs.size());
    P.nl = nl;
    P.phi_L.resize(nl);
    P.p_L_guess.setZero(nl);
    tL.clear();
    for (int r = 0; r < nl; ++r) {
      const int dof = island.limit_dofs[r];
      const int t = [&] {
        for (int tt : island.trees)
          if (dof >= mb.trees[tt].v_offset && dof < mb.trees[tt].v_offset + mb.trees[tt].nv) return tt;
        return -1;
      }();
      const int k = dof - mb.trees[t].v_offset;
      tL.emplace_back(r, column_of_tree[t] + mb.trees[t].u_column[k], island.limit_sign[r] * mb.trees[t].u_gain[k]);
    }
    int r = 0;
    for (const LimitRow& l : limits)
      if (island_of_root[sets.find(l.tree)] == k) P.phi_L[r++] = std::max(l.phi, 0.0);  // see project_onto_joint_limits
    set_from_row_ordered_triplets(P.L, nl, nv, tL);
    hold_rows_source(model, data, k);

    for (int t : island.trees) column_of_tree[t] = -1;
  }
}

}  // namespace impetus
