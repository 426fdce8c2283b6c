// <physics>, <ground> and <contact>: run settings, friction and compliance of the scene.
#include <set>

#include <cmath>
#include <optional>
#include <stdexcept>

#include "collision/hill_terrain.hpp"
#include "contact/factory.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_parts.hpp"

namespace impetus::scene {
namespace {

std::string model_names() {
  std::string out;
  for (const ContactModelInfo& info : contact_models()) out += (out.empty() ? "" : ", ") + info.name;
  return out;
}

/// make_contact_model is the judge of a model's options; its OptionError becomes a refusal here.
void check_model_options(const xml::Element& at, const std::string& name, const ModelOptions& options) {
  try {
    make_contact_model(name, options);
  } catch (const OptionError& e) {
    at.fail(e.what());  // the factory's message names the model, the option, expected and given
  }
}

}  // namespace

void read_physics(const xml::Element& physics, WorldModel& model) {
  physics.allow_attributes({"dt", "duration", "gravity", "contact_model", "mu", "mu_viscous"});  // children below
  PhysicsSettings& p = model.physics;
  p.dt = physics.positive_or("dt", p.dt);
  p.duration = physics.positive_or("duration", p.duration);
  model.multibody.gravity = physics.vector3_or("gravity", model.multibody.gravity);
  p.contact_model = physics.text_or("contact_model", p.contact_model);
  if (!is_contact_model(p.contact_model)) physics.fail_value("contact_model", "one of " + model_names());
  p.mu = physics.non_negative_or("mu", p.mu);
  p.mu_viscous = physics.non_negative_or("mu_viscous", p.mu_viscous);

  std::set<std::string> seen;
  for (const xml::Element& child : physics.children()) {
    const std::string tag(child.tag());
    if (!seen.insert(tag).second) child.fail("repeated inside <physics>");
    if (tag == "collision") {
      child.allow_only({"margin", "exclude_parent_child"}, {});
      model.collision.margin = child.non_negative_or("margin", model.collision.margin);
      model.collision.exclude_parent_child = child.boolean_or("exclude_parent_child", model.collision.exclude_parent_child);
      continue;
    }
    if (!is_contact_model(tag))
      child.fail("unknown element inside <physics> (known: collision, and the options of a contact model: " +
                 model_names() + ")");
    // Its attributes are the model's options, judged by the factory; it holds nothing else.
    if (const std::vector<xml::Element> inside = child.children(); !inside.empty())
      inside.front().fail("unknown element inside <" + tag + "> (a contact model's options are attributes)");
    ModelOptions options;
    for (const auto& [name, value] : child.attributes()) options[name] = value;
    check_model_options(child, tag, options);
    p.model_options[tag] = options;
  }
  if (!p.model_options.count(p.contact_model)) check_model_options(physics, p.contact_model, {});
}

namespace {

/// <ground><height_map …/>: seed 004's rough terrain (collision/hill_terrain.hpp), its defaults the paper's.
std::shared_ptr<const HeightField> read_height_map(const xml::Element& e) {
  e.allow_only({"size", "cell", "hills", "variance", "spread", "max_height", "mu_min", "mu_max", "seed"}, {});
  HillTerrainParameters p;
  p.size = e.positive_or("size", p.size);
  p.cell = e.positive_or("cell", p.cell);
  const double hills = e.positive_or("hills", p.hills);
  if (hills != std::floor(hills) || hills > 1e7) e.fail_value("hills", "a whole number of hills, 1 … 10⁷");
  p.hills = static_cast<int>(hills);
  p.variance = e.positive_or("variance", p.variance);
  p.spread = e.non_negative_or("spread", p.spread);
  if (p.spread >= 1) e.fail_value("spread", "a relative spread in [0, 1)");
  p.max_height = e.positive_or("max_height", p.max_height);
  p.mu_min = e.non_negative_or("mu_min", p.mu_min);
  p.mu_max = e.non_negative_or("mu_max", p.mu_max);
  if (p.mu_max < p.mu_min) e.fail_value("mu_max", "a value ≥ mu_min");
  const double seed = e.non_negative_or("seed", static_cast<double>(p.seed));
  if (seed != std::floor(seed) || seed > 9007199254740992.0) e.fail_value("seed", "a whole number 0 … 2⁵³");
  p.seed = static_cast<std::uint64_t>(seed);
  if (p.size / p.cell > 1e4) e.fail_value("cell", "at most 10⁴ cells across the map");
  try {
    return std::make_shared<const HeightField>(make_hill_terrain(p));
  } catch (const std::invalid_argument& error) {
    e.fail(error.what());
  }
}

/// stiffness (N/m, finite, > 0) and damping (N·s/m, ≥ 0, default 0) of a spring–damper surface
/// (contact/compliance.hpp); none when the element gives no stiffness.
std::optional<SurfaceCompliance> read_compliance(const xml::Element& e) {
  if (!e.has("stiffness")) {
    if (e.has("damping")) e.fail("damping needs a stiffness (a spring–damper surface: contact/compliance.hpp)");
    return std::nullopt;
  }
  return SurfaceCompliance{e.positive("stiffness"), e.non_negative_or("damping", 0.0)};
}

}  // namespace

void read_ground(const xml::Element& ground, WorldModel& model) {
  ground.allow_only({"mu", "mu_viscous", "stiffness", "damping"}, {"height_map"});
  model.has_ground = true;
  model.ground_mu = ground.non_negative_or("mu", model.physics.mu);
  model.ground_mu_viscous = ground.non_negative_or("mu_viscous", model.physics.mu_viscous);
  if (std::optional<SurfaceCompliance> compliance = read_compliance(ground)) model.ground_compliance = *compliance;
  if (const std::optional<xml::Element> map = ground.unique_child("height_map")) model.terrain = read_height_map(*map);
}

void read_contact(const xml::Element& contact, WorldModel& model) {
  contact.allow_only({"a", "b", "mu", "mu_viscous", "stiffness", "damping"}, {});
  const auto body = [&](const char* attribute) {
    const std::string id = contact.text(attribute);
    if (id == "ground") {
      if (!model.has_ground) contact.fail_value(attribute, "a body ID (the scene has no <ground>)");
      return -1;
    }
    const int link = model.multibody.find_link(id);
    if (link < 0) contact.fail_value(attribute, "a body ID: a <body> name, MODEL/LINK, or ground");
    return link;
  };
  PairMaterial pair;
  pair.link_a = body("a");
  pair.link_b = body("b");
  if (pair.link_a == pair.link_b) contact.fail("a and b name the same body");
  pair.mu = contact.non_negative_or("mu", model.physics.mu);
  pair.mu_viscous = contact.non_negative_or("mu_viscous", model.physics.mu_viscous);
  pair.compliance = read_compliance(contact);
  for (const PairMaterial& other : model.pair_materials)
    if ((other.link_a == pair.link_a && other.link_b == pair.link_b) ||
        (other.link_a == pair.link_b && other.link_b == pair.link_a))
      contact.fail("this pair already has a <contact>");
  model.pair_materials.push_back(pair);
}

}  // namespace impetus::scene
