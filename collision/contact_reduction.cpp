#include "collision/contact_reduction.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

namespace impetus {
namespace {

// Deeper first; equal gaps by feature id, so the choice does not depend on input order.
bool deeper(const PairContact& a, const PairContact& b) {
  return a.phi != b.phi ? a.phi < b.phi : a.feature < b.feature;
}

/// Normals equal within this are one normal: the points come from one face contact (M3).
constexpr double kSameNormal = 1e-9;

}  // namespace

void ContactReducer::reduce(std::vector<PairContact>& points) {
  // 1. Merge points that are one corner.
  // The largest distance, as the square root of the largest squared distance: √ is correctly rounded and
  // monotone, so this is the same number as the largest norm(), at one √ instead of one per pair.
  double extent_squared = 0;
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size(); ++j)
      extent_squared = std::max(extent_squared, (points[i].p_W - points[j].p_W).squaredNorm());
  const double extent = std::sqrt(extent_squared);
  const double merge = std::max(kMergeDistance, kMergeRelative * extent);
  auto preferred = [](const PairContact& a, const PairContact& b) {   // is a kept over b?
    return std::abs(a.phi - b.phi) > kMergeGapTie ? a.phi < b.phi : a.feature < b.feature;
  };
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = i + 1; j < points.size();) {
      if ((points[i].p_W - points[j].p_W).norm() <= merge) {
        if (preferred(points[j], points[i])) points[i] = points[j];
        points.erase(points.begin() + j);        // no reallocation: erase only shrinks
      } else {
        ++j;
      }
    }

  // 2. The convex hull of the points seen along the deepest point's normal, and what to keep of it.
  const bool flat = std::all_of(points.begin(), points.end(), [&](const PairContact& p) {
    return (p.n_W - points[0].n_W).norm() <= kSameNormal;
  });
  if (points.size() >= 3 && (flat || points.size() > static_cast<size_t>(kMaxContactsPerPair))) {
    size_t deepest = 0;
    for (size_t i = 1; i < points.size(); ++i)
      if (deeper(points[i], points[deepest])) deepest = i;
    const Eigen::Vector3d n = points[deepest].n_W;
    const Eigen::Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    projected_.clear();
    for (size_t i = 0; i < points.size(); ++i)
      projected_.push_back({points[i].p_W.dot(t1), points[i].p_W.dot(t2), static_cast<int>(i)});
    std::sort(projected_.begin(), projected_.end(), [&](const Projected& a, const Projected& b) {
      return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : points[a.index].feature < points[b.index].feature);
    });
    // Andrew's monotone chain; collinear points are not corners.
    auto cross = [](const Projected& o, const Projected& a, const Projected& b) {
      return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    hull_.assign(2 * projected_.size(), Projected{});
    size_t k = 0;
    for (size_t i = 0; i < projected_.size(); ++i) {
      while (k >= 2 && cross(hull_[k - 2], hull_[k - 1], projected_[i]) <= 0) --k;
      hull_[k++] = projected_[i];
    }
    for (size_t i = projected_.size() - 1, lower = k + 1; i-- > 0;) {
      while (k >= lower && cross(hull_[k - 2], hull_[k - 1], projected_[i]) <= 0) --k;
      hull_[k++] = projected_[i];
    }
    hull_.resize(k > 1 ? k - 1 : k);              // the chain ends where it started
    // The deepest point is protected unless another corner is as deep (within kMergeGapTie).
    const bool matched = std::any_of(hull_.begin(), hull_.end(), [&](const Projected& p) {
      return p.index != static_cast<int>(deepest) && points[p.index].phi <= points[deepest].phi + kMergeGapTie;
    });
    const int deep = matched ? -1 : static_cast<int>(deepest);
    auto neighbours = [&](size_t i) {
      return std::pair<const Projected&, const Projected&>(hull_[(i + hull_.size() - 1) % hull_.size()],
                                                           hull_[(i + 1) % hull_.size()]);
    };
    if (flat) {
      // One face contact: φ is affine over the patch, so points inside the hull are redundant, and
      // so are corners within kMergeRelative of the chord between their neighbours, unless deeper
      // than both (e.g. the mid-edge crossings of two equal squares turned by a few mrad).
      for (bool removed = true; removed && hull_.size() > 3;) {
        removed = false;
        for (size_t i = 0; i < hull_.size() && hull_.size() > 3; ++i) {
          if (hull_[i].index == deep) continue;
          const auto [prev, next] = neighbours(i);
          const double chord = std::hypot(next.x - prev.x, next.y - prev.y);
          const double off_chord = std::abs(cross(prev, hull_[i], next)) / std::max(chord, kMergeDistance);
          const double phi = points[hull_[i].index].phi;
          if (off_chord <= kMergeRelative * extent &&
              phi >= std::min(points[prev.index].phi, points[next.index].phi) - kMergeGapTie) {
            hull_.erase(hull_.begin() + i);
            removed = true;
          }
        }
      }
    }
    const bool deepest_on_hull =
        deep < 0 || std::any_of(hull_.begin(), hull_.end(), [&](const Projected& p) { return p.index == deep; });
    const size_t room = kMaxContactsPerPair - (deepest_on_hull ? 0 : 1);
    // Too many: drop the corner whose triangle with its neighbours is smallest until the rest fit.
    while (hull_.size() > room) {
      size_t drop = hull_.size();
      double smallest = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < hull_.size(); ++i) {
        if (hull_[i].index == deep) continue;
        const auto [prev, next] = neighbours(i);
        const double area = std::abs(cross(prev, hull_[i], next));
        if (area < smallest) {
          smallest = area;
          drop = i;
        }
      }
      hull_.erase(hull_.begin() + drop);
    }
    kept_.clear();
    if (!deepest_on_hull) kept_.push_back(points[deepest]);
    for (const Projected& p : hull_) kept_.push_back(points[p.index]);
    // Points the hull drops as non-corners are kept when not flat and there is room.
    if (!flat)
      for (size_t i = 0; i < points.size() && kept_.size() < static_cast<size_t>(kMaxContactsPerPair); ++i)
        if (std::none_of(kept_.begin(), kept_.end(),
                         [&](const PairContact& c) { return c.feature == points[i].feature && c.p_W == points[i].p_W; }))
          kept_.push_back(points[i]);
    points.assign(kept_.begin(), kept_.end());
  }

  // 3. Deterministic order and unique ids.
  std::sort(points.begin(), points.end(), [](const PairContact& a, const PairContact& b) {
    return a.feature != b.feature ? a.feature < b.feature : deeper(a, b);
  });
  for (size_t i = 1; i < points.size(); ++i)
    if (points[i].feature <= points[i - 1].feature) points[i].feature = points[i - 1].feature + 1;
}

}  // namespace impetus
