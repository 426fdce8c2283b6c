// Nested-dissection order of a sparse symmetric pattern, by METIS.
//
// References
//   [GE]  George, "Nested dissection of a regular finite element mesh", SIAM J. Numer. Anal. 10 (1973)
//         345–363: order a separator last, then each half recursively; on a mesh in d dimensions the
//         factor's fill grows more slowly than any local (minimum-degree) order gives.
//   [KK]  Karypis & Kumar, "A fast and high quality multilevel scheme for partitioning irregular graphs",
//         SIAM J. Sci. Comput. 20 (1998) 359–392: the multilevel separators METIS_NodeND computes.
//
// A pile's interior-point matrix (IP5) is such a mesh: bodies joined by their contacts in three
// dimensions. There minimum degree leaves large separators to the end and the supernodal factor's
// multiply–adds are about twice nested dissection's (granular's landing, t = 0.41 s: 4.4e8 against
// 2.1e8); on the thin problems of a few contacts it is the other way round, so QuasidefiniteLdlt takes
// whichever order its symbolic count prices lower.
#pragma once

#include <Eigen/Sparse>
#include <vector>

namespace impetus {

/// Old indices in elimination order for the pattern of K + Kᵀ (K's lower triangle by columns, as
/// QuasidefiniteLdlt reads it), by METIS's nested dissection with a fixed seed. Rows flagged in `last`
/// (n or empty) are cut out of the graph and come after all others, in increasing order. Empty when
/// METIS fails (it reports running out of memory): the caller keeps its other order.
std::vector<int> nested_dissection_order(const Eigen::SparseMatrix<double>& K, const std::vector<char>& last);

}  // namespace impetus
