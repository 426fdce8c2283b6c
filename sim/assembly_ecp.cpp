#include "sim/assembly_ecp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/convex_hull.hpp"
#include "sim/assembly.hpp"

namespace impetus {

namespace {

/// The ground's friction with `link` (a <contact a b> override, else <ground>'s).
double ground_mu(const WorldModel& model, int link) {
  for (const PairMaterial& m : model.pair_materials)
    if ((m.link_a == link && m.link_b == kGround) || (m.link_a == kGround && m.link_b == link)) return m.mu;
  return model.ground_mu;
}

/// A problem for an island of one free body and no contact rows (the general assembly makes none where
/// the collision stage found nothing, but an ECP body–plane pair needs one).
void make_single_body_problem(const WorldModel& model, const State& state, int tree_index, double dt,
                              StepData& data, ContactProblem& P) {
  const Tree& tree = model.multibody.trees[tree_index];
  P.dt = dt;
  P.systems.assign(1, SystemBlock{0, tree.nv, &data.M_eff[tree_index], &data.M_llt[tree_index]});
  P.nv = tree.nv;
  P.v = state.v.segment(tree.v_offset, tree.nv);
  P.v_star = data.v_star.segment(tree.v_offset, tree.nv);
  P.clear_rows(tree.nv);
}

}  // namespace

EcpBodyInfo make_ecp_body(const WorldModel& model, int link) {
  EcpBodyInfo info;
  info.link = link;
  const MultibodyModel& mb = model.multibody;
  const Link& L = mb.links[link];
  const Tree& tree = mb.trees[L.tree];
  if (tree.num_links != 1 || L.joint.type != JointType::Floating) {
    info.reason = "not a free body (a one-link tree on a floating joint)";
    return info;
  }
  if (!pair_compliance(model, link, kGround).rigid()) {   // seed 003's ECP is a rigid contact
    info.reason = "its ground is compliant: its point contacts carry the spring–damper (contact/compliance.hpp)";
    return info;
  }
  std::vector<Eigen::Vector3d> points;   // every vertex of the body's geometry, in L
  for (const Geometry& g : model.geometries) {
    if (g.link != link) continue;
    if (const Box* box = std::get_if<Box>(&g.shape)) {
      const Eigen::Vector3d h = 0.5 * box->size;
      for (int i = 0; i < 8; ++i)
        points.push_back(g.X_LG * Eigen::Vector3d((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                                                  (i & 4) ? h.z() : -h.z()));
    } else if (const Mesh* mesh = std::get_if<Mesh>(&g.shape)) {
      for (const Eigen::Vector3d& v : mesh->vertices) points.push_back(g.X_LG * v);
    } else {
      info.reason = std::string("has a curved geometry (") + shape_kind(g.shape) + "): its point contacts are kept";
      return info;
    }
  }
  if (points.empty()) {
    info.reason = "has no collision geometry";
    return info;
  }
  HullResult result = convex_hull(points);
  if (!result.hull) {
    info.reason = "its convex hull is degenerate: " + result.error;
    return info;
  }
  const Polytope& polytope = *result.hull;
  auto hull = std::make_shared<BodyHull>();
  const int nh = static_cast<int>(polytope.vertices.size()), m = static_cast<int>(polytope.faces.size());
  hull->vertices.resize(3, nh);
  for (int j = 0; j < nh; ++j) hull->vertices.col(j) = polytope.vertices[j];
  hull->normals.resize(3, m);
  hull->offsets.resize(m);
  hull->faces.resize(m);
  for (int i = 0; i < m; ++i) {
    hull->normals.col(i) = polytope.faces[i].normal;
    hull->offsets[i] = polytope.faces[i].offset;
    hull->faces[i] = polytope.faces[i].loop;
  }
  double diameter = 0;
  for (int a = 0; a < nh; ++a)
    for (int b = a + 1; b < nh; ++b) diameter = std::max(diameter, (hull->vertices.col(a) - hull->vertices.col(b)).norm());
  hull->diameter = diameter;
  info.hull = std::move(hull);
  return info;
}

EcpAssembly::EcpAssembly(const WorldModel& model) : model_(model) {
  const int nl = static_cast<int>(model.multibody.links.size());
  bodies_.reserve(nl);
  reach_radius_.assign(nl, 0.0);
  for (int link = 0; link < nl; ++link) {
    bodies_.push_back(make_ecp_body(model, link));
    if (const BodyHull* hull = bodies_.back().hull.get()) {
      const Eigen::Vector3d& p_LC = model.multibody.links[link].inertia.com;
      reach_radius_[link] = (hull->vertices.colwise() - p_LC).colwise().norm().maxCoeff();
    }
  }
}

void EcpAssembly::assemble(const State& state, double dt,
                           const std::unordered_map<int, BodyPlaneWarmStart>& previous, StepData& data) const {
  const MultibodyModel& mb = model_.multibody;
  // HullPlaneProblem::clear() without freeing: the pairs (their l_guess) go to spare_pairs_ for this step's
  // pairs, q keeps its storage and is emptied below where no pair needs it.
  spare_pairs_.clear();
  for (ContactProblem& P : data.problems) {
    HullPlaneProblem& H = P.extension.slot<HullPlaneProblem>();
    for (BodyPlanePair& pair : H.pairs) spare_pairs_.push_back(std::move(pair));
    H.pairs.clear();
    H.q_offsets.clear();
    H.replaced_by.clear();
  }
  const auto empty_unused_configurations = [&] {
    for (ContactProblem& P : data.problems) {
      HullPlaneProblem& H = P.extension.slot<HullPlaneProblem>();
      if (H.pairs.empty()) H.q.resize(0);
    }
  };
  // On a height map the ground is no plane: ECP bodies keep the collision stage's point contacts.
  if (!model_.has_ground || model_.terrain) return empty_unused_configurations();

  // Which ECP bodies take part, and in which island.
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ();   // the ground: n·x ≤ 0 is solid
  const double d = 0;
  Eigen::Vector3d t, o;
  tangent_basis(n, t, o);
  std::vector<std::pair<int, int>>& members = members_;   // (link, island)
  members.clear();
  for (int link = 0; link < static_cast<int>(bodies_.size()); ++link) {
    const BodyHull* hull = bodies_[link].hull.get();
    if (hull == nullptr) continue;
    const Tree& tree = mb.trees[mb.links[link].tree];
    const Eigen::Isometry3d& X_WL = data.multibody.X_WL[link];
    const Eigen::RowVector3d n_R = n.transpose() * X_WL.linear();
    double lowest_vertex = std::numeric_limits<double>::infinity();   // min over the vertices of (nᵀR) x_j
    for (Eigen::Index j = 0; j < hull->vertices.cols(); ++j)
      lowest_vertex = std::min(lowest_vertex, (n_R * hull->vertices.col(j)).value());
    const double lowest = lowest_vertex + n.dot(X_WL.translation()) - d;
    const Eigen::Matrix<double, 6, 1> v = state.v.segment<6>(tree.v_offset), v_star = data.v_star.segment<6>(tree.v_offset);
    const double speed = std::max(v.head<3>().norm(), v_star.head<3>().norm()) +
                         std::max(v.tail<3>().norm(), v_star.tail<3>().norm()) * reach_radius_[link];
    bool near = lowest <= model_.collision.margin + kReachSteps * dt * speed;
    for (const ContactPoint& c : data.contacts)
      if (c.link_a == link && c.link_b == kGround) near = true;
    if (!near) continue;

    int island = -1;
    for (int k = 0; k < static_cast<int>(data.islands.size()) && island < 0; ++k)
      for (int tr : data.islands[k].trees)
        if (tr == mb.links[link].tree) island = k;
    if (island < 0) {   // a body alone near the ground: an island of its own
      island = static_cast<int>(data.islands.size());
      Island fresh;
      fresh.trees = {mb.links[link].tree};
      data.islands.push_back(std::move(fresh));
      make_single_body_problem(model_, state, mb.links[link].tree, dt, data, data.problems.emplace_back());
    }
    members.emplace_back(link, island);
  }

  // The pairs, the island configurations and the replaced rows.
  for (auto [link, k] : members) {
    const Island& island = data.islands[k];
    const ContactProblem& P = data.problems[k];
    HullPlaneProblem& H = data.problems[k].extension.slot<HullPlaneProblem>();
    if (H.q_offsets.empty()) {
      H.q_offsets.push_back(0);
      for (int tr : island.trees) H.q_offsets.push_back(H.q_offsets.back() + mb.trees[tr].nq);
      H.q_offsets.resize(P.systems.size() + 1, H.q_offsets.back());   // soft contacts' w: no configuration
      H.q.resize(H.q_offsets.back());
      for (std::size_t i = 0; i < island.trees.size(); ++i) {
        const Tree& tree = mb.trees[island.trees[i]];
        H.q.segment(H.q_offsets[i], tree.nq) = state.q.segment(tree.q_offset, tree.nq);
      }
      H.replaced_by.assign(P.nc, -1);
    }
    const int system = static_cast<int>(std::find(island.trees.begin(), island.trees.end(), mb.links[link].tree) -
                                        island.trees.begin());
    BodyPlanePair pair;
    if (!spare_pairs_.empty()) {   // its l_guess storage
      pair = std::move(spare_pairs_.back());
      spare_pairs_.pop_back();
    }
    pair.body = link;
    pair.system = system;
    pair.p_LC = mb.links[link].inertia.com;
    pair.hull = bodies_[link].hull.get();
    pair.n_W = n;
    pair.d = d;
    pair.t_W = t;
    pair.o_W = o;
    pair.mu = ground_mu(model_, link);
    if (auto it = previous.find(link); it != previous.end()) {
      pair.has_guess = true;
      pair.a1_guess = it->second.a1_W;
      pair.l_guess = it->second.l;
      pair.p_guess = it->second.p;
      pair.sigma_guess = it->second.sigma;
    } else {   // a spare's guess must not stay: a default pair's fields
      pair.has_guess = false;
      pair.a1_guess.setZero();
      pair.l_guess.resize(0);
      pair.p_guess.setZero();
      pair.sigma_guess = 0;
    }
    const int index = static_cast<int>(H.pairs.size());
    H.pairs.push_back(std::move(pair));
    for (int r = 0; r < P.nc; ++r) {
      const ContactPoint& c = data.contacts[island.contacts[r]];
      if (c.link_a == link && c.link_b == kGround) {
        H.replaced_by[r] = index;
        data.replaced[island.contacts[r]] = 1;
      }
    }
  }
  empty_unused_configurations();
}

void EcpAssembly::remember(const std::vector<ContactResult>& results,
                           std::unordered_map<int, BodyPlaneWarmStart>& memory) const {
  // In place: a pair that persists keeps its node and its l's storage.
  std::erase_if(memory, [&](const auto& entry) {
    for (const ContactResult& result : results)
      if (const HullPlaneResult* solved = result.extension.find<HullPlaneResult>())
        for (const BodyPlaneSolution& s : solved->pairs)
          if (s.body == entry.first) return false;
    return true;
  });
  for (const ContactResult& result : results)
    if (const HullPlaneResult* solved = result.extension.find<HullPlaneResult>())
      for (const BodyPlaneSolution& s : solved->pairs) {
        BodyPlaneWarmStart& w = memory[s.body];
        w.a1_W = s.a1_W;
        w.l = s.l;   // same size as last step's: no reallocation
        w.p = Eigen::Vector4d(s.p_n, s.p_t, s.p_o, s.p_r);
        w.sigma = s.sigma;
      }
}

}  // namespace impetus
