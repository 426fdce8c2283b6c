// Seeded hill terrain (hill_terrain.hpp).
#include "collision/hill_terrain.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace impetus {
namespace {

/// Vigna's splitmix64: a fixed, portable stream (the standard library's distributions are not).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1): the top 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

constexpr double kCutoffSigmas = 6;
constexpr double kWholeCells = 1e-9;   // size/cell within this of an integer counts as whole

}  // namespace

HeightField make_hill_terrain(const HillTerrainParameters& p) {
  if (!(p.size > 0) || !(p.cell > 0) || p.hills < 1 || !(p.variance > 0) || !(p.max_height > 0) ||
      !(p.spread >= 0 && p.spread < 1) || !(p.mu_min >= 0) || !(p.mu_max >= p.mu_min))
    throw std::invalid_argument("hill terrain: size, cell, hills, variance and max_height > 0, spread in [0, 1), "
                                "0 ≤ mu_min ≤ mu_max expected");
  const double cells = p.size / p.cell;
  const int n = static_cast<int>(std::lround(cells));
  if (std::abs(cells - n) > kWholeCells * cells || n < 1)
    throw std::invalid_argument("hill terrain: size must be a whole number of cells");
  const double x0 = -0.5 * p.size;
  SplitMix64 random(p.seed);
  std::vector<double> z((n + 1) * (n + 1), 0.0);
  for (int k = 0; k < p.hills; ++k) {
    const double cx = x0 + p.size * random.uniform(), cy = x0 + p.size * random.uniform();
    const double s = p.variance * (1 + p.spread * (2 * random.uniform() - 1));
    const double reach = kCutoffSigmas * std::sqrt(s);
    const int i0 = std::max(0, static_cast<int>(std::floor((cx - reach - x0) / p.cell)));
    const int i1 = std::min(n, static_cast<int>(std::ceil((cx + reach - x0) / p.cell)));
    const int j0 = std::max(0, static_cast<int>(std::floor((cy - reach - x0) / p.cell)));
    const int j1 = std::min(n, static_cast<int>(std::ceil((cy + reach - x0) / p.cell)));
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const double dx = x0 + i * p.cell - cx, dy = x0 + j * p.cell - cy;
        z[j * (n + 1) + i] += std::exp(-(dx * dx + dy * dy) / (2 * s));
      }
  }
  const auto [lo, hi] = std::minmax_element(z.begin(), z.end());
  const double z_min = *lo, range = *hi - *lo;
  for (double& h : z) h = range > 0 ? (h - z_min) / range * p.max_height : 0.0;
  std::vector<double> mu(n * n);
  for (double& m : mu) m = p.mu_min + (p.mu_max - p.mu_min) * random.uniform();
  return HeightField(Eigen::Vector2d(x0, x0), p.cell, n, n, std::move(z), std::move(mu));
}

}  // namespace impetus
