// Kinematics of one leg of a LINKS-type quadruped (models/links): three revolute joints from the body, an
// abduction joint A about ±x, then a hip H and a knee K about ±y, with the segments along ±x at q = 0 and
// the foot point F (the foot sphere's centre) on the knee link's x axis. Positions are in the body frame B.
//
// Forward kinematics, with α = s_A q_A, β = s_H q_H, γ = s_K q_K (s the axes' signs):
//   p_BF = p_BA + R_x(α) (d + R_y(β) (l₁ + R_y(γ) l₂))          d = p_AH, l₁ = p_HK, l₂ = p_KF, all in the
//                                                                 xz-plane of their links at q = 0
// Inverse kinematics (closed form). Write r = p_BF − p_BA. R_y keeps y = 0, so w = d + R_y(β)(…) has w_y = 0
// and r = R_x(α) w gives (r_y, r_z) = (−sin α, cos α) w_z: the foot below the abduction axis (w_z < 0)
// takes α = atan2(r_y, −r_z), w_z = −√(r_y² + r_z²), w_x = r_x. In the sagittal plane u = w − d is a
// two-link chain: with σ = sign of l₁'s x (+1 front legs, −1 hind legs), x = σu_x, y = −σu_z,
//   cos γ = (x² + y² − |l₁|² − |l₂|²) / (2|l₁||l₂|),   γ = ±acos(·) (the branch of the reference pose),
//   β = atan2(y, x) − atan2(|l₂| sin γ, |l₁| + |l₂| cos γ).
// Rates from the Jacobian of the chain, J_i = z_i × (p_F − o_i): q̇ = J⁻¹ ṗ and q̈ = J⁻¹ (p̈ − J̇q̇), where
// J̇q̇ = Σ_i q̇_i (ż_i × (p_F − o_i) + z_i × (ṗ_F − ȯ_i)), ż_i = ω_{i−1} × z_i (the acceleration of F with
// q̈ = 0, body frame fixed).
#pragma once

#include <Eigen/Dense>
#include <string>

#include "dynamics/model.hpp"

namespace impetus {

/// What a leg's inverse kinematics met: a gait's foot target out of reach is an expected outcome (the
/// closed-loop trot keeps the measured pose), so the try_ forms return it instead of throwing.
enum class LegReach { Reached, OutOfReach, Singular };

struct LegJointRates {
  Eigen::Vector3d q, qd, qdd;   // (A, H, K): rad, rad/s, rad/s²
};

class LegKinematics {
 public:
  /// The leg of `model` whose abduction joint moves link `abduction_link` (the hip and knee links are its
  /// child and grandchild), with the foot point p_KF in the knee link's frame. `reference_knee` picks the
  /// knee branch: the IK returns knee angles of its sign. Throws std::invalid_argument naming the link when
  /// the leg is not of the form above (axes, segment directions, one child each).
  LegKinematics(const MultibodyModel& model, int abduction_link, const Eigen::Vector3d& p_KF, double reference_knee);

  /// p_BF at joint angles q (A, H, K).
  Eigen::Vector3d foot_position(const Eigen::Vector3d& q) const;
  /// How far F has moved from a sphere's material contact point by rolling (radius r) with the leg at q
  /// since the leg was at q = 0: r (θ_y, −θ_x, 0), θ_x = s_A q_A, θ_y = s_H q_H + s_K q_K the foot's turns
  /// about B's x and y (exact for the knee and hip alone, first order in the abduction). A sticking foot
  /// keeps F − roll(q, r) fixed (inverse_rates: v_F = −r ẑ × ω).
  Eigen::Vector3d roll(const Eigen::Vector3d& q, double r) const;
  /// ∂p_BF/∂q (3×3).
  Eigen::Matrix3d jacobian(const Eigen::Vector3d& q) const;
  /// Joint angles putting the foot at p_BF. Throws std::domain_error when p_BF is out of reach.
  Eigen::Vector3d inverse(const Eigen::Vector3d& p_BF) const;
  /// q, q̇, q̈ for a foot moving with (p, ṗ, p̈) in B. Throws std::domain_error out of reach or at a
  /// singular configuration (the knee straight or the foot on the abduction axis).
  ///
  /// With rolling_radius r > 0 the foot is a sphere of radius r about F resting on a plane of normal ẑ_B,
  /// and (ṗ, p̈) are the motion of its material contact point C = F − r ẑ_B (a stance foot: C sticks). C's
  /// velocity is v_F + ω × (−r ẑ) = (J + r [ẑ]× J_ω) q̇ ≡ J_C q̇, with J_ω = [z_A z_H z_K] the joint axes,
  /// so q̇ = J_C⁻¹ ṗ and q̈ = J_C⁻¹ (p̈ − J̇q̇ − r ẑ × J̇_ω q̇): a sphere that rolls as the leg turns, as the
  /// simulator's sticking contact makes it, instead of its centre held still, which four sticking feet
  /// could not all do at once.
  LegJointRates inverse_rates(const Eigen::Vector3d& p, const Eigen::Vector3d& pd, const Eigen::Vector3d& pdd,
                              double rolling_radius = 0) const;
  /// inverse without throwing: q is written only when Reached.
  LegReach try_inverse(const Eigen::Vector3d& p_BF, Eigen::Vector3d& q) const;
  /// inverse_rates without throwing: out holds the rates only when Reached.
  LegReach try_inverse_rates(const Eigen::Vector3d& p, const Eigen::Vector3d& pd, const Eigen::Vector3d& pdd,
                             double rolling_radius, LegJointRates& out) const;

 private:
  Eigen::Vector3d p_BA_, d_, l1_, l2_;   // joint offsets (above), m
  double s_A_ = 1, s_H_ = 1, s_K_ = 1;   // signs of the axes (±x, ±y, ±y)
  double knee_branch_ = 1;               // sign of γ the IK returns
};

}  // namespace impetus
