// One contact point of a geometry pair while the pair is being processed, before it becomes a
// ContactPoint (collision/contact_set.hpp), and the stable feature ids that name it.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace impetus {

/// Convention of contact_set.hpp: n_W unit from B towards A, φ > 0 apart, p_W midway between the
/// two surfaces.
struct PairContact {
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();
  double phi = 0;
  int feature = 0;
  double mu = std::numeric_limits<double>::quiet_NaN();   // the ground's μ at this point (a height map's
                                                          // cell); NaN: the pair's (ContactPoint::mu)
};

/// A feature id: a non-negative int that depends only on the integers that name the point's
/// origin (e.g. reference face, incident face, vertex or edge × side plane), so that the same
/// geometric feature gets the same id from step to step. Distinct tuples collide with probability
/// ~2⁻³⁰; collisions within one pair are resolved by ContactReducer::reduce().
inline int feature_id(std::initializer_list<int> parts) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int part : parts) {
    // splitmix64 finaliser over the running state xor the next part.
    h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(part)) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
  }
  return static_cast<int>(h >> 34);         // 30 bits: room to bump duplicates without overflow
}

}  // namespace impetus
