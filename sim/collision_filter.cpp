#include "sim/collision_filter.hpp"

#include <map>
#include <sstream>

namespace impetus {
namespace {

const char* policy_name(SelfCollision s) {
  switch (s) {
    case SelfCollision::Off: return "off";
    case SelfCollision::Filtered: return "filtered";
    case SelfCollision::On: return "on";
  }
  return "?";
}

const char* reason_text(FilteredPair::Reason r) {
  switch (r) {
    case FilteredPair::Reason::SelfCollisionOff: return "self_collision off";
    case FilteredPair::Reason::Adjacent: return "adjacent";
    case FilteredPair::Reason::InContactInitially: return "in contact at the initial configuration";
    case FilteredPair::Reason::InContactAtZero: return "in contact at the zero configuration";
    case FilteredPair::Reason::Excluded: return "<exclude>";
  }
  return "?";
}

std::string link_name(const WorldModel& model, int link) {
  return link < 0 ? "ground" : model.multibody.links[link].name;
}

/// The model a link belongs to: the part of its ID before '/', empty for a scene body.
std::string model_of(const WorldModel& model, int link) {
  if (link < 0) return "";
  const std::string& name = model.multibody.links[link].name;
  const std::size_t slash = name.find('/');
  return slash == std::string::npos ? "" : name.substr(0, slash);
}

}  // namespace

CollisionFilter collision_filter(const WorldModel& model) {
  CollisionFilter filter;
  const MultibodyModel& mb = model.multibody;
  const CollisionSettings& c = model.collision;
  for (std::size_t l = 0; l < mb.links.size(); ++l) {
    filter.link_parent.push_back(mb.links[l].parent);
    filter.link_movable.push_back(l < c.link_movable.size() ? bool(c.link_movable[l]) : mb.trees[mb.links[l].tree].nv > 0);
  }
  filter.link_body = c.link_body;
  filter.exclude_parent_child = c.exclude_parent_child;
  for (const FilteredPair& p : c.filtered) filter.excluded.push_back({p.link_a, p.link_b});
  for (const IncludedPair& p : c.included) filter.included.push_back({p.link_a, p.link_b});
  filter.margin = c.margin;
  filter.has_ground = model.has_ground;
  filter.terrain = model.terrain;
  return filter;
}

std::string describe_collision_pairs(const WorldModel& model) {
  std::ostringstream out;
  const CollisionSettings& c = model.collision;
  out << "collision: margin " << c.margin << " m; parent-child pairs "
      << (c.exclude_parent_child ? "not tested" : "tested") << '\n';

  std::string welded;
  int n_welded = 0;
  for (std::size_t l = 0; l < c.link_movable.size(); ++l)
    if (!c.link_movable[l]) {
      welded += (welded.empty() ? "" : ", ") + model.multibody.links[l].name;
      ++n_welded;
    }
  if (n_welded > 0)
    out << "  welded to the world, never tested against the ground or each other (" << n_welded << "): " << welded
        << '\n';

  std::map<std::string, std::vector<const FilteredPair*>> by_model;
  std::vector<const FilteredPair*> excluded;
  for (const FilteredPair& p : c.filtered) {
    if (p.reason == FilteredPair::Reason::Excluded) excluded.push_back(&p);
    else by_model[model_of(model, p.link_a)].push_back(&p);
  }
  for (const ModelCollision& m : c.models) {
    const std::vector<const FilteredPair*>& pairs = by_model[m.name];
    out << "  model '" << m.name << "': self_collision " << policy_name(m.self_collision) << ", " << pairs.size()
        << " link pair" << (pairs.size() == 1 ? "" : "s") << " not tested";
    if (m.self_collision == SelfCollision::Filtered) {
      out << (pairs.empty() ? "" : ":");
      for (const FilteredPair* p : pairs)
        out << "\n    " << link_name(model, p->link_a) << " - " << link_name(model, p->link_b) << ": "
            << reason_text(p->reason);
    }
    out << '\n';
  }
  for (const FilteredPair* p : excluded)
    out << "  <exclude> at line " << p->line << ": " << link_name(model, p->link_a) << " - "
        << link_name(model, p->link_b) << " not tested\n";
  for (const IncludedPair& p : c.included)
    out << "  <include> at line " << p.line << ": " << link_name(model, p.link_a) << " - "
        << link_name(model, p.link_b) << " tested\n";
  return out.str();
}

}  // namespace impetus
