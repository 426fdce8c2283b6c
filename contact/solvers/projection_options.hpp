// Options shared by the no-slip and viscous models (scene: <physics><no_slip …/> / <viscous …/>),
// and the parsing of their string values.
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
};

/// Consumes `key` if it is an option of ProjectionOptions; false when the key is not one of them.
/// Throws OptionError (naming `model`, the key and the value) for a bad value.
bool parse_projection_option(const std::string& model, const std::string& key, const std::string& value,
                             ProjectionOptions& options);

/// Value parsers: the whole string must be the value. Throw OptionError naming model and key.
double parse_double_option(const std::string& model, const std::string& key, const std::string& value);
int parse_int_option(const std::string& model, const std::string& key, const std::string& value);
bool parse_bool_option(const std::string& model, const std::string& key, const std::string& value);

}  // namespace impetus
