// One row of a row-major sparse matrix as the range of its index and value arrays that stores it, compressed or
// not: for the kernels that walk rows by pointer (stewart_trinkle's stacked J, RowsByBlock, the Delassus product).
#pragma once

#include <Eigen/Sparse>
#include <utility>

namespace impetus {

/// [begin, end) of row r's stored entries in X.innerIndexPtr() and X.valuePtr(), in column order.
template <class RowMajorSparse>
std::pair<Eigen::Index, Eigen::Index> stored_row(const RowMajorSparse& X, Eigen::Index r) {
  static_assert(RowMajorSparse::IsRowMajor, "a row is a range only in row-major storage");
  const Eigen::Index begin = X.outerIndexPtr()[r];
  return {begin, X.isCompressed() ? Eigen::Index{X.outerIndexPtr()[r + 1]} : begin + X.innerNonZeroPtr()[r]};
}

/// The part of stored_row(X, r) in the columns [first_column, first_column + columns): consecutive, as the row's
/// columns ascend (a system block's entries of one row).
template <class RowMajorSparse>
std::pair<Eigen::Index, Eigen::Index> stored_row_in(const RowMajorSparse& X, Eigen::Index r, Eigen::Index first_column,
                                                    Eigen::Index columns) {
  auto [first, end] = stored_row(X, r);
  const auto* inner = X.innerIndexPtr();
  while (first < end && inner[first] < first_column) ++first;
  Eigen::Index last = first;
  while (last < end && inner[last] < first_column + columns) ++last;
  return {first, last};
}

}  // namespace impetus
