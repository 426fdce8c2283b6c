// Inertias as the multibody model wants them, and the tests that a mass and an inertia can belong to
// a rigid body.
//
// URDF gives I_I about the centre of mass in the inertial frame I, placed in the link by X_LI = [R_LI p_LC];
// the model wants I_C in the axes of L:                       I_C = R_LI · I_I · R_LIᵀ         (1)
//
// A rigid body's rotational inertia about its centre of mass, I_C = ∫(|r|²·1 − r rᵀ) dm, has principal
// moments λ₁ ≤ λ₂ ≤ λ₃ with
//   λ₁ ≥ 0                          (positive semi-definite)                                  (2)
//   λ₁ + λ₂ ≥ λ₃                    (triangle inequality: λ₁ + λ₂ − λ₃ = 2∫c² dm ≥ 0 along the
//                                    principal axis c of λ₃)                                  (3)
// Zero moments are limits that real parts approach (a point mass, a thin rod), and a link without
// mass is a bare frame; whether the bodies a joint moves have inertia along its motion is a separate,
// per-joint test (urdf_to_multibody.hpp).
#pragma once

#include <Eigen/Core>
#include <string>

#include "dynamics/model.hpp"
#include "sim/urdf/urdf_model.hpp"

namespace impetus {

/// Values in URDF files are printed with about 6 significant digits: a physical inertia may miss
/// (2) or (3) by rounding of order 1e-6 of its trace; violations larger than this are real.
constexpr double kInertiaRoundingTolerance = 1e-6;

/// The link's mass properties in L from its <inertial>, eq. (1).
Inertia link_inertia(const UrdfInertial& inertial);

/// Why `mass` and `I_C` cannot be a rigid body's, or an empty string: a negative mass, (2) or, when
/// `check_triangle_inequality`, (3) violated by more than kInertiaRoundingTolerance · tr(I_C).
std::string inertia_defect(double mass, const Eigen::Matrix3d& I_C, bool check_triangle_inequality);

}  // namespace impetus
