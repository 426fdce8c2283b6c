// StewartTrinkleOptions from the scene's <physics><stewart_trinkle …/> attributes.
#include "contact/model_options.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {

StewartTrinkleOptions StewartTrinkleOptions::parse(const ModelOptions& options) {
  const StewartTrinkleOptions defaults;
  StewartTrinkleOptions o;
  OptionReader read("stewart_trinkle", options);
  o.friction_edges = read.integer("friction_edges", defaults.friction_edges, 4, 64);
  if (o.friction_edges % 2 != 0) read.fail("friction_edges", "expected an even integer in [4, 64]");
  o.max_pivots = read.integer("max_pivots", defaults.max_pivots, 0, 100'000'000);
  o.tolerance = read.real("tolerance", defaults.tolerance, 1e-14, 1e-2);
  o.regularization_min = read.real("regularization_min", defaults.regularization_min, 0, 1e-2);
  o.regularization_max = read.real("regularization_max", defaults.regularization_max, 0, 1e-2);
  o.regularization_growth = read.real("regularization_growth", defaults.regularization_growth, 1.5, 1e6);
  o.merge_tolerance = read.real("merge_tolerance", defaults.merge_tolerance, 0, 1e-3);
  o.warm_start = read.boolean("warm_start", defaults.warm_start);
  o.max_lemke_size = read.integer("max_lemke_size", defaults.max_lemke_size, 1, 1'000'000);
  o.pivot_budget = read.integer("pivot_budget", defaults.pivot_budget, 0, 1'000'000'000);
  o.sparse_iterations = read.integer("sparse_iterations", defaults.sparse_iterations, 0, 10'000);
  o.newton_size = read.integer("newton_size", defaults.newton_size, 0, 1'000'000);
  if (o.regularization_max > 0 && o.regularization_min > o.regularization_max)
    read.fail("regularization_min", "expected at most regularization_max (" + std::to_string(o.regularization_max) + ")");
  if (o.regularization_max > 0 && o.regularization_min <= 0)
    read.fail("regularization_min", "expected > 0 when regularization_max > 0");
  read.finish();
  return o;
}

LemkeOptions StewartTrinkleOptions::lemke() const {
  LemkeOptions l;
  l.max_pivots = max_pivots;
  l.tolerance = tolerance;
  l.regularization_min = regularization_min;
  l.regularization_max = regularization_max;
  l.regularization_growth = regularization_growth;
  return l;
}

}  // namespace impetus
