// Filling a sparse matrix from triplets in place, without allocating once its storage has grown.
//
// Eigen's setFromTriplets builds a transposed temporary and assigns it, which allocates on every call: in the
// step loop (one call per island and block of rows, every step) that is most of the assembly's allocations.
// Here the triplets must come row by row (row indices non-decreasing), as an assembler that walks its rows
// emits them; each row's entries are then sorted by column in place and duplicates summed.
#pragma once

#include <Eigen/Sparse>
#include <algorithm>
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

/// X = the rows×cols matrix of `triplets` in any order, as X.setFromTriplets would build it, to the bit: entries
/// sorted by inner index within each outer vector, duplicates summed in triplet order ((a + b) + c), explicit
/// zeros kept. `order` is the caller's scratch (a permutation of the triplets, sorted in place). Allocates only
/// when `order` or X's entry storage must grow, or X's shape changes.
template <class Sparse>
void set_from_triplets_in_place(Sparse& X, int rows, int cols, const std::vector<Eigen::Triplet<double>>& triplets,
                                std::vector<int>& order) {
  constexpr bool kRowMajor = Sparse::IsRowMajor;
  auto outer_of = [&](const Eigen::Triplet<double>& t) { return kRowMajor ? t.row() : t.col(); };
  auto inner_of = [&](const Eigen::Triplet<double>& t) { return kRowMajor ? t.col() : t.row(); };
  if (X.rows() != rows || X.cols() != cols || !X.isCompressed()) X.resize(rows, cols);
  order.resize(triplets.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // By (outer, inner), then triplet order: std::sort, unlike std::stable_sort, needs no buffer.
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Eigen::Triplet<double>&ta = triplets[a], &tb = triplets[b];
    if (outer_of(ta) != outer_of(tb)) return outer_of(ta) < outer_of(tb);
    if (inner_of(ta) != inner_of(tb)) return inner_of(ta) < inner_of(tb);
    return a < b;
  });
  std::size_t nnz = 0;
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i == 0 || outer_of(triplets[order[i]]) != outer_of(triplets[order[i - 1]]) ||
        inner_of(triplets[order[i]]) != inner_of(triplets[order[i - 1]]))
      ++nnz;
  X.data().resize(static_cast<Eigen::Index>(nnz));
  auto* outer = X.outerIndexPtr();
  auto* inner = X.innerIndexPtr();
  double* value = X.valuePtr();
  const int outer_size = kRowMajor ? rows : cols;
  int current = 0;
  outer[0] = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < order.size();) {
    const Eigen::Triplet<double>& t = triplets[order[i]];
    double sum = t.value();
    std::size_t j = i + 1;
    for (; j < order.size() && outer_of(triplets[order[j]]) == outer_of(t) && inner_of(triplets[order[j]]) == inner_of(t); ++j)
      sum += triplets[order[j]].value();
    while (current < outer_of(t)) outer[++current] = static_cast<typename Sparse::StorageIndex>(k);
    inner[k] = static_cast<typename Sparse::StorageIndex>(inner_of(t));
    value[k] = sum;
    ++k;
    i = j;
  }
  while (current < outer_size) outer[++current] = static_cast<typename Sparse::StorageIndex>(nnz);
}

}  // namespace impetus
