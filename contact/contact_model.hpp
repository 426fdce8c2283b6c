// The one interface every contact model implements (STYLE.md 6): an immutable ContactProblem in,
// v⁺, impulses and statistics out. A model sees neither the world, nor FCL, nor files.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "contact/problem.hpp"
#include "contact/result.hpp"

namespace impetus {

/// Attributes of the scene's <physics><MODEL …/> element, by name, as written.
using ModelOptions = std::map<std::string, std::string>;

/// What a model needs from the collision and assembly stages beyond the point-contact and joint-limit rows
/// every model receives. Declared in the model's factory entry (contact/factory.cpp); the stepper's assembly
/// stage (sim/assembly_stage.hpp) reads it there and never asks for a model by name. Each need comes in
/// ContactProblem::extension as a type of its own, and the model's answer in ContactResult::extension.
struct ProblemNeeds {
  /// Body–half-space pairs of the free polyhedral bodies' convex hulls against the ground, each standing for
  /// its body's ground point contacts (HullPlaneProblem and HullPlaneResult, contact/hull_plane.hpp; filled
  /// by sim/assembly_ecp.hpp). A model that asks for them is geometrically implicit: its result may carry q⁺.
  bool hull_plane_pairs = false;
};

/// A model's buffers for its solves, made by the model (ContactModel::make_workspace) and owned by the caller
/// — the stepper keeps one per run — so that the model itself is const: shareable, and usable from several
/// threads each with its own workspace (STYLE.md: no model object doubling as scratch space).
class ContactWorkspace {
 public:
  virtual ~ContactWorkspace() = default;
};

class ContactModel {
 public:
  virtual ~ContactModel() = default;
  virtual std::string_view name() const = 0;
  /// A workspace for solve(); its buffers grow to the problems solved with it (no allocation once warm).
  virtual std::unique_ptr<ContactWorkspace> make_workspace() const = 0;
  /// Solves one island with a workspace from this model's make_workspace(). The result depends only on the
  /// problem (warm starts come in through the problem), never on what the workspace solved before.
  virtual void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const = 0;
  /// One solve with a workspace of its own (tools and tests that solve once; allocates it).
  void solve(const ContactProblem& problem, ContactResult& result) const {
    const std::unique_ptr<ContactWorkspace> workspace = make_workspace();
    solve(problem, result, *workspace);
  }
};

/// Thrown by a factory when an option is unknown or out of range; the scene loader adds file and line.
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace impetus
