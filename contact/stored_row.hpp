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

}  // namespace impetus
