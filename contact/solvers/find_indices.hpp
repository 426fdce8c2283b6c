// FIND-INDICES (seed 000 Algorithm 2): a maximal linearly independent subset of the no-slip rows,
// so that the KKT matrix (47) — in Schur form, D = G W⁻¹ Gᵀ — is nonsingular.
//
//   for i = 1..n:  try S_i, then T_i: keep the row when X W⁻¹ Xᵀ stays nonsingular,
//                  X = the rows kept so far plus the candidate                       (Alg. 2 l. 11–22)
//
// "Nonsingular" is decided by the bordered Cholesky factor of delassus_factor.hpp (D3): one O(k²)
// update per candidate instead of a factorisation, O(m³ + n·m²) in total as the paper claims. The
// singularity test is relative, sin²θ > τ_dep (notes P5: a bare "Cholesky succeeded" is no test in
// floating point). Once the kept rows span all nv directions every later row is dependent and is not
// even tried.
//
// Dropping dependent rows leaves the solution unchanged: each dropped row is a combination of kept
// rows, and its constraint (c·v⁺ = 0) is homogeneous, so it holds whenever the kept ones do (seed 000
// §VI; notes §2.8). The selection is greedy and order-dependent; the span, hence v⁺, is not.
//
// Lines 4–10 of Algorithm 2 (bilateral joint rows J) have no counterpart: joints are reduced
// coordinates in Impetus, so ContactProblem has no J.
#pragma once

#include <vector>

#include "contact/solvers/delassus_factor.hpp"

namespace impetus {

struct FindIndicesResult {
  std::vector<int> s_position;   // (nc) position of S_i in the factor; −1: dropped or not tried
  std::vector<int> t_position;   // (nc) position of T_i in the factor; −1: dropped or not tried
  int rank = 0;                  // rows kept, rank(G) up to τ_dep
  int tried = 0;                 // rows whose independence was tested
};

/// Appends the independent rows of S and T (targets 0) to `factor`, contact by contact, S before T.
/// `include` (nc, or empty for all): contacts whose rows take part.
void find_indices(const SparseRows& S, const SparseRows& T, const std::vector<char>& include,
                  double dependence_tolerance, DelassusFactor& factor, FindIndicesResult& result);

}  // namespace impetus
