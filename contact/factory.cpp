// The registry of contact models: the one place that names them all (STYLE.md 6).
//
// Adding a model is one line in kRegistry below, e.g.
//       {{"no_slip", "one line for `impetus models`"}, &NoSlipModel::create},
// (plus its #include): the name as written in scenes and --model, the summary `impetus models`
// prints, optionally what it needs from the collision and assembly stages beyond the point rows
// (ProblemNeeds, contact/contact_model.hpp; the stepper reads it from here), and the function that builds it from the scene's options — by convention the model's
// static `create(const ModelOptions&)`, which parses its options struct and throws OptionError for
// an unknown option or a bad value (contact/model_options.hpp does the parsing).
#include "contact/factory.hpp"

#include "contact/ecp/ecp_model.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/viscous/viscous_model.hpp"

namespace impetus {
namespace {

using Create = std::unique_ptr<ContactModel> (*)(const ModelOptions&);

struct Registration {
  ContactModelInfo info;
  Create create;
};

// In the order of DESIGN.md; `impetus models` lists them in this order.
const std::vector<Registration>& registry() {
  static const std::vector<Registration> kRegistry = {
      {{"stewart_trinkle", "velocity-level LCP with a k-edge friction pyramid (Stewart-Trinkle / Anitescu-Potra), Lemke", {}},
       &StewartTrinkleModel::create},
      {{"no_slip", "no slip at any contact (seed 000), velocity level; normal LCP by principal pivoting", {}},
       &NoSlipModel::create},
      {{"viscous", "purely viscous friction (seed 000), implicit; normal LCP by principal pivoting", {}},
       &ViscousModel::create},
      {{"max_dissipation", "maximum dissipation (seed 002): frictionless QP, then least kinetic energy in the friction cone under a normal-impulse budget; interior point", {}},
       &MaxDissipationModel::create},
      {{"ecp", "equivalent contact point of a body's convex hull on a plane (seed 003), geometrically implicit; semismooth Newton",
        {.hull_plane_pairs = true}},
       &EcpModel::create},
  };
  return kRegistry;
}

const Registration* find(const std::string& name) {
  for (const Registration& r : registry())
    if (r.info.name == name) return &r;
  return nullptr;
}

}  // namespace

const std::vector<ContactModelInfo>& contact_models() {
  static const std::vector<ContactModelInfo> infos = [] {
    std::vector<ContactModelInfo> out;
    for (const Registration& r : registry()) out.push_back(r.info);
    return out;
  }();
  return infos;
}

bool is_contact_model(const std::string& name) { return find(name) != nullptr; }

namespace {

const Registration& find_or_throw(const std::string& name) {
  const Registration* r = find(name);
  if (r == nullptr) {
    std::string known;
    for (const Registration& m : registry()) known += (known.empty() ? "" : ", ") + m.info.name;
    throw OptionError("unknown contact model '" + name + "' (known: " + known + ")");
  }
  return *r;
}

}  // namespace

const ContactModelInfo& contact_model_info(const std::string& name) { return find_or_throw(name).info; }

std::unique_ptr<ContactModel> make_contact_model(const std::string& name, const ModelOptions& options) {
  return find_or_throw(name).create(options);
}

}  // namespace impetus
