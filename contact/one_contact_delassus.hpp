// The 3×3 Delassus matrix of an island's one contact, the shared start of the models' small-island paths
// (max_dissipation/, stewart_trinkle/, no_slip/ and viscous/single_contact.hpp).
//
//   symbol  size   meaning                                  code
//   ------  -----  ---------------------------------------  ------------------------
//   G       3×nv   the contact's rows [N; S; T]             problem.N, .S, .T (row 0)
//   W       3×3    G M⁻¹ Gᵀ, symmetric                      W
//   b       3      G v*                                     b
//   M⁻¹Gᵀ   nv×3   the velocity change per unit impulse     Minv_N, Minv_S, Minv_T
//
// With p = (p_N, p_S, p_T): v⁺ = v* + M⁻¹Gᵀp, G v⁺ = b + W p, ½v⁺ᵀMv⁺ = ½v*ᵀMv* + bᵀp + ½pᵀWp.
#pragma once

#include <Eigen/Dense>

#include "contact/problem.hpp"
#include "contact/solvers/grow_only.hpp"

namespace impetus {

/// W, b and M⁻¹Gᵀ of contact 0, and their buffers (owned by a model's workspace; grow-only, so that islands of
/// every size in turn allocate nothing once the largest was met: contact/solvers/grow_only.hpp).
struct OneContactDelassus {
  Eigen::Matrix3d W;
  Eigen::Vector3d b;
  VectorView Minv_N{nullptr, 0}, Minv_S{nullptr, 0}, Minv_T{nullptr, 0};   // (nv) the columns of Minv_G
  VectorView row_N{nullptr, 0}, row_S{nullptr, 0}, row_T{nullptr, 0};      // (nv) scratch: the rows of G, dense
  /// (nv×3) M⁻¹Gᵀ, solved for the three columns at once in place: its leading dimension is nv rounded up to
  /// Eigen's alignment, so that each column is an aligned vector that Minv_N, Minv_S, Minv_T view (not copy).
  Eigen::Map<Eigen::MatrixXd, Eigen::AlignedMax, Eigen::OuterStride<>> Minv_G{nullptr, 0, 0, Eigen::OuterStride<>(0)};
  Eigen::VectorXd row_N_storage, row_S_storage, row_T_storage, Minv_G_storage;

  /// Fills W, b and M⁻¹Gᵀ for contact 0 of `problem`. False when W_NN is not positive or an entry is not
  /// finite: the contact cannot be solved in closed form.
  bool compute(const ContactProblem& problem);
  /// v* + M⁻¹Gᵀp into v_plus (nv).
  void velocity(const ContactProblem& problem, const Eigen::Vector3d& p, Eigen::VectorXd& v_plus) const;
};

}  // namespace impetus
