// Sparse rows of any row count without allocation once warm (issue 16): the storage of a matrix stacked anew
// from each problem's rows (stewart_trinkle's J = [N; L; S; T] of the group leaders).
//
// An Eigen::SparseMatrix reallocates its outer index (rows + 1 integers) on every change of row count, and its
// nonzeros' storage when it is to hold more than it ever held. RowsByCount keeps the matrix's objects of other
// row counts in a ParkedByCount (contact/parked_by_count.hpp: every count up to the most met, kReservedCounts and
// below; above it, the kLargeShapes shapes met last, so that a pile whose row count changes every step holds a
// bounded storage), and reserves in the live matrix room for the most rows met times the most nonzeros met in one
// row (a bound on the nonzeros of any stack of those rows). The matrix handed out is an ordinary compressed
// SparseRows, filled as before: the same values, the same bits.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>

#include "contact/parked_by_count.hpp"
#include "contact/problem.hpp"

namespace impetus {

class RowsByCount {
 public:
  /// The rows×cols matrix, with no nonzeros, compressed, with room for rows × row_nonzeros entries (and for as
  /// many as any earlier call asked): fill it by startVec/insertBack/finalize. row_nonzeros: the most nonzeros
  /// of one of the rows to be stacked. The matrix is valid until the next call.
  SparseRows& empty(Eigen::Index rows, Eigen::Index cols, Eigen::Index row_nonzeros) {
    parked_.fit(J_, rows, cols);
    most_rows_ = std::max(most_rows_, rows);
    most_row_nonzeros_ = std::max(most_row_nonzeros_, row_nonzeros);
    J_.setZero();                                  // no nonzeros; the outer index and the storage kept
    J_.reserve(most_rows_ * most_row_nonzeros_);   // grows only past the largest asked for
    return J_;
  }

 private:
  SparseRows J_;                          // the matrix handed out
  ParkedByCount<SparseRows> parked_;      // its objects of the other row counts (each column count apart)
  Eigen::Index most_rows_ = 0, most_row_nonzeros_ = 0;
};

}  // namespace impetus
