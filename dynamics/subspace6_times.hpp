// V = S·v for a joint of six velocity coordinates (a floating joint: S its 6×6 block of the motion subspaces),
// with the bits of Eigen's product of the runtime-sized blocks that forward kinematics wrote before.
//
// Why: `S.middleCols(k, nv) * v.segment(k, nv)` is a lazy product of runtime-sized blocks (GeneralProduct.h:
// <Small, 1, Large>, CoeffBasedProductMode): a runtime loop per row, for 36 multiply–adds. With the fixed-size
// writes of S (kinematics.cpp) it took the forward kinematics of 1000 free bodies from ~190 to ~150 µs per pass.
// Eigen 3.4 evaluates it, as a term of a 6-vector expression, by 2-wide packets of rows (find_best_packet<double,
// 6>), each from +0 one fused multiply–add S_rj v_j + s per column j in increasing order (ProductEvaluators.h,
// etor_product_packet_impl<ColMajor, Dynamic>). That reading is checked for the build with AVX (4-wide packets)
// and FMA; elsewhere (a portable build: SSE2 without FMA) forward kinematics keeps Eigen's product:
// kExactSubspace6Times is false there. tests/dynamics/test_subspace6_times.cpp checks the bits against Eigen's own
// product of the same blocks, with exact zeros of both signs.
#pragma once

#include <Eigen/Core>

#include "dynamics/spatial.hpp"

namespace impetus {

/// True where subspace6_times reproduces Eigen's product bit for bit.
#ifdef EIGEN_VECTORIZE_FMA
constexpr bool kExactSubspace6Times =
    Eigen::internal::packet_traits<double>::size == 4 &&
    Eigen::internal::unpacket_traits<Eigen::internal::find_best_packet<double, 6>::type>::size == 2;
#else
constexpr bool kExactSubspace6Times = false;
#endif

/// S·x for S the 6×6 column-major block at `S` (column stride 6) and x at `x`: the bits of Eigen's
/// `S.middleCols(k, 6) * x.segment(k, 6)` as a term of a 6-vector expression, where kExactSubspace6Times.
/// Never −0 (each row starts from +0), so adding it to another vector is Eigen's addition too.
/// Out of line on purpose: inlined, its unrolled body changed which products GCC fused elsewhere in the
/// kinematics pass (a quaternion's rotation matrix one ulp off), and with them the simulator's bits.
Vec6 subspace6_times(const double* S, const double* x);

}  // namespace impetus
