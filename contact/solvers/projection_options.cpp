#include "contact/solvers/projection_options.hpp"

#include <limits>

namespace impetus {

ProjectionOptions ProjectionOptions::parse(OptionReader& read) {
  constexpr auto open = OptionReader::Lower::Open;
  ProjectionOptions o;
  o.solver = read.choice("solver", o.solver,
                         {{"principal_pivoting", ProjectionSolver::PrincipalPivoting}, {"lemke", ProjectionSolver::Lemke}});
  o.warm_start = read.boolean("warm_start", o.warm_start);
  o.pivoting.max_pivots = read.integer("max_pivots", o.pivoting.max_pivots, 0, std::numeric_limits<int>::max());
  o.pivoting.zero_tolerance = read.real("zero_tolerance", o.pivoting.zero_tolerance, 0, 1e-3, open);
  o.pivoting.dependence_tolerance = read.real("dependence_tolerance", o.pivoting.dependence_tolerance, 0, 0.5, open);
  o.certificate_tolerance = read.real("certificate_tolerance", o.certificate_tolerance, 0, 1e-3, open);
  return o;
}

}  // namespace impetus
