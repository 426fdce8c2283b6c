// Sparse rows of any row count without allocation once warm (issue 16): the storage of a matrix stacked anew
// from each problem's rows (stewart_trinkle's J = [N; L; S; T] of the group leaders).
//
// An Eigen::SparseMatrix reallocates its outer index (rows + 1 integers) on every change of row count, and its
// nonzeros' storage when it is to hold more than it ever held: a matrix kept per count met allocated for each
// count first met once warm (a trot's contact count goes up and down every few steps). RowsByCount keeps
//   - a matrix per row count, made for every count up to the most met (kReservedCounts and below: Σ (r + 1)
//     integers; above it, for the counts met), so that a count below the most met finds its outer index made
//     (per column count met: one workspace serves islands of different nv);
//   - one storage of nonzeros, swapped into whichever matrix is in use, with room for the most rows met times
//     the most nonzeros met in one row (a bound on the nonzeros of any stack of those rows).
// The matrix handed out is an ordinary compressed SparseRows, filled as before: the same values, the same bits.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "contact/problem.hpp"

namespace impetus {

class RowsByCount {
 public:
  /// Counts up to this many rows are all made once a larger one is met (120 on LINKS: 40 contacts × 3 rows).
  static constexpr Eigen::Index kReservedCounts = 256;

  /// The rows×cols matrix, with no nonzeros, compressed, with room for rows × row_nonzeros entries (and for as
  /// many as any earlier call asked): fill it by startVec/insertBack/finalize. row_nonzeros: the most nonzeros
  /// of one of the rows to be stacked. The matrix is valid until the next call.
  SparseRows& empty(Eigen::Index rows, Eigen::Index cols, Eigen::Index row_nonzeros) {
    std::vector<std::unique_ptr<SparseRows>>& by_count = of_columns(cols);
    if (rows >= static_cast<Eigen::Index>(by_count.size())) by_count.resize(rows + 1);
    if (!by_count[rows])
      for (Eigen::Index r = rows <= kReservedCounts ? 0 : rows; r <= rows; ++r)
        if (!by_count[r]) by_count[r] = std::make_unique<SparseRows>(r, cols);
    SparseRows& J = *by_count[rows];
    if (live_ != nullptr && live_ != &J) J.data().swap(live_->data());   // the one storage of nonzeros
    live_ = &J;
    most_rows_ = std::max(most_rows_, rows);
    most_row_nonzeros_ = std::max(most_row_nonzeros_, row_nonzeros);
    J.setZero();                                  // no nonzeros; the outer index and the storage kept
    J.reserve(most_rows_ * most_row_nonzeros_);   // grows only past the largest asked for
    return J;
  }

 private:
  /// The matrices of `cols` columns by row count ([r]: r rows, or none yet); one list per column count met (a
  /// workspace solves islands of different nv in turn).
  std::vector<std::unique_ptr<SparseRows>>& of_columns(Eigen::Index cols) {
    for (auto& [c, by_count] : by_columns_)
      if (c == cols) return by_count;
    by_columns_.emplace_back(cols, std::vector<std::unique_ptr<SparseRows>>());
    return by_columns_.back().second;
  }

  std::vector<std::pair<Eigen::Index, std::vector<std::unique_ptr<SparseRows>>>> by_columns_;
  SparseRows* live_ = nullptr;   // the matrix holding the storage of nonzeros
  Eigen::Index most_rows_ = 0, most_row_nonzeros_ = 0;
};

}  // namespace impetus
