// The structure hash of an island's problem (workspace_by_structure.hpp).
#include "contact/workspace_by_structure.hpp"

namespace impetus {
namespace {

/// FNV-1a by whole words rather than bytes: a thousand one-contact islands are hashed every step, and the
/// byte-wise mix cost a third of max_dissipation's contact stage on spheres_rest1000 (one multiply per
/// byte); a weaker mix only makes a shared hash likelier, which costs reallocations, never bits.
std::uint64_t mix_word(std::uint64_t h, std::uint64_t value) {
  constexpr std::uint64_t kPrime = 1099511628211ull;
  return (h ^ value) * kPrime;
}

std::uint64_t mix_pattern(std::uint64_t h, const SparseRows& X) {
  h = mix_word(h, static_cast<std::uint64_t>(X.rows()));
  for (int i = 0; i < X.rows(); ++i) {
    h = mix_word(h, 0xffffffffull);   // row separator: (a | b c) and (a b | c) differ
    for (SparseRows::InnerIterator it(X, i); it; ++it) h = mix_word(h, static_cast<std::uint64_t>(it.col()));
  }
  return h;
}

}  // namespace

std::uint64_t island_structure(const ContactProblem& problem) {
  std::uint64_t h = kStructureSeed;
  h = mix_word(h, static_cast<std::uint64_t>(problem.nv));
  for (const SystemBlock& s : problem.systems) {
    h = mix_word(h, static_cast<std::uint64_t>(s.offset));
    h = mix_word(h, static_cast<std::uint64_t>(s.size));
  }
  h = mix_word(h, static_cast<std::uint64_t>(problem.nc));
  h = mix_word(h, static_cast<std::uint64_t>(problem.nl));
  h = mix_pattern(h, problem.N);
  h = mix_pattern(h, problem.S);
  h = mix_pattern(h, problem.T);
  h = mix_pattern(h, problem.L);
  for (int i = 0; i < problem.nc; ++i) {
    const bool friction = problem.mu.size() == problem.nc && problem.mu[i] > 0;
    const bool viscous = problem.mu_viscous.size() == problem.nc && problem.mu_viscous[i] > 0;
    h = mix_word(h, static_cast<std::uint64_t>(friction) | static_cast<std::uint64_t>(viscous) << 1);
  }
  return h;
}

}  // namespace impetus
