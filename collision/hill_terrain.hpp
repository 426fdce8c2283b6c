// The rough terrain of seed 004's height-map runs (§7.1, notes 004 §3.3), after the authors' heightmap.m:
// a square grid of `size` metres at `cell` resolution, centred on the origin, whose heights are a sum of
// `hills` Gaussian hills
//   z(x) = Σ_k exp(−|x − c_k|² / (2 s_k)),   c_k uniform over the map,  s_k = variance·(1 + spread·(2u_k − 1))
// (isotropic covariance s_k·I; spread 0.5: the "50 % width variability"), shifted and scaled so that the
// lowest node is at 0 and the highest at max_height: bumps of at most max_height (3 cm). Each cell's Coulomb
// μ is uniform in [mu_min, mu_max] (U(0.1, 1.5) in the paper; how the authors laid it out over space is
// not known, so independently per cell). Every number is drawn from one seeded splitmix64 stream (hills
// first, then cells row by row), so a seed gives the same terrain on every machine. Hills are summed to
// 6 standard deviations, beyond which a hill adds less than 1.5e-8 of its height.
#pragma once

#include <cstdint>

#include "collision/height_field.hpp"

namespace impetus {

struct HillTerrainParameters {
  double size = 3.0;             // m, each side
  double cell = 0.02;            // m
  int hills = 1000;
  double variance = 0.005;       // m² (the hills' covariance diagonal)
  double spread = 0.5;           // relative spread of the variance
  double max_height = 0.03;      // m
  double mu_min = 0.1, mu_max = 1.5;
  std::uint64_t seed = 1;
};

/// Throws std::invalid_argument for a size that is not a whole number of cells (to 1e-9), non-positive
/// sizes, counts or heights, spread outside [0, 1), or mu_min > mu_max or < 0.
HeightField make_hill_terrain(const HillTerrainParameters& parameters);

}  // namespace impetus
