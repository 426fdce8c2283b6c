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

/// Relative band around a squared bound within which a comparison takes the √ (or the exact square)
/// rather than a bound: far above the few units of 2⁻⁵³ by which the rounded ‖x‖², r_i, r_j or their
/// products can be off, so outside it both sides of the comparison are decided without rounding doubt.
constexpr double kRoundingBand = 1e-9;

/// max over i < j of ‖p_i − p_j‖² (as computed, squaredNorm), 0 for fewer than two points — the same
/// number as the plain double loop. The pairs are visited by decreasing r_i = ‖p_i − c‖ around the
/// centroid c, and a pair is skipped when (r_i + r_j)², which bounds its distance² by the triangle
/// inequality, is below the largest found by more than kRoundingBand: robot feet bring ~100 hull
/// vertices within the margin, and only the pairs of the rim can set the largest.
double largest_squared_distance(const std::vector<PairContact>& points, std::vector<std::pair<double, int>>& by_radius) {
  const size_t n = points.size();
  if (n < 2) return 0;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const PairContact& p : points) c += p.p_W;
  c /= static_cast<double>(n);
  if (!c.allFinite()) {   // the definition itself (the radii's order is not defined on NaN)
    double largest = 0;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) largest = std::max(largest, (points[i].p_W - points[j].p_W).squaredNorm());
    return largest;
  }
  by_radius.clear();
  for (size_t i = 0; i < n; ++i) by_radius.push_back({(points[i].p_W - c).norm(), static_cast<int>(i)});
  std::sort(by_radius.begin(), by_radius.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  double largest = 0;
  const auto cannot_beat = [&](double r_sum) { return r_sum * r_sum * (1 + kRoundingBand) < largest; };
  for (size_t a = 0; a + 1 < n; ++a) {
    if (cannot_beat(by_radius[a].first + by_radius[a + 1].first)) break;
    const Eigen::Vector3d& p = points[by_radius[a].second].p_W;
    for (size_t b = a + 1; b < n; ++b) {
      if (cannot_beat(by_radius[a].first + by_radius[b].first)) break;
      largest = std::max(largest, (p - points[by_radius[b].second].p_W).squaredNorm());
    }
  }
  return largest;
}

}  // namespace

double ContactReducer::merge(std::vector<PairContact>& points) {
  // The largest distance, as the square root of the largest squared distance: √ is correctly rounded and
  // monotone, so this is the same number as the largest norm(), at one √ instead of one per pair.
  const double extent = std::sqrt(largest_squared_distance(points, by_radius_));
  const double within = std::max(kMergeDistance, kMergeRelative * extent);
  auto preferred = [](const PairContact& a, const PairContact& b) {   // is a kept over b?
    return std::abs(a.phi - b.phi) > kMergeGapTie ? a.phi < b.phi : a.feature < b.feature;
  };
  // ‖x‖ ≤ within decided on ‖x‖² where it is far from within² (‖x‖ = √‖x‖², correctly rounded and monotone,
  // is then on the same side), by the √ itself within kRoundingBand of it: the same answer as ‖x‖ ≤ within.
  const double within_squared = within * within;
  const double surely_close = within_squared * (1 - kRoundingBand), surely_apart = within_squared * (1 + kRoundingBand);
  const auto close = [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    const double d2 = (a - b).squaredNorm();
    if (d2 <= surely_close) return true;
    if (d2 > surely_apart) return false;
    return std::sqrt(d2) <= within;
  };
  const size_t n = points.size();
  const bool finite = std::all_of(points.begin(), points.end(), [](const PairContact& p) { return p.p_W.allFinite(); });
  if (!finite || !std::isfinite(within)) {   // the definition itself (x's order is not defined on NaN)
    for (size_t i = 0; i < points.size(); ++i)
      for (size_t j = i + 1; j < points.size();) {
        if (close(points[i].p_W, points[j].p_W)) {
          if (preferred(points[j], points[i])) points[i] = points[j];
          points.erase(points.begin() + j);
        } else {
          ++j;
        }
      }
    return extent;
  }
  // The same greedy merge — each point i in order absorbs the remaining j > i in order that are close to
  // it, taking a preferred j's place — with the j looked up by one coordinate x_k, k the axis along which
  // the points spread most: ‖p_i − p_j‖² ≥ (x_ik − x_jk)² as computed, so only points whose x_k differs
  // from point i's by at most (1 + kRoundingBand)·within can be close, and 2·within is far beyond that and
  // beyond the rounding of x_k ± 2·within.
  Eigen::Vector3d low = points.empty() ? Eigen::Vector3d::Zero() : points[0].p_W, high = low;
  for (const PairContact& p : points) {
    low = low.cwiseMin(p.p_W);
    high = high.cwiseMax(p.p_W);
  }
  Eigen::Index k = 0;
  (high - low).maxCoeff(&k);
  by_x_.clear();
  for (size_t i = 0; i < n; ++i) by_x_.push_back({points[i].p_W[k], static_cast<int>(i)});
  std::sort(by_x_.begin(), by_x_.end());
  position_.resize(n);
  for (size_t e = 0; e < n; ++e) position_[by_x_[e].second] = static_cast<int>(e);
  absorbed_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (absorbed_[i]) continue;
    // Point i as it is now is the input point `source` (itself, or the last it took the place of: a later
    // point, not yet changed), so its x_k is by_x_'s entry at position_[source], and the entries within
    // [x − 2·within, x + 2·within] are the run around it: walked outwards instead of searched for.
    for (int after = static_cast<int>(i), source = static_cast<int>(i);;) {
      const double x = points[i].p_W[k], lo = x - 2 * within, hi = x + 2 * within;
      int next = -1;   // the first j > after, not absorbed, close to point i as it is now
      const auto consider = [&](const std::pair<double, int>& e) {
        if (e.second > after && (next < 0 || e.second < next) && !absorbed_[e.second] &&
            close(points[i].p_W, points[e.second].p_W))
          next = e.second;
      };
      const int centre = position_[source];
      for (int e = centre; e >= 0 && by_x_[e].first >= lo; --e) consider(by_x_[e]);
      for (int e = centre + 1; e < static_cast<int>(n) && by_x_[e].first <= hi; ++e) consider(by_x_[e]);
      if (next < 0) break;
      if (preferred(points[next], points[i])) {
        points[i] = points[next];
        source = next;
      }
      absorbed_[next] = 1;
      after = next;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i)
    if (!absorbed_[i]) {
      if (kept != i) points[kept] = points[i];
      ++kept;
    }
  points.erase(points.begin() + kept, points.end());   // no reallocation: erase only shrinks
  return extent;
}

void ContactReducer::reduce(std::vector<PairContact>& points) {
  if (points.size() <= 1) return;   // one point (a sphere on the ground): nothing to merge, hull or order
  // 1. Merge points that are one corner.
  const double extent = merge(points);

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
