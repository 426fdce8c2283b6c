// The fifteen separating axes of two boxes in closed form (manifold.hpp M1′).
//
// For shapes A and B and a unit n from B towards A, the gap along n is g(n) = n·(c_A − c_B) − h_A(n) − h_B(n)
// (manifold.hpp M1; a box's support about its centre c is h(n) = Σ_k e_k |r_kᵀ n|, e its half extents, r_k its
// axes). g(−n) differs only in the sign of the first term, so the better of ±n is
//     g±(n) = |n·(c_A − c_B)| − h_A(n) − h_B(n).                                                     (BA1)
// The facet normals of the boxes' Minkowski difference are the faces' normals, r_A,i and r_B,j, and the nine
// products r_A,i × r_B,j of their edge directions: where the boxes overlap, the largest g over all directions
// (minus the penetration depth) is attained at one of them (the support function of a polytope that holds the
// origin is least at a facet normal). Written in A's frame with C = R_Aᵀ R_B and t = R_Aᵀ(c_A − c_B), the axes'
// terms are entries of C, as in Gottschalk's OBB test (1996) and ODE's dBoxBox.
#pragma once

#include "collision/manifold.hpp"

namespace impetus {

/// (BA1) over the fifteen axes (BoxAxes: manifold.hpp); false (axes.found false, the gaps unset) unless A and B are
/// both boxes, posed by finite transforms.
bool box_axes(const PosedShape& A, const PosedShape& B, BoxAxes& axes);

}  // namespace impetus
