// The friction pyramid of the ID variants, edge for edge the simulator's (stewart_trinkle.hpp ST5,
// max_dissipation.hpp MD6): edge j of contact c is d_j = cos(2πj/k)·t1 + sin(2πj/k)·t2, t1/t2 the
// tangents of the S and T rows that sim/assembly.cpp built (notes 004 §6.7: the axes must match).
//
//   z = [p_N (nc); p_F (k·nf)] ≥ 0,   p = [p_N; p_S; p_T] = B z,                            (FE1)
//   p_S,c = Σ_j cos_j p_F,cj,   p_T,c = Σ_j sin_j p_F,cj,   pyramid: μ_c p_N,c − Σ_j p_F,cj ≥ 0
// nf: the contacts with μ > 0 (the only ones with edges). The same pyramid in p (its facets, k ≥ 3):
// the edges μ_c d_j are the vertices of a regular k-gon of circumradius μ_c p_N, whose facet j has
// the outward normal at angle θ_j = (2j + 1)π/k and lies at μ_c cos(π/k) p_N from the axis:
//   μ_c cos(π/k) p_N,c − cos θ_j p_S,c − sin θ_j p_T,c ≥ 0,   j = 0 … k−1                      (FE2)
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "contact/solvers/grow_only.hpp"

namespace impetus {

struct FrictionEdges {
  int nc = 0, k = 0, nf = 0;
  std::vector<int> friction_contact;   // (nf) contact of each friction block
  Eigen::VectorXd cos_edge, sin_edge;  // (k)
  Eigen::MatrixXd B;                   // (3nc × (nc + k·nf)) (FE1)
  Eigen::MatrixXd A_mu;                // (nf × (nc + k·nf)) pyramid rows
  Eigen::MatrixXd A_facet;             // (k·nf × 3nc) the pyramid's facets in p (FE2)

  int nz() const { return nc + k * nf; }
  void build(const Eigen::VectorXd& mu, int edges);

 private:
  // B, A_mu, A_facet at the other sizes met: a trot's held contacts come and go, and Eigen reallocates at
  // every change of size (build() writes every entry).
  ParkedBySize<Eigen::MatrixXd> B_parked_, A_mu_parked_, A_facet_parked_;
};

}  // namespace impetus
