#include "control/inverse_dynamics/friction_edges.hpp"

#include <cmath>
#include <numbers>

namespace impetus {

void FrictionEdges::build(const Eigen::VectorXd& mu, int edges) {
  nc = static_cast<int>(mu.size());
  k = edges;
  friction_contact.clear();
  for (int c = 0; c < nc; ++c)
    if (mu[c] > 0) friction_contact.push_back(c);
  nf = static_cast<int>(friction_contact.size());
  cos_edge.resize(k);
  sin_edge.resize(k);
  for (int j = 0; j < k; ++j) {
    const double angle = 2 * std::numbers::pi * j / k;
    cos_edge[j] = std::cos(angle);
    sin_edge[j] = std::sin(angle);
  }
  if (k == 4) {   // exact zeros for the axis-aligned pyramid, as the simulator's rows
    cos_edge << 1, 0, -1, 0;
    sin_edge << 0, 1, 0, -1;
  }
  B_parked_.fit(B, 3 * nc, nz());
  B.setZero();
  for (int c = 0; c < nc; ++c) B(c, c) = 1;
  for (int f = 0; f < nf; ++f) {
    const int c = friction_contact[f];
    for (int j = 0; j < k; ++j) {
      B(nc + c, nc + k * f + j) = cos_edge[j];
      B(2 * nc + c, nc + k * f + j) = sin_edge[j];
    }
  }
  A_mu_parked_.fit(A_mu, nf, nz());
  A_mu.setZero();
  for (int f = 0; f < nf; ++f) {
    A_mu(f, friction_contact[f]) = mu[friction_contact[f]];
    A_mu.row(f).segment(nc + k * f, k).setConstant(-1);
  }
  A_facet_parked_.fit(A_facet, k * nf, 3 * nc);
  A_facet.setZero();
  for (int f = 0; f < nf; ++f) {
    const int c = friction_contact[f];
    for (int j = 0; j < k; ++j) {
      const double theta = (2 * j + 1) * std::numbers::pi / k;
      A_facet(k * f + j, c) = mu[c] * std::cos(std::numbers::pi / k);
      A_facet(k * f + j, nc + c) = -std::cos(theta);
      A_facet(k * f + j, 2 * nc + c) = -std::sin(theta);
    }
  }
}

}  // namespace impetus
