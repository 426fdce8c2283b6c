#include "sim/scene/scene_collision.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "collision/collision_shape.hpp"
#include "collision/pair_filter.hpp"
#include "dynamics/kinematics.hpp"
#include "dynamics/mimic.hpp"
#include "sim/collision_filter.hpp"
#include "base/load_error.hpp"

namespace impetus::scene {
namespace {

/// link_body and link_movable of every link, from the joints (links are in topological order).
void find_rigid_bodies(const MultibodyModel& mb, CollisionSettings& c) {
  const int n = static_cast<int>(mb.links.size());
  c.link_body.assign(n, -1);
  c.link_movable.assign(n, false);
  for (int l = 0; l < n; ++l) {
    const Link& link = mb.links[l];
    if (link.joint.type == JointType::Fixed) {
      c.link_body[l] = link.parent >= 0 ? c.link_body[link.parent] : l;
      c.link_movable[l] = link.parent >= 0 && c.link_movable[link.parent];
    } else {
      c.link_body[l] = l;
      c.link_movable[l] = true;
    }
  }
}

/// Link poses at configuration q.
std::vector<Eigen::Isometry3d> link_poses(const MultibodyModel& mb, const Eigen::VectorXd& q) {
  MultibodyData data(mb);
  forward_kinematics(mb, data, q, Eigen::VectorXd::Zero(mb.nv));
  return data.X_WL;
}

/// Link pairs of one model's geometries in contact (φ ≤ 0) at configuration q, as sorted keys.
std::set<std::uint64_t> pairs_in_contact(const WorldModel& model, const std::vector<Geometry>& geometries,
                                         const Eigen::VectorXd& q) {
  CollisionFilter filter = collision_filter(model);
  filter.exclude_parent_child = false;
  filter.excluded.clear();
  filter.included.clear();
  filter.has_ground = false;
  filter.margin = 0;
  CollisionDetector detector(geometries, filter);
  ContactSet contacts;
  detector.detect(link_poses(model.multibody, q), contacts);
  std::set<std::uint64_t> out;
  for (const ContactPoint& c : contacts)
    if (c.phi <= 0) out.insert(link_pair_key(c.link_a, c.link_b));
  return out;
}

/// One <model>'s filtered pairs under its policy.
void filter_model(const ModelCollision& policy, const std::vector<int>& links, const State& initial,
                  const std::vector<char>& has_geometry, WorldModel& model) {
  if (policy.self_collision == SelfCollision::On) return;
  CollisionSettings& c = model.collision;
  const MultibodyModel& mb = model.multibody;
  std::vector<int> geometric;                      // the model's links that carry geometry
  for (int l : links)
    if (l >= 0 && has_geometry[l]) geometric.push_back(l);
  const auto can_move_apart = [&](int a, int b) {
    return c.link_body[a] != c.link_body[b] && (c.link_movable[a] || c.link_movable[b]);
  };
  std::set<std::uint64_t> taken;
  const auto add = [&](int a, int b, FilteredPair::Reason reason) {
    if (!can_move_apart(a, b) || !taken.insert(link_pair_key(a, b)).second) return;
    c.filtered.push_back({std::min(a, b), std::max(a, b), reason, policy.line});
  };

  if (policy.self_collision == SelfCollision::Off) {
    for (std::size_t i = 0; i < geometric.size(); ++i)
      for (std::size_t j = i + 1; j < geometric.size(); ++j) add(geometric[i], geometric[j], FilteredPair::Reason::SelfCollisionOff);
    return;
  }

  // Adjacent: a link and the nearest link above it that carries geometry (links without geometry
  // are passed through, as MoveIt's adjacency does).
  for (int l : geometric)
    for (int p = mb.links[l].parent; p >= 0; p = mb.links[p].parent)
      if (has_geometry[p]) {
        add(l, p, FilteredPair::Reason::Adjacent);
        break;
      }

  // In contact at the initial and at the zero configuration.
  std::vector<Geometry> own;
  std::set<int> link_set(links.begin(), links.end());
  for (const Geometry& g : model.geometries)
    if (link_set.count(g.link)) own.push_back(g);
  Eigen::VectorXd q_zero = initial.q;
  for (const Link& link : mb.links)
    if (joint_nv(link.joint.type) == 1 && link_set.count(&link - mb.links.data()))
      q_zero[link.joint.q_index] = link.joint.has_limits ? std::clamp(0.0, link.joint.lower, link.joint.upper) : 0.0;
  enforce_mimic_positions(mb, q_zero);   // the zero configuration the coupling allows
  const std::pair<const Eigen::VectorXd*, FilteredPair::Reason> configurations[] = {
      {&initial.q, FilteredPair::Reason::InContactInitially}, {&q_zero, FilteredPair::Reason::InContactAtZero}};
  for (const auto& [q, reason] : configurations)
    for (std::uint64_t key : pairs_in_contact(model, own, *q)) {
      const int a = static_cast<int>(key >> 32) - 1, b = static_cast<int>(key & 0xffffffffu) - 1;
      add(a, b, reason);
    }
}

/// Reads the <exclude> and <include> elements.
void read_explicit_pairs(const xml::Element& root, WorldModel& model) {
  CollisionSettings& c = model.collision;
  std::map<std::uint64_t, std::pair<std::string, int>> seen;   // pair → element, line
  std::set<std::uint64_t> included;
  for (const xml::Element& e : root.children()) {
    const std::string tag(e.tag());
    if (tag != "exclude" && tag != "include") continue;
    e.allow_only({"a", "b"}, {});
    const auto link = [&](const char* attribute) {
      const std::string id = e.text(attribute);
      if (id == "ground") {
        if (!model.has_ground) e.fail_value(attribute, "a body ID (the scene has no <ground>)");
        return -1;
      }
      const int l = model.multibody.find_link(id);
      if (l < 0) e.fail_value(attribute, "a body ID: a <body> name, MODEL/LINK, or ground");
      return l;
    };
    const int a = link("a"), b = link("b");
    if (a == b) e.fail("a and b name the same body");
    const std::uint64_t key = link_pair_key(a, b);
    if (const auto [it, inserted] = seen.emplace(key, std::make_pair(tag, e.line())); !inserted)
      e.fail("this pair already has an <" + it->second.first + "> at line " + std::to_string(it->second.second));
    if (tag == "exclude") {
      c.filtered.push_back({std::min(a, b), std::max(a, b), FilteredPair::Reason::Excluded, e.line()});
      continue;
    }
    const bool a_moves = a >= 0 && c.link_movable[a], b_moves = b >= 0 && c.link_movable[b];
    if ((!a_moves && !b_moves) || (a >= 0 && b >= 0 && c.link_body[a] == c.link_body[b]))
      e.fail("'" + e.text("a") + "' and '" + e.text("b") +
             "' cannot move relative to each other (welded together or both to the world): they never touch");
    c.included.push_back({std::min(a, b), std::max(a, b), e.line()});
    included.insert(key);
  }
  // An <include> overrides a model's policy: its pair is no longer listed as filtered.
  std::erase_if(c.filtered, [&](const FilteredPair& p) {
    return p.reason != FilteredPair::Reason::Excluded && included.count(link_pair_key(p.link_a, p.link_b));
  });
}

}  // namespace

void check_geometries(SceneBuild& build) {
  std::vector<Geometry>& geometries = build.model.geometries;
  for (std::size_t i = 0; i < geometries.size(); ++i) {
    Geometry& g = geometries[i];
    try {
      prepare_shape_keeping_hull(g, static_cast<int>(i));
    } catch (const std::invalid_argument& e) {
      throw LoadError(g.file.empty() ? build.file : g.file, g.line, e.what());
    }
  }
}

void resolve_collision_pairs(const xml::Element& root, SceneBuild& build, const State& initial) {
  WorldModel& model = build.model;
  find_rigid_bodies(model.multibody, model.collision);
  std::vector<char> has_geometry(model.multibody.links.size(), 0);
  for (const Geometry& g : model.geometries) has_geometry[g.link] = 1;
  for (std::size_t m = 0; m < model.collision.models.size(); ++m)
    filter_model(model.collision.models[m], build.model_links[m], initial, has_geometry, model);
  read_explicit_pairs(root, model);
}

}  // namespace impetus::scene
