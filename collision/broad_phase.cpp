// Sort and sweep (broad_phase.hpp).
#include "collision/broad_phase.hpp"

#include <algorithm>
#include <cstddef>

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace impetus {
namespace {

/// Insertion sort's budget of moves per entry before it hands over to std::sort: a coherent step moves a few
/// entries by a few places; a new axis or a scene thrown about would cost insertion sort O(n²).
constexpr std::size_t kMovesPerEntry = 8;

/// The axis along which the boxes' centres spread most (largest variance): the fewest boxes share an interval
/// there. Any axis gives the same pairs; this one gives the fewest tests on the other two.
int widest_axis(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& geometries) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero(), sum_sq = Eigen::Vector3d::Zero();
  for (int g : geometries) {
    const Eigen::Vector3d c = boxes[g].min() + boxes[g].max();   // twice the centre: the scale does not matter
    sum += c;
    sum_sq += c.cwiseProduct(c);
  }
  const double n = static_cast<double>(geometries.size());
  const Eigen::Vector3d spread = n * sum_sq - sum.cwiseProduct(sum);   // n² times the variance
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (spread[k] > spread[axis]) axis = k;
  return axis;
}

/// Whether two boxes overlap (closed) on the two axes across the sweep: f_lo1 ≤ e_hi1, e_lo1 ≤ f_hi1, and the same on
/// the other, as rest = (f_lo1, −f_hi1, f_lo2, −f_hi2) ≤ key = (e_hi1, −e_lo1, e_hi2, −e_lo2) entry by entry (negation
/// is exact, so each comparison is the one it replaces): four comparisons in one instruction and one branch, where
/// four branches mispredicted (a third of the sweep's time).
inline bool overlap_across(const Eigen::Vector4d& rest, const Eigen::Vector4d& key) {
#if defined(__AVX__)
  const __m256d le = _mm256_cmp_pd(_mm256_loadu_pd(rest.data()), _mm256_loadu_pd(key.data()), _CMP_LE_OQ);
  return _mm256_movemask_pd(le) == 0xf;
#else
  return (rest[0] <= key[0]) & (rest[1] <= key[1]) & (rest[2] <= key[2]) & (rest[3] <= key[3]);
#endif
}

}  // namespace

void SweepAndPrune::load(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& geometries,
                         const std::vector<char>& movable) {
  const int axis = widest_axis(boxes, geometries);
  // The last call's entries, in their sorted order, when they are of the same geometries along the same axis
  // (a subset test that costs n: the membership is the same when the counts are and each is still listed).
  bool same = axis == axis_ && entries_.size() == geometries.size();
  if (same) {
    member_.assign(boxes.size(), 0);
    for (int g : geometries) member_[g] = 1;
    for (const Entry& e : entries_) same = same && member_[e.geometry];
  }
  if (!same) {
    entries_.resize(geometries.size());
    for (std::size_t i = 0; i < geometries.size(); ++i) entries_[i].geometry = geometries[i];
  }
  axis_ = axis;
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  for (Entry& e : entries_) {
    const Eigen::AlignedBox3d& b = boxes[e.geometry];
    e.lo = b.min()[axis];
    e.hi = b.max()[axis];
    e.lo1 = b.min()[a1];
    e.hi1 = b.max()[a1];
    e.lo2 = b.min()[a2];
    e.hi2 = b.max()[a2];
    e.movable = movable[e.geometry] != 0;
  }
}

void SweepAndPrune::sort_entries() {
  const auto before = [](const Entry& x, const Entry& y) { return x.lo < y.lo; };
  std::size_t budget = kMovesPerEntry * entries_.size();
  for (std::size_t i = 1; i < entries_.size(); ++i) {
    const Entry e = entries_[i];
    std::size_t j = i;
    for (; j > 0 && before(e, entries_[j - 1]) && budget > 0; --j, --budget) entries_[j] = entries_[j - 1];
    entries_[j] = e;
    if (budget == 0) {
      std::sort(entries_.begin(), entries_.end(), before);
      return;
    }
  }
}

void SweepAndPrune::sort_pairs(std::vector<PairKey>& pairs, int geometries) {
  // By the first geometry (a counting sort), then by the second within each first's few pairs (insertion sort:
  // the only inversions left are within a first's pairs).
  start_.assign(geometries + 1, 0);
  for (PairKey k : found_) ++start_[first_of(k) + 1];
  for (int g = 0; g < geometries; ++g) start_[g + 1] += start_[g];
  pairs.resize(found_.size());
  for (PairKey k : found_) pairs[start_[first_of(k)]++] = k;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    const PairKey k = pairs[i];
    std::size_t j = i;
    for (; j > 0 && k < pairs[j - 1]; --j) pairs[j] = pairs[j - 1];
    pairs[j] = k;
  }
}

void SweepAndPrune::overlapping_pairs(const std::vector<Eigen::AlignedBox3d>& boxes, const std::vector<int>& geometries,
                                      const std::vector<char>& movable, std::vector<PairKey>& pairs) {
  load(boxes, geometries, movable);
  sort_entries();
  // The sweep reads the sorted entries as arrays: the lower ends along the axis, and the rest four to an entry.
  const std::size_t n = entries_.size();
  lo_.resize(n);
  rest_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Entry& e = entries_[i];
    lo_[i] = e.lo;
    rest_[i] = {e.lo1, -e.hi1, e.lo2, -e.hi2};
  }
  found_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const Entry& e = entries_[i];
    // Sorted by lo: a later box overlaps e along the axis exactly while its lo is at most e's hi (closed). The
    // other two axes' test is one branch, rarely taken: most boxes met along the axis are apart on another
    // (layers of a lattice, ~100 boxes apiece in the granular pile).
    const Eigen::Vector4d key(e.hi1, -e.lo1, e.hi2, -e.lo2);
    for (std::size_t j = i + 1; j < n && lo_[j] <= e.hi; ++j) {
      if (overlap_across(rest_[j], key) && (e.movable || entries_[j].movable)) {
        const int a = e.geometry, b = entries_[j].geometry;
        found_.push_back(a < b ? pair_key(a, b) : pair_key(b, a));
      }
    }
  }
  sort_pairs(pairs, static_cast<int>(boxes.size()));
}

}  // namespace impetus
