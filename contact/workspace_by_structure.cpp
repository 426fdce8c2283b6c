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

/// Four FNV-1a hashes side by side, word j of a stream into hash j mod 4, two indices to a word: one chain of
/// dependent multiplies, one per column index of N, S and T (~7000 rows of a dozen entries in the granular pile's
/// one island), was 2.3 % of its step (perf, issue 16); four independent chains over half as many words, 0.2 %.
struct FourLanes {
  std::uint64_t h[4];
  explicit FourLanes(std::uint64_t seed) : h{seed, seed + 1, seed + 2, seed + 3} {}
  /// Mixes the n `indices`, two to a word (the last with 0xffffffff when n is odd), word j into hash j mod 4.
  void mix_indices(const int* indices, Eigen::Index n) {
    const auto word = [&](Eigen::Index i) {
      const std::uint64_t lo = static_cast<std::uint32_t>(indices[i]);
      const std::uint64_t hi = i + 1 < n ? static_cast<std::uint32_t>(indices[i + 1]) : 0xffffffffull;
      return lo | hi << 32;
    };
    Eigen::Index i = 0;
    for (; i + 8 <= n; i += 8) {
      h[0] = mix_word(h[0], word(i));
      h[1] = mix_word(h[1], word(i + 2));
      h[2] = mix_word(h[2], word(i + 4));
      h[3] = mix_word(h[3], word(i + 6));
    }
    for (int lane = 0; i < n; i += 2, ++lane) h[lane] = mix_word(h[lane], word(i));
  }
  std::uint64_t joined(std::uint64_t into) const {
    for (std::uint64_t lane : h) into = mix_word(into, lane);
    return into;
  }
};

/// X's pattern: its rows, where each row starts among the stored entries (so (a | b c) and (a b | c) differ), and
/// the entries' columns. Compressed, as assembly leaves every SparseRows, these are X's outer and inner index
/// arrays; an uncompressed X is hashed as its compressed copy, so a pattern hashes alike either way.
std::uint64_t mix_pattern(std::uint64_t h, const SparseRows& X) {
  if (!X.isCompressed()) {
    SparseRows compressed = X;   // not met on the step's path: allocates
    compressed.makeCompressed();
    return mix_pattern(h, compressed);
  }
  h = mix_word(h, static_cast<std::uint64_t>(X.rows()));
  FourLanes lanes(h);
  lanes.mix_indices(X.outerIndexPtr(), X.rows() + 1);
  lanes.mix_indices(X.innerIndexPtr(), X.nonZeros());
  return lanes.joined(h);
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
