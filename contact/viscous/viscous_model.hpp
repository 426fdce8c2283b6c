// The purely viscous friction model of seed 000 (§IV), discretised at the velocity level with the
// friction taken implicitly, and solved by the same principal pivoting method as no-slip.
//
// Paper (acceleration level, (13)–(15), (29)–(32)): M v̇ = f − Σ_i μ_v,i (s_i s_iᵀ + t_i t_iᵀ) v
// + Nᵀ f_N, with 0 ≤ f_N ⊥ N v̇ + Ṅ v ≥ 0. The friction force is known given v; only the normal forces
// are unknown, and the LCP matrix N M⁻¹ Nᵀ is symmetric PSD. (Its (39)/(42) have the sign of f*
// flipped and drop J̇v, Ṅv: errata E3, E4.)
//
// Discretisation chosen here, so that the step is stable at any dt and μ_v. Over one step, with impulses and
// the friction evaluated at the end of the step (backward Euler on the viscous term only):
//     M v⁺ = M v* − dt K v⁺ + Nᵀ p_N + Lᵀ p_L,   K = Σ_i μ̃_i (s_i s_iᵀ + t_i t_iᵀ) = Sᵀμ̃S + Tᵀμ̃T  (V1)
//     0 ≤ p_N ⊥ N v⁺ + φ/dt ≥ 0,   0 ≤ p_L ⊥ L v⁺ + φ_L/dt ≥ 0                                  (V2)
// With W = M + dt K (SPD: M SPD, K PSD) and v_f = W⁻¹ M v*, (V1)–(V2) are the KKT conditions of
//     v⁺ = argmin ½ (v − v_f)ᵀ W (v − v_f)  s.t.  N v ≥ −φ/dt,  L v ≥ −φ_L/dt                  (V3)
// — unilateral_projection.hpp with G empty — so the LCP matrix N W⁻¹ Nᵀ stays symmetric PSD and
// Algorithm 1 applies unchanged. The friction impulses are p_S = −dt μ̃ S v⁺, p_T = −dt μ̃ T v⁺, so
// (V1) is the common equation of motion of contact/problem.hpp, and the friction power
// p_Sᵀ S v⁺ + p_Tᵀ T v⁺ = −dt v⁺ᵀ K v⁺ ≤ 0 at every contact, whatever dt.
//
// Error of the discretisation. For a body of mass m sliding on a plane with total coefficient μ_v
// (a = μ_v/m, x = a·dt), (V1) gives v_k = v₀ (1 + x)^(−k), the exact v(t) = v₀ e^(−a t). Since
// x − x²/2 ≤ ln(1 + x) ≤ x,
//     v(t_k) ≤ v_k ≤ v(t_k) · e^(k x²/2) = v(t_k) · e^(a² dt t_k / 2),                         (V4)
// a first-order error, relative a²·dt·t/2, that never overshoots: the decay is never faster than the
// exact one and v_k > 0 for every dt (explicit Euler would overshoot past 0 for dt > 2m/μ_v).
// Coupling between bodies, Ṅv and the gap term are treated as in no-slip: first order.
//
// Per-contact coefficient μ̃ (notes P9: the paper's sum over contacts multiplies friction by the
// number of contact points the collision stage happens to return):
//   mu_viscous_per = "pair" (default): μ_v of a pair (the scene's <contact mu_viscous> or the
//       default) is the coefficient of the pair's whole contact, shared equally by its points:
//       μ̃_i = μ_v,i / n_pair(i), pairs identified by the geometries of ContactProblem::keys. A box
//       sliding flat on the ground decays as e^(−μ_v t/m) whatever the number of points.
//   mu_viscous_per = "point": μ̃_i = μ_v,i, the paper's literal (15).
// Coulomb μ is not used (the model is purely viscous).
//
// W is block diagonal over systems when no viscous row couples two systems (bodies on static
// ground); each block W_b = M_b + dt K_b is then factored alone. Otherwise W is factored densely
// (O(nv³) per step, independent of the number of contacts).
//
// One contact and no joint limit: first in closed form on the 3×3 Delassus matrix (single_contact.hpp,
// VS1–VS2, (V3) by Woodbury) without forming W; kept when it meets the certificate of (V3)'s projection
// (ρ ≤ certificate_tolerance at the same s_v), otherwise the general path unchanged.
//
// Free motion: when v* violates no row — N v* + φ/dt ≥ 0, L v* + φ_L/dt ≥ 0 as computed, and |S_i v*|, |T_i v*|
// ≤ tol·s_v on every contact with μ̃_i > 0 (contact/free_motion.hpp FM1–FM2) — v_f is v* but for a slip below the
// certificate's resolution, and v⁺ = v*, p = 0 answers (V3): Solved, ρ = 0, W not built (a pile in free fall).
#pragma once

