// Inertias as the multibody model wants them, the tests that a mass and an inertia can belong to a
// rigid body, and the repairs applied to URDF inertias that fail them (the loaders' policy).
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
//
// Repair of (3) (the loaders' default; --strict refuses instead). CAD exports and hand-written files
// often break (3) — a sensor's box inertia typed with one moment per axis, a point mass written as a
// rod. The repair keeps the principal axes, the mass and the centre of mass, and moves the principal
// moments by the smallest change (Euclidean, in λ) that restores (3): the projection of λ on the
// half-space λ₁ + λ₂ − λ₃ ≥ 0, whose normal is (1, 1, −1)/√3. With the deficit d = λ₃ − λ₁ − λ₂ > 0,
//   λ' = λ + (d/3)·(1, 1, −1)                                                                  (4)
// so that λ'₁ + λ'₂ = λ'₃: the nearest physical inertia is the limit of a flat plate (all mass in the
// plane of the two smaller axes). Order and sign are kept: λ'₃ − λ'₂ = λ₁ + d/3 ≥ 0 and λ'₃ ≥ 2λ₃/3.
// (MuJoCo's `balanceinertia` instead raises the smaller moments only; (4) changes the moments by
// d/√3 in norm, less than the d/√2 of raising λ₁ and λ₂ alone.)
//
// A violation of (2) beyond rounding (a negative principal moment), a negative mass, and non-finite
// values (refused by the XML reader) are errors in the file, not sloppiness: refused in every mode.
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

/// Principal moments λ₁ ≤ λ₂ ≤ λ₃ of a symmetric inertia.
Eigen::Vector3d principal_moments(const Eigen::Matrix3d& I);

/// True when (3) fails by more than the rounding tolerance (and (2) holds within it).
bool breaks_triangle_inequality(const Eigen::Matrix3d& I);

/// The inertia with its principal moments moved by (4), about the same principal axes.
Eigen::Matrix3d restore_triangle_inequality(const Eigen::Matrix3d& I);

}  // namespace impetus
