// The only place that names every contact model.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "contact/contact_model.hpp"

namespace impetus {

struct ContactModelInfo {
  std::string name;
  std::string summary;      // one line for `impetus models`
  ProblemNeeds needs;       // what it needs from the collision and assembly stages
};

/// Every registered model, in a fixed order.
const std::vector<ContactModelInfo>& contact_models();
bool is_contact_model(const std::string& name);
/// The registry's entry of `name`; throws OptionError for an unknown name.
const ContactModelInfo& contact_model_info(const std::string& name);
/// Builds a model with its options; throws OptionError for an unknown name or option.
std::unique_ptr<ContactModel> make_contact_model(const std::string& name, const ModelOptions& options);

}  // namespace impetus
