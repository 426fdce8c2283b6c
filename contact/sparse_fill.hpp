// Filling a row-major sparse matrix from triplets in place, without allocating once its storage has grown.
//
// Eigen's setFromTriplets builds a transposed temporary and assigns it, which allocates on every call: in the
// step loop (one call per island and block of rows, every step) that is most of the assembly's allocations.
// Here the triplets must come row by row (row indices non-decreasing), as an assembler that walks its rows
// emits them; each row's entries are then sorted by column in place and duplicates summed.
#pragma once

#include <Eigen/Sparse>
#include <cassert>
#include <vector>

namespace impetus {

/// X = the rows×cols matrix of `triplets`, as X.setFromTriplets would build it, to the bit: entries sorted
/// by column within each row, duplicates summed in triplet order ((a + b) + c), explicit zeros kept.
/// Preconditions: the triplets' rows are non-decreasing. The triplets are reordered within each row (a
/// stable insertion sort: rows hold a few dozen entries at most). Allocates only when X's entry storage must
/// grow or its shape changes (Eigen's resize reallocates the row index then).
template <class Sparse>
void set_from_row_ordered_triplets(Sparse& X, int rows, int cols, std::vector<Eigen::Triplet<double>>& triplets) {
  static_assert(Sparse::IsRowMajor, "rows are filled one after another");
  if (X.rows() != rows || X.cols() != cols || !X.isCompressed()) X.resize(rows, cols);
  // Sort each row's run by column (stable: equal columns keep their triplet order) and sum duplicates.
  std::size_t nnz = 0;
  for (std::size_t begin = 0; begin < triplets.size();) {
    const int r = triplets[begin].row();
    std::size_t end = begin + 1;
    while (end < triplets.size() && triplets[end].row() == r) ++end;
    assert(end == triplets.size() || triplets[end].row() > r);
    for (std::size_t i = begin + 1; i < end; ++i) {
      const Eigen::Triplet<double> t = triplets[i];
      std::size_t j = i;
      for (; j > begin && triplets[j - 1].col() > t.col(); --j) triplets[j] = triplets[j - 1];
      triplets[j] = t;
    }
    for (std::size_t i = begin; i < end;) {
      double sum = triplets[i].value();
      std::size_t k = i + 1;
      for (; k < end && triplets[k].col() == triplets[i].col(); ++k) sum += triplets[k].value();
      triplets[nnz++] = Eigen::Triplet<double>(r, triplets[i].col(), sum);
      i = k;
    }
    begin = end;
  }
  X.data().resize(static_cast<Eigen::Index>(nnz));
  auto* outer = X.outerIndexPtr();
  auto* inner = X.innerIndexPtr();
  double* value = X.valuePtr();
  int row = 0;
  outer[0] = 0;
  for (std::size_t i = 0; i < nnz; ++i) {
    while (row < triplets[i].row()) outer[++row] = static_cast<typename Sparse::StorageIndex>(i);
    inner[i] = static_cast<typename Sparse::StorageIndex>(triplets[i].col());
    value[i] = triplets[i].value();
  }
  while (row < rows) outer[++row] = static_cast<typename Sparse::StorageIndex>(nnz);
}

}  // namespace impetus
