// Eigen buffers of every count up to the most met (issue 16: no allocation in the step loop once warm), for the
// buffers of a ContactProblem and its ContactResult, which are plain Eigen objects (a model reads them as such).
//
// Eigen reallocates a VectorXd at every change of size, and a row-major SparseMatrix its outer index at every
// change of row count. The buffers were parked per (nv, nc, nl) met, at most 16 triples: a stance's contacts
// (0–8) times its joint-limit rows (0–12) are more triples than that, and a triple first met after the warm-up
// allocated. ParkedByCount keeps, per buffer, an object of each count (each column count of a sparse matrix
// apart), made for every count up to the most met, or up to a bound given to reserve(): a count below it finds
// its object made, whichever order the counts come in; above kReservedCounts, those of the kLargeShapes shapes
// met last (fit_large). A sparse matrix keeps its own storage of nonzeros when it changes count (only its outer
// index is swapped in), so the live matrix holds the most nonzeros it ever held.
// Contents after fit() are unspecified: the caller writes every entry, so which object serves a problem never
// changes it.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace impetus {

template <class Plain>
class ParkedByCount {
 public:
  /// Counts up to this many are all made once a larger one is met (or reserved); above it, x is resized.
  static constexpr Eigen::Index kReservedCounts = 256;
  /// Shapes above kReservedCounts parked at most (fit_large): a few islands' problems alternating, or one
  /// problem's recent sizes, find theirs.
  static constexpr std::size_t kLargeShapes = 8;
  static constexpr bool kSparse = !std::is_base_of_v<Eigen::DenseBase<Plain>, Plain>;
  static constexpr bool kVector = !kSparse && Plain::ColsAtCompileTime == 1;

  ParkedByCount() = default;
  /// A copy parks nothing: the objects are storage kept for later counts, not state (a StepData copied for
  /// inspection makes its own as it is used); the buffers in use live in the problem, copied with it.
  ParkedByCount(const ParkedByCount&) {}
  ParkedByCount& operator=(const ParkedByCount&) { return *this; }
  ParkedByCount(ParkedByCount&&) noexcept = default;
  ParkedByCount& operator=(ParkedByCount&&) noexcept = default;

  /// x of `count` entries (a vector; cols ignored) or count × cols (a matrix): the object parked at that
  /// shape swapped in, x's present one parked at its own. Allocates only for a count above the most met and
  /// above every reserve(), or above kReservedCounts for a shape not among the kLargeShapes met last.
  void fit(Plain& x, Eigen::Index count, Eigen::Index cols) {
    if constexpr (kVector) cols = 1;
    if (x.rows() == count && x.cols() == cols) return;
    if (count > kReservedCounts) {
      fit_large(x, count, cols);
      return;
    }
    Shelf& shelf = shelf_of(cols);
    make_up_to(shelf, count, cols);
    if (!shelf.made[count]) {   // another live buffer holds this shape (two islands of one size): as before
      resize(x, count, cols);
      return;
    }
    Plain& parked = *shelf.by_count[count];
    const Eigen::Index old_count = x.rows(), old_cols = x.cols();
    x.swap(parked);
    if constexpr (kSparse) {   // the live matrix takes the largest storage of nonzeros at hand, emptied
      if (parked.data().allocatedSize() > x.data().allocatedSize()) x.data().swap(parked.data());
      if (spare_.allocatedSize() > x.data().allocatedSize()) x.data().swap(spare_);
      x.setZero();
    }
    shelf.made[count] = 0;   // vacant (its slot empty) until the live buffer of this shape comes back
    park(std::move(shelf.by_count[count]), old_count, old_cols);
  }

  /// Makes an object of every count up to min(most, kReservedCounts), of `cols` columns for a matrix: a
  /// count up to it, first met or not, then allocates nothing. A sparse matrix: and a storage of most × cols
  /// nonzeros (a row has at most cols), which the live matrix takes at its next fit().
  void reserve(Eigen::Index most, Eigen::Index cols) {
    if constexpr (kVector) cols = 1;
    most = std::min(most, kReservedCounts);
    make_up_to(shelf_of(cols), most, cols);
    if constexpr (kSparse)
      if (spare_.allocatedSize() < most * cols) spare_.reserve(most * cols - spare_.size());
  }

