// FIND-INDICES (find_indices.hpp; seed 000 Algorithm 2).
#include "contact/solvers/find_indices.hpp"

namespace impetus {

void find_indices(const SparseRows& S, const SparseRows& T, const std::vector<char>& include,
                  double dependence_tolerance, DelassusFactor& factor, FindIndicesResult& result) {
  const int nc = static_cast<int>(S.rows());
  result.s_position.assign(nc, -1);
  result.t_position.assign(nc, -1);
  result.tried = 0;
  for (int i = 0; i < nc; ++i) {
    if (factor.size() == factor.capacity()) break;   // full rank: every further row is dependent
    if (!include.empty() && !include[i]) continue;
    ++result.tried;
    if (factor.try_append({&S, i}, 0.0, dependence_tolerance)) result.s_position[i] = factor.size() - 1;
    if (factor.size() == factor.capacity()) break;
    ++result.tried;
    if (factor.try_append({&T, i}, 0.0, dependence_tolerance)) result.t_position[i] = factor.size() - 1;
  }
  result.rank = factor.size();
}

}  // namespace impetus
