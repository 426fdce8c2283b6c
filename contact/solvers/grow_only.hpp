// Grow-only buffers: the storage of a contact model's workspace (ContactModel::make_workspace).
//
// The workspace contract: a workspace may solve many islands in turn, whatever their sizes, and allocates
// nothing once it has seen the largest (so that one workspace can serve a thousand one-contact islands
// from cache, where a workspace per island is cold for each). Eigen reallocates a VectorXd or
// MatrixXd on every change of size; a grow-only buffer is a pair
//
//   Eigen::VectorXd x_storage;      the storage, at the largest size asked for (the high-water mark)
//   VectorView x{nullptr, 0};       the vector (or MatrixView the matrix) of the problem at hand
//
// and grow(x, x_storage, n) (or grow(X, X_storage, rows, cols)) grows the storage when needed and points the
// view at its first entries; the code then computes with x as with an Eigen vector. A view is an Eigen::Map
// of the storage's first rows·cols entries, column-major with leading dimension rows, aligned as Eigen
// aligns its own heap arrays: the layout, alignment and kernels of a MatrixXd of that size, so arithmetic on
// a view gives the bits it gives on a freshly sized MatrixXd. Contents after grow() are unspecified:
// entries hold what earlier problems left, and a result may never depend on them (ContactModel::solve).
//
// Eigen's decompositions (LLT, COD) keep buffers of their own, sized by compute(): BySize<D> keeps one per
// size met, each reused at its size (memory: the sizes met).
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace impetus {

using VectorView = Eigen::Map<Eigen::VectorXd, Eigen::AlignedMax>;
using MatrixView = Eigen::Map<Eigen::MatrixXd, Eigen::AlignedMax>;
using ConstVectorView = Eigen::Map<const Eigen::VectorXd, Eigen::AlignedMax>;
using ConstMatrixView = Eigen::Map<const Eigen::MatrixXd, Eigen::AlignedMax>;

/// Points `view` at the first n entries of `storage`, grown to n when smaller (placement new is how Eigen
/// re-points a Map). The storage must outlive the view and not be resized behind it.
inline void grow(VectorView& view, Eigen::VectorXd& storage, Eigen::Index n) {
  if (storage.size() < n) storage.resize(n);
  new (&view) VectorView(storage.data(), n);
}

/// Points `view` at the first rows·cols entries of `storage` as a rows×cols column-major matrix.
inline void grow(MatrixView& view, Eigen::VectorXd& storage, Eigen::Index rows, Eigen::Index cols) {
  if (storage.size() < rows * cols) storage.resize(rows * cols);
  new (&view) MatrixView(storage.data(), rows, cols);
}

/// One D per size met: operator()(n) is the one for n×n problems, made the first time n is met.
template <class D>
class BySize {
 public:
  D& operator()(Eigen::Index n) {
    for (auto& [size, d] : objects_)
      if (size == n) return *d;
    objects_.emplace_back(n, std::make_unique<D>());   // its first compute() sizes it
    return *objects_.back().second;
  }

 private:
  std::vector<std::pair<Eigen::Index, std::unique_ptr<D>>> objects_;
};

/// Plain Eigen objects (VectorXd, MatrixXd) of each size met, for a buffer whose size goes back and forth (the
/// contacts of a trot, the groups of a restricted LCP) and which must be a plain object (Lemke and Eigen's
/// decompositions take MatrixXd and VectorXd, not views). fit(x, rows, cols) gives x the object of that size
/// parked here and parks x's present one in its place: no allocation once each size met is parked. Objects
/// above kMaxEntries are not parked (a large problem's solve dwarfs its allocation, and sixteen of its
/// buffers would not be small), nor more than kMaxParked. Contents after fit() are unspecified.
template <class Plain>
class ParkedBySize {
 public:
  static constexpr Eigen::Index kMaxEntries = 1 << 16;
  static constexpr std::size_t kMaxParked = 16;

  void fit(Plain& x, Eigen::Index rows, Eigen::Index cols) {
    if (x.rows() == rows && x.cols() == cols) return;
    for (Plain& p : parked_)
      if (p.rows() == rows && p.cols() == cols) {
        x.swap(p);
        return;
      }
    if (x.size() > 0 && x.size() <= kMaxEntries && parked_.size() < kMaxParked) {
      if (parked_.capacity() == 0) parked_.reserve(kMaxParked);   // parked objects never move
      parked_.emplace_back();
      parked_.back().swap(x);
    }
    x.resize(rows, cols);
  }

 private:
  std::vector<Plain> parked_;
};

}  // namespace impetus
