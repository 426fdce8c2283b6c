// Options shared by the no-slip and viscous models (scene: <physics><no_slip …/> / <viscous …/>),
// read by the models' parse through the one OptionReader (contact/model_options.hpp).
//
//   attribute               type     default               meaning
//   ---------------------   ------   -------------------   ---------------------------------------------
//   solver                  string   principal_pivoting    principal_pivoting (Algorithm 1, Lemke as
//                                                          fallback) or lemke (the dense LCP, no fallback)
//   warm_start              bool     true                  start from the previous step's active set
//   max_pivots              int      0 (automatic)         PivotingOptions::max_pivots
//   zero_tolerance          double   1e-10                 PivotingOptions::zero_tolerance
//   dependence_tolerance    double   1e-12                 PivotingOptions::dependence_tolerance
//   certificate_tolerance   double   1e-9                  accept a result when ρ ≤ this (unilateral_projection.hpp)
#pragma once

#include <string>

#include "contact/contact_model.hpp"
#include "contact/model_options.hpp"
#include "contact/solvers/lemke.hpp"
#include "contact/solvers/principal_pivoting.hpp"

namespace impetus {

enum class ProjectionSolver { PrincipalPivoting, Lemke };

struct ProjectionOptions {
  ProjectionSolver solver = ProjectionSolver::PrincipalPivoting;
  bool warm_start = true;
  PivotingOptions pivoting;
  /// Dimensionless certificate ρ (unilateral_projection.hpp, UP2) under which a result is accepted;
  /// above it the principal pivoting result goes to the fallback. Default 1e-9: (PP2) leaves
  /// ρ ≤ τ₀ = 1e-10 plus roundoff, so only a failed solve exceeds it. Range (0, 1e-3].
  double certificate_tolerance = 1e-9;
  /// The fallback and the `lemke` solver; Lemke's own defaults (lemke.hpp), not settable from a scene.
  LemkeOptions lemke;

  /// Reads the attributes of the table above from a model's reader (which the model then finishes);
  /// throws OptionError for a bad value.
  static ProjectionOptions parse(OptionReader& read);
};

}  // namespace impetus
