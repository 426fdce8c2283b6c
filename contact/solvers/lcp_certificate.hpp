// The certificate ρ of an LCP solution (lemke.hpp, L6) on vectors in any storage: the views of a workspace's
// grow-only buffers (contact/solvers/grow_only.hpp) as well as VectorXd (lemke.hpp's lcp_certificate is this
// one on VectorXd).
#pragma once

#include <Eigen/Dense>

namespace impetus {

/// ρ of (L6) for z and w = A z + q (all n); az_norm = ‖A z‖∞ stands in for ‖q‖∞ when q = 0.
double certificate_rho(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& z,
                       const Eigen::Ref<const Eigen::VectorXd>& w, double az_norm);

}  // namespace impetus
