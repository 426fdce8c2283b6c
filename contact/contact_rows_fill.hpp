// The contact rows N, S, T of an island filled together: a contact's three rows have the same columns (those of
// the point Jacobians of its two links, sim/assembly.cpp), so their entries are gathered, sorted and summed once
// instead of three times.
//
// Why: as three triplet lists, each sorted and copied twice by set_from_row_ordered_triplets (sparse_fill.hpp),
// the rows were ~5 % of a step of 1000 resting spheres (perf, 2026-11-27: the three fills 2.5 %, the triplets'
// emplace a good part of the Jacobian callback's 4.8 %). Each matrix here is the one set_from_row_ordered_triplets
// builds from that matrix's own triplets, to the bit (tests/contact/test_contact_rows_fill.cpp): entries sorted
// by column within each row, stably; duplicates summed in arrival order ((a + b) + c); explicit zeros kept.
#pragma once

#include <Eigen/Sparse>
#include <cassert>
#include <cstddef>
#include <vector>

namespace impetus {

/// The entries of N, S and T at (row, column). An n_only entry is N's alone (a soft contact's column w_i,
/// contact/compliance.hpp): S and T have no entry from it.
struct ContactRowsEntry {
  int row = 0, column = 0;
  double n = 0, s = 0, t = 0;
  bool n_only = false;
};

/// N, S, T = the rows×cols matrices of `entries`, each as set_from_row_ordered_triplets would build it from the
/// triplets (row, column, n) of every entry, resp. (row, column, s) and (row, column, t) of those not n_only.
/// Preconditions: the entries' rows are non-decreasing. The entries are reordered within each row (stable
/// insertion sort: a row holds a few dozen entries at most). Allocates only when a matrix's entry storage must
/// grow or its shape changes.
template <class Sparse>
void set_contact_rows_from_row_ordered_entries(Sparse& N, Sparse& S, Sparse& T, int rows, int cols,
                                               std::vector<ContactRowsEntry>& entries) {
  static_assert(Sparse::IsRowMajor, "rows are filled one after another");
  using Index = typename Sparse::StorageIndex;
  for (Sparse* X : {&N, &S, &T})
    if (X->rows() != rows || X->cols() != cols || !X->isCompressed()) X->resize(rows, cols);
  // Sort each row's run by column, stably, and count the distinct columns of N and of S, T.
  std::size_t nnz_N = 0, nnz_ST = 0;
  for (std::size_t begin = 0; begin < entries.size();) {
    const int r = entries[begin].row;
    std::size_t end = begin + 1;
    while (end < entries.size() && entries[end].row == r) ++end;
    assert(end == entries.size() || entries[end].row > r);
    for (std::size_t i = begin + 1; i < end; ++i) {
      const ContactRowsEntry e = entries[i];
      std::size_t j = i;
      for (; j > begin && entries[j - 1].column > e.column; --j) entries[j] = entries[j - 1];
      entries[j] = e;
    }
    for (std::size_t i = begin; i < end;) {
      std::size_t k = i;
      bool in_ST = false;
      for (; k < end && entries[k].column == entries[i].column; ++k) in_ST = in_ST || !entries[k].n_only;
      ++nnz_N;
      nnz_ST += in_ST ? 1 : 0;
      i = k;
    }
    begin = end;
  }
  N.data().resize(static_cast<Eigen::Index>(nnz_N));
  S.data().resize(static_cast<Eigen::Index>(nnz_ST));
  T.data().resize(static_cast<Eigen::Index>(nnz_ST));
  Index *outer_N = N.outerIndexPtr(), *outer_S = S.outerIndexPtr(), *outer_T = T.outerIndexPtr();
  Index *inner_N = N.innerIndexPtr(), *inner_S = S.innerIndexPtr(), *inner_T = T.innerIndexPtr();
  double *value_N = N.valuePtr(), *value_S = S.valuePtr(), *value_T = T.valuePtr();
  std::size_t e = 0, k_N = 0, k_ST = 0;
  for (int r = 0; r < rows; ++r) {
    outer_N[r] = static_cast<Index>(k_N);
    outer_S[r] = outer_T[r] = static_cast<Index>(k_ST);
    while (e < entries.size() && entries[e].row == r) {
      const int column = entries[e].column;
      std::size_t end = e + 1;
      while (end < entries.size() && entries[end].row == r && entries[end].column == column) ++end;
      double n = entries[e].n;   // from the first value, not from 0: the sum of one −0 stays −0
      for (std::size_t j = e + 1; j < end; ++j) n += entries[j].n;
      inner_N[k_N] = static_cast<Index>(column);
      value_N[k_N++] = n;
      bool any = false;
      double s = 0, t = 0;
      for (std::size_t j = e; j < end; ++j) {
        if (entries[j].n_only) continue;
        s = any ? s + entries[j].s : entries[j].s;
        t = any ? t + entries[j].t : entries[j].t;
        any = true;
      }
      if (any) {
        inner_S[k_ST] = inner_T[k_ST] = static_cast<Index>(column);
        value_S[k_ST] = s;
        value_T[k_ST++] = t;
      }
      e = end;
    }
  }
  assert(e == entries.size() && "an entry's row is not below `rows`");
  outer_N[rows] = static_cast<Index>(k_N);
  outer_S[rows] = outer_T[rows] = static_cast<Index>(k_ST);
}

}  // namespace impetus
