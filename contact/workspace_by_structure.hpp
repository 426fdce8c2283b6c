// Buffers kept per island structure, for the models whose solves size their buffers to the island
// (max_dissipation's interior point and its KKT analysis, the ECP's Newton system).
//
// One workspace serves a chunk of islands in turn (sim/stepper.hpp). Under a model whose buffers are
// Eigen vectors and matrices sized to the problem, every change of size between two islands reallocates
// them, and a KKT pattern that changes is analysed again (ordering, elimination tree, supernodes:
// allocations and most of a small island's solve). Keeping one set of buffers per island structure
// instead, each set only ever meets the sizes and the pattern of its own islands, so once every
// structure of the chunk has been met the solves allocate nothing, and a resting island keeps its
// analysis whatever islands are solved between two of its steps.
//
// The structure is a hash of what sizes a solve: the velocity blocks, the contact and limit rows'
// column patterns and whether each contact has friction (island_structure). It only chooses which
// buffers serve a solve: a solve's result never depends on what its buffers hold (ContactModel::solve),
// so two structures sharing a hash, or a structure whose sizes also depend on values (max_dissipation's
// phase II leaves out rows that cannot bind, MD10), cost reallocations, never a different answer.
//
// At most kMaxStructures sets are kept; past that the least recently used set serves the new structure
// (its buffers are resized: allocations, as with a single set). Of the sets of large islands (more than
// kLargeRows contact and limit rows) at most kMaxLargeStructures are kept: a pile whose contact graph changes
// at every step never meets a structure again, and sixteen of its sets held ~45 MB each for nothing
// (granular's landing under max_dissipation: 811 MB after 20 steps, most of it KKT factors and analyses never
// read again, issue 16). A new large structure takes the large set used longest ago, whose buffers, of
// nearly its sizes, are then reused instead of fresh pages.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "contact/parked_by_count.hpp"
#include "contact/problem.hpp"

namespace impetus {

/// A hash of the structure of an island's problem: nv and its system blocks, nc and nl, the column
/// patterns of N, S, T and L, and per contact whether μ > 0 and μ_v > 0.
std::uint64_t island_structure(const ContactProblem& problem);

/// Mixes `value` into the hash `h` (for a model that adds structure of its own, e.g. the ECP's pairs).
inline std::uint64_t mix_structure(std::uint64_t h, std::uint64_t value) {
  // FNV-1a over the value's eight bytes.
  constexpr std::uint64_t kPrime = 1099511628211ull;
  for (int byte = 0; byte < 8; ++byte) {
    h ^= (value >> (8 * byte)) & 0xff;
    h *= kPrime;
  }
  return h;
}
constexpr std::uint64_t kStructureSeed = 14695981039346656037ull;   // FNV-1a's offset basis

/// Sets of Buffers (constructed from Options) by island structure.
template <class Buffers, class Options>
class ByStructure {
 public:
  /// Sixteen: more than the distinct island structures of one chunk of the shipped scenes at rest (the
  /// islands test scene has five islands; a thousand resting spheres have one structure); of them at most
  /// kMaxLargeStructures large ones.
  static constexpr int kMaxStructures = 16;
  /// An island of more rows than this is large: where ParkedByCount stops keeping every count (beyond it a
  /// set's buffers are megabytes, and the solve dwarfs a reallocation).
  static constexpr int kLargeRows = static_cast<int>(ParkedByCount<Eigen::VectorXd>::kReservedCounts);
  /// Large sets kept at most: a few large islands solved in turn by one chunk each keep their own.
  static constexpr int kMaxLargeStructures = 4;

  explicit ByStructure(const Options& options) : options_(options) {}

  /// The buffers of islands of structure `key`, whose problems have `rows` contact and limit rows (nc + nl).
  Buffers& operator()(std::uint64_t key, int rows) {
    ++clock_;
    const bool large = rows > kLargeRows;
    Entry* oldest = nullptr;         // of all sets
    Entry* oldest_large = nullptr;   // of the large ones
    int large_sets = 0;
    for (Entry& e : entries_) {
      if (e.key == key) {
        e.used = clock_;
        return *e.buffers;
      }
      if (oldest == nullptr || e.used < oldest->used) oldest = &e;
      if (e.large) {
        ++large_sets;
        if (oldest_large == nullptr || e.used < oldest_large->used) oldest_large = &e;
      }
    }
    Entry* taken = large && large_sets >= kMaxLargeStructures ? oldest_large : nullptr;
    if (taken == nullptr && static_cast<int>(entries_.size()) < kMaxStructures) {
      if (entries_.capacity() == 0) entries_.reserve(kMaxStructures);   // entries never move: one allocation
      entries_.push_back(Entry{key, clock_, large, std::make_unique<Buffers>(options_)});
      return *entries_.back().buffers;
    }
    if (taken == nullptr) taken = oldest;
    taken->key = key;
    taken->used = clock_;
    taken->large = large;
    return *taken->buffers;
  }

  int size() const { return static_cast<int>(entries_.size()); }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint64_t used = 0;   // clock_ at its last use
    bool large = false;       // its structure's rows > kLargeRows
    std::unique_ptr<Buffers> buffers;
  };
  Options options_;
  std::vector<Entry> entries_;
  std::uint64_t clock_ = 0;
};

}  // namespace impetus
