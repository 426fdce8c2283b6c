// Reducing a pair's contact points to a small, non-redundant, stably named set.
//
// For a face contact (all points share the reference face's normal, collision/manifold.hpp M3) the
// gap φ is an affine function over the contact patch, so the corners of the patch carry all the
// information the contact stage needs (the support polygon and the extreme gaps); points inside it,
// or on the chord between two corners, are redundant rows of N. We keep the deepest point and the
// corners of the points' convex hull seen along the normal, and when there are more than
// kMaxContactsPerPair, drop the corners that span the least area first. Points of other contacts
// (a non-convex mesh's triangle pairs, with their own normals) are only capped in number, the same
// way.
#pragma once

#include <utility>
#include <vector>

#include "collision/pair_contact.hpp"

namespace impetus {

/// Most points reported for one geometry pair: four corners of a box face plus room for an
/// octagonal cylinder cap or a clipped polygon of two quadrilaterals (up to 8 corners).
constexpr int kMaxContactsPerPair = 8;

/// Points closer than this (m) are one point. Above the rounding of clipping the same corner
/// from two edges (~1e-15 m per metre of size), well below any contact patch a simulation resolves.
constexpr double kMergeDistance = 1e-7;

/// Points closer than this fraction of the pair's patch (the largest distance between its points)
/// are one point too: two boxes stacked with a 1 mrad twist clip each corner into two points
/// 0.5 mm apart, which would double the rows of N for a 1% change of the support polygon.
constexpr double kMergeRelative = 1e-2;

/// Of two merged points the deeper is kept, unless their gaps differ by less than this (m): then the
/// lower feature id, so that rounding does not switch ids from step to step.
constexpr double kMergeGapTie = 1e-9;

class ContactReducer {
 public:
  /// In place: merges points closer than kMergeDistance or kMergeRelative of the patch; for a face
  /// contact drops points inside the hull or within kMergeRelative of a chord; keeps at most
  /// kMaxContactsPerPair (the deepest and the hull corners spanning the most area); sorts by feature
  /// and makes feature ids unique within the pair (a duplicate is bumped to the next free id).
  /// Allocates nothing once its scratch has grown to the largest input.
  void reduce(std::vector<PairContact>& points);

  /// Step 1 of reduce, in place: each point in turn absorbs the later points within max(kMergeDistance,
  /// kMergeRelative · extent) of it, in order, taking the place of one it prefers (deeper by more than
  /// kMergeGapTie, else the lower feature id). Returns the extent: the largest distance between the
  /// input points. The result is that of the plain pairwise loops, at O(n log n) for spread points.
  double merge(std::vector<PairContact>& points);

 private:
  struct Projected { double x, y; int index; };
  std::vector<Projected> projected_;
  std::vector<Projected> hull_;
  std::vector<PairContact> kept_;
  std::vector<std::pair<double, int>> by_radius_, by_x_;
  std::vector<int> position_;   // of each input point in by_x_
  std::vector<char> absorbed_;

};

}  // namespace impetus