 private:
  struct Shelf {
    Eigen::Index cols = 0;
    std::vector<std::unique_ptr<Plain>> by_count;   // [k]: the object of count k (if made[k])
    std::vector<char> made;                         // 0: the object of that count is live (its slot empty)
  };

  /// Above kReservedCounts, the objects of the kLargeShapes shapes met last (as ParkedByShape,
  /// control/inverse_dynamics/by_shape.hpp, but bounded): a large problem's solve dwarfs one allocation, and an
  /// object of every count up to it would not be small. Bounded because a pile's island changes its contact
  /// count nearly every step: kept per shape met, the granular pile's free fall parked ~1 MB a step (its N, S, T
  /// with their nonzeros, and some twenty vectors), 2.5 GB by t = 0.5 s, and every step's buffers were fresh
  /// pages (page faults and their clearing ~5 % of its step, perf, issue 16). A shape not held takes the object
  /// used longest ago, resized: its storage goes back to the allocator, which hands it out again.
  void fit_large(Plain& x, Eigen::Index count, Eigen::Index cols) {
    const Eigen::Index old_count = x.rows(), old_cols = x.cols();
    std::unique_ptr<Plain> next;
    for (std::size_t i = 0; i < large_.size() && !next; ++i)
      if (large_[i]->rows() == count && large_[i]->cols() == cols) {
        next = std::move(large_[i]);
        large_.erase(large_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    if (!next) {
      if (large_.size() == kLargeShapes) {   // the one used longest ago, resized
        next = std::move(large_.front());
        large_.erase(large_.begin());
      } else {
        next = std::make_unique<Plain>();
      }
      resize(*next, count, cols);
    }
    x.swap(*next);
    if constexpr (kSparse) {   // the live matrix keeps the larger storage of nonzeros, emptied
      if (next->data().allocatedSize() > x.data().allocatedSize()) x.data().swap(next->data());
      x.setZero();
    }
    park(std::move(next), old_count, old_cols);
  }

  /// x's former object p (of old_count × old_cols) parked: on its shelf where that count is vacant, among the large
  /// ones (the one used last; the one used longest ago freed to keep kLargeShapes) above kReservedCounts, else
  /// freed (a buffer sized outside the shelves, whose count's object is parked already).
  void park(std::unique_ptr<Plain> p, Eigen::Index old_count, Eigen::Index old_cols) {
    if (old_count > kReservedCounts) {
      if (large_.size() == kLargeShapes) large_.erase(large_.begin());
      large_.push_back(std::move(p));
      return;
    }
    Shelf* home = find_shelf(old_cols);
    if (home && old_count < static_cast<Eigen::Index>(home->made.size()) && !home->made[old_count]) {
      home->by_count[old_count] = std::move(p);
      home->made[old_count] = 1;
    }
  }

  static void resize(Plain& x, Eigen::Index count, Eigen::Index cols) {
    if constexpr (kVector)
      x.resize(count);
    else
      x.resize(count, cols);
  }

  Shelf* find_shelf(Eigen::Index cols) {
    for (Shelf& s : shelves_)
      if (s.cols == cols) return &s;
    return nullptr;
  }
  Shelf& shelf_of(Eigen::Index cols) {
    if (Shelf* s = find_shelf(cols)) return *s;
    shelves_.push_back(Shelf{cols, {}, {}});
    return shelves_.back();
  }
  /// Every count up to `most` made (counts made already, or live, left as they are).
  static void make_up_to(Shelf& shelf, Eigen::Index most, Eigen::Index cols) {
    for (Eigen::Index k = static_cast<Eigen::Index>(shelf.by_count.size()); k <= most; ++k) {
      auto made = std::make_unique<Plain>();
      resize(*made, k, cols);
      shelf.by_count.push_back(std::move(made));
      shelf.made.push_back(1);
    }
  }

  /// The storage of nonzeros reserve() sized, for a sparse matrix (a dense one: unused).
  template <class P, bool = kSparse>
  struct StorageOf {
    using type = int;
  };
  template <class P>
  struct StorageOf<P, true> {
    using type = Eigen::internal::CompressedStorage<typename P::Scalar, typename P::StorageIndex>;
  };

  std::vector<Shelf> shelves_;   // one per column count met (a matrix); vectors: one
  std::vector<std::unique_ptr<Plain>> large_;   // parked objects above kReservedCounts, the one used last at the back
  typename StorageOf<Plain>::type spare_{};
};

}  // namespace impetus
