// One object per shape met (issue 16: no allocation in the step loop once warm): Eigen's decompositions and
// plain matrices reallocate at every change of size, and a trot's held contacts (and the effort limits'
// driven joints) change the shapes every few steps.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <tuple>
#include <vector>

namespace impetus {

/// operator()(rows, cols) is the T kept for that shape, made the first time the shape is met.
template <class T>
class ByShape {
 public:
  T& operator()(Eigen::Index rows, Eigen::Index cols) {
    for (auto& [r, c, t] : sets_)
      if (r == rows && c == cols) return *t;
    sets_.emplace_back(rows, cols, std::make_unique<T>());
    return *std::get<2>(sets_.back());
  }

 private:
  std::vector<std::tuple<Eigen::Index, Eigen::Index, std::unique_ptr<T>>> sets_;
};

/// ParkedBySize (contact/solvers/grow_only.hpp) without its caps: fit(x, rows, cols) gives x the plain object of
/// that shape parked here and parks x's present one in its place. For the buffers whose shapes run over the
/// effort limits' driven sets as well as the contacts (13 driven joints × the contact counts of a stance: more
/// shapes than ParkedBySize keeps). Memory: the shapes met. Contents after fit() are unspecified.
template <class Plain>
class ParkedByShape {
 public:
  void fit(Plain& x, Eigen::Index rows, Eigen::Index cols) {
    if (x.rows() == rows && x.cols() == cols) return;
    for (auto& p : parked_)
      if (p->rows() == rows && p->cols() == cols) {
        x.swap(*p);
        return;
      }
    if (x.size() > 0) {
      parked_.push_back(std::make_unique<Plain>());
      parked_.back()->swap(x);
    }
    x.resize(rows, cols);
  }
  /// Parks an object of that shape unless x or a parked one has it: fit(x, rows, cols) then allocates nothing
  /// (each fit() swaps, so the shapes held by x and the parked ones stay the same set).
  void park(const Plain& x, Eigen::Index rows, Eigen::Index cols) {
    if (x.rows() == rows && x.cols() == cols) return;
    for (auto& p : parked_)
      if (p->rows() == rows && p->cols() == cols) return;
    parked_.push_back(std::make_unique<Plain>(rows, cols));
  }

 private:
  std::vector<std::unique_ptr<Plain>> parked_;
};

}  // namespace impetus