#include <memory>

#include "contact/contact_model.hpp"
#include "contact/solvers/unilateral_projection.hpp"
#include "contact/viscous/single_contact.hpp"

namespace impetus {

enum class ViscousDistribution { Pair, Point };

struct ViscousOptions {
  ProjectionOptions projection;
  ViscousDistribution distribution = ViscousDistribution::Pair;   // attribute mu_viscous_per

  // For programs (benchmarks, tests), not a scene attribute:
  /// An island of one contact and no joint limit is solved in closed form on its 3×3 Delassus matrix
  /// (single_contact.hpp), kept only when it meets the general path's certificate; false sends it to the
  /// general path like every other island (tests compare the two). Only under the principal pivoting
  /// solver, whose one-step answer it is: `solver="lemke"` asks for Lemke's pivots on every island (seed 000's
  /// comparison of the two, the seed000_walk replay).
  bool single_contact_closed_form = true;
  /// An island whose v* violates no row (contact/free_motion.hpp FM1, FM2 on its contacts with μ̃ > 0) takes
  /// v⁺ = v* without building W or pivoting, under the principal pivoting solver; false sends it to the general
  /// path (tests compare the two).
  bool free_motion = true;

  /// Parses <physics><viscous …/>; throws OptionError for an unknown key or a bad value.
  static ViscousOptions parse(const ModelOptions& options);
};

/// What a solve did (ContactResult::report).
struct ViscousReport {
  ProjectionReport projection;
  bool dense_metric = false;        // W factored as one dense matrix (viscous rows couple systems)
  double friction_power = 0;        // Σ_i p_S,i S_i v⁺ + p_T,i T_i v⁺, divided by dt (W); ≤ 0
};

class ViscousModel final : public ContactModel {
 public:
  explicit ViscousModel(ViscousOptions options = {}) : options_(options) {}
  /// The factory's entry (contact/factory.cpp): parses the scene's options, throws OptionError.
  static std::unique_ptr<ContactModel> create(const ModelOptions& options) {
    return std::make_unique<ViscousModel>(ViscousOptions::parse(options));
  }
  std::string_view name() const override { return "viscous"; }
  std::unique_ptr<ContactWorkspace> make_workspace() const override;
  using ContactModel::solve;
  void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const override;

  const ViscousOptions& options() const { return options_; }

 private:
  /// The buffers of its solves (ContactWorkspace): what the model object must not hold.
  struct Workspace final : ContactWorkspace {
    VectorView mu_{nullptr, 0};                             // (nc) μ̃
    std::vector<int> order_;                                // (nc) scratch of the pair grouping
    std::vector<int> block_of_column_;                      // (nv)
    std::vector<Eigen::MatrixXd> W_block_;                  // per system: M_b + dt K_b
    std::vector<Eigen::LLT<Eigen::MatrixXd>> W_block_llt_;
    std::vector<const Eigen::LLT<Eigen::MatrixXd>*> factors_;
    std::vector<char> block_has_friction_;
    std::vector<char> slip_charged_;                        // (nc) μ̃_i > 0: the rows (FM2) must hold
    Eigen::MatrixXd W_dense_;
    BlockInertia W_blocks_;
    DenseInertia W_full_;
    const InertiaOperator* W_ = nullptr;
    DelassusFactor factor_;
    UnilateralProjection projection_;
    UnilateralRows U_;
    // Grow-only (contact/solvers/grow_only.hpp): v_f = W⁻¹ M v*, z = [p_N; p_L], λ_G, the warm start.
    VectorView v_f_{nullptr, 0}, z_{nullptr, 0}, lambda_G_{nullptr, 0}, guess_{nullptr, 0};
    Eigen::VectorXd mu_storage_, v_f_storage_, z_storage_, lambda_G_storage_, guess_storage_;
    ViscousSingleContact single_;   // one contact (single_contact.hpp)
  };
  void distribute_coefficients(Workspace& ws, const ContactProblem& problem) const;
  /// The closed form's answer as the model's result and report (v⁺ already in the result).
  void take_single_contact(const ContactProblem& problem, const Workspace& ws, ContactResult& result,
                           ViscousReport& report) const;
  /// v⁺ = v* with no normal impulse as the result, when it violates no row (free_motion.hpp); false otherwise.
  bool take_free_motion(const ContactProblem& problem, Workspace& ws, ContactResult& result,
                        ViscousReport& report) const;
  bool build_metric(Workspace& ws, const ContactProblem& problem, ViscousReport& report) const;

  ViscousOptions options_;
};

}  // namespace impetus
