// Nested-dissection order by METIS_NodeND (nested_dissection.hpp).
#include "contact/solvers/nested_dissection.hpp"

#include <metis.h>

#include <mutex>

namespace impetus {

std::vector<int> nested_dissection_order(const Eigen::SparseMatrix<double>& K, const std::vector<char>& last) {
  const int n = static_cast<int>(K.rows());
  auto cut = [&](int i) { return !last.empty() && last[i]; };

  // The graph of K + Kᵀ without its diagonal and the `last` rows, in METIS's adjacency arrays: each
  // entry below the diagonal is an edge listed at both its ends.
  std::vector<idx_t> xadj(n + 1, 0);
  for (int j = 0; j < n; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(K, j); it; ++it)
      if (it.row() > j && !cut(j) && !cut(it.row())) {
        ++xadj[j + 1];
        ++xadj[it.row() + 1];
      }
  for (int j = 0; j < n; ++j) xadj[j + 1] += xadj[j];
  std::vector<idx_t> adjncy(xadj[n]);
  std::vector<idx_t> next(xadj.begin(), xadj.end() - 1);
  for (int j = 0; j < n; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(K, j); it; ++it)
      if (it.row() > j && !cut(j) && !cut(it.row())) {
        const int i = static_cast<int>(it.row());
        adjncy[next[j]++] = i;
        adjncy[next[i]++] = j;
      }

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  idx_t vertices = n;
  std::vector<idx_t> perm(n), iperm(n);
  int status;
  {
    // METIS keeps its random generator in global state, seeded at the start of each call: calls from
    // islands solved on different threads take turns, so each order is the one a lone call gives.
    static std::mutex metis;
    const std::lock_guard<std::mutex> lock(metis);
    status = METIS_NodeND(&vertices, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data());
  }
  if (status != METIS_OK) return {};

  // perm[k] is the old index of the k-th row of the permuted matrix ([KK]'s manual, METIS_NodeND).
  std::vector<int> eliminated;
  eliminated.reserve(n);
  for (int k = 0; k < n; ++k)
    if (!cut(perm[k])) eliminated.push_back(perm[k]);
  for (int i = 0; i < n; ++i)
    if (cut(i)) eliminated.push_back(i);
  return eliminated;
}

}  // namespace impetus
