// Scene files → World: the scene format of DESIGN.md ("Scene files"), every element and attribute of
// its core, and unknown elements or attributes refused.
//
//   <scene name strict?>               name defaults to the file's stem; no '/'; strict="true" (or
//                                      SceneLoadOptions::strict, --strict) refuses what the URDF
//                                      conversion would repair with a warning (urdf_to_multibody.hpp)
//     <physics dt duration gravity contact_model mu mu_viscous>   at most one; defaults of PhysicsSettings
//       <MODEL attr="…"/>              options of one contact model (is_contact_model(MODEL)), kept as
//                                      strings in PhysicsSettings::model_options[MODEL] and checked by
//                                      make_contact_model(MODEL, options); so is the chosen model
//       <collision margin exclude_parent_child/>   (addition) WorldModel::collision
//     <ground mu mu_viscous/>          at most one: the plane z = 0; mu, mu_viscous default to <physics>'s
//     <body name mass|density static>
//       <origin xyz rpy/>              pose of the body frame L in W (rpy: URDF fixed-axis)
//       <velocity linear angular/>     of L's origin and of L, in W (free bodies only)
//       <inertial>                     as in URDF; else from the collision geometry, uniform, with the
//                                      body's mass or density (collision/mass_properties.hpp; meshes
//                                      must be closed; overlaps count twice)
//       <collision name?> <origin/> <geometry> box | sphere | cylinder | capsule | mesh </geometry>
//     <model name urdf base="floating|fixed" check_triangle_inequality?>
//       <origin xyz rpy/>              pose of the URDF's root link
//       <joint name position velocity/>   initial coordinates of a 1-DoF URDF joint
//     <contact a b mu mu_viscous/>     per-pair override; a, b body IDs (a body's name, MODEL/LINK,
//                                      or "ground"); mu, mu_viscous default to <physics>'s
//
// Semantics:
//   - a free body is a one-link tree on a floating joint, starting at <origin>; a static body
//     (static="true") a one-link tree on a fixed joint at <origin>, without mass, density, inertial
//     or velocity. A free body needs exactly one of mass and density when it has no <inertial>;
//     with an <inertial>, a mass attribute must agree with it and density is refused;
//   - a model's links become links MODEL/LINK (sim/urdf/urdf_to_multibody.hpp), its root attached
//     to the world by a fixed or floating joint at <origin>; base is required; every 1-DoF joint is
//     recorded as "MODEL.JOINT" (WorldModel::recorded_joints), in URDF file order;
//     check_triangle_inequality="false" (addition) accepts URDF inertias that break the triangle
//     inequality (many CAD-exported models do; see inertia_checks.hpp);
//   - the initial State: q neutral except floating joints (origin position, quaternion (w,x,y,z))
//     and <joint position>; a 1-DoF joint whose limits exclude 0 starts at its nearest limit; v zero except <velocity> and <joint velocity>. The floating joint's v
//     is (v_WC, ω) (dynamics/model.hpp): v_WC = v_WL + ω × (p_WC − p_WL) from <velocity>;
//   - names: body and model names are unique, non-empty, without '/' (and models without '.');
//     "ground" is reserved; <joint> and <contact> pairs not repeated; a joint position lies within
//     its limits;
//   - paths are relative to the scene file (package:// and file:// as in package_path.hpp);
//   - finally every tree's joint-space inertia M(q₀) must be positive definite
//     (λ_min > kMassMatrixTolerance · λ_max), else the joints spanning its null space are named.
// Everything is checked before the World is returned; a refusal is a LoadError naming the file (the
// scene, or the URDF or mesh at fault) and the line.
#pragma once

#include <string>

#include "sim/world.hpp"

namespace impetus {

/// Round-off in M(q₀) from the composite-rigid-body algorithm is ~1e-14·λ_max for trees of tens of
/// links; real robots (a 250 kg base with 1e-6 kg·m² fingertips) stay above ~1e-9·λ_max.
constexpr double kMassMatrixTolerance = 1e-12;

struct SceneLoadOptions {
  bool strict = false;  // refuse URDF inertias the loader would repair (also <scene strict="true">)
};

World load_scene(const std::string& path, const SceneLoadOptions& options = {});

/// The same from text; `path` names it in messages and anchors its relative paths.
World load_scene_string(const std::string& text, const std::string& path, const SceneLoadOptions& options = {});

}  // namespace impetus
