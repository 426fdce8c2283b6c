// Reading a URDF file the way urdfdom 3 does (the reference parser of ROS), into a UrdfModel.
//
// What urdfdom accepts, we accept:
//   - elements and attributes it does not know are ignored: <gazebo>, <transmission>, <material>,
//     <drake:…>, <frame>, <safety_controller> values, <calibration>, <contact>, …;
//     and the root <robot> needs a name (may be empty), version "1.0" if given;
//   - a link without <inertial> has no mass; <inertial> without <origin> sits at the link origin;
//   - a joint without <origin> sits at the parent's origin, without <axis> turns about x, <axis>
//     without xyz has a zero axis (refused by the conversion for moving joints);
//   - <limit>: lower and upper default to 0, effort and velocity are required; revolute and
//     prismatic joints need one, continuous and others may have one (its position limits ignored);
//   - <dynamics> needs damping or friction (the other defaults to 0); <mimic> needs joint,
//     multiplier defaults to 1, offset to 0; <safety_controller> needs k_velocity;
//   - <geometry> uses its first child element; mesh scale defaults to "1 1 1";
//   - a sphere of radius 0 (a contact point: Drake's models use them);
//   - a capsule <capsule radius length/> collision, a Bullet and Drake extension urdfdom refuses
//     (it drops the link's remaining collisions); we read it as the capsule of geometry.hpp.
// What urdfdom refuses, we refuse, with file and line: malformed XML, a missing required element or
// attribute, an unknown joint type, a malformed number or vector, duplicate link or joint names,
// joints naming missing links, several roots, no root (a cycle). Stricter than urdfdom (it accepts
// these silently or half-reads them):
//   - non-finite numbers; unexpanded xacro ("$(…)", "${…}" values, <xacro:…> elements):
//     "run xacro first";
//   - a link that is the child of two joints, and cycles that leave a root (urdfdom keeps one parent);
//   - a collision with a malformed or unknown geometry (urdfdom stops reading the link's collisions),
//     non-positive sizes (a sphere's radius may be 0), a zero mesh scale, a collision mesh file that cannot be resolved or does
//     not exist; a mimic naming a missing joint or itself; lower > upper.
// Physical validity (masses, inertias, zero-mass moving links) is checked by the conversion.
#pragma once

#include <string>
#include <vector>

#include "sim/urdf/package_path.hpp"
#include "sim/urdf/urdf_model.hpp"
#include "sim/xml/document.hpp"

namespace impetus {

/// Reads and checks a URDF file; mesh references are resolved with `package_path` (package_path.hpp).
UrdfModel read_urdf(const std::string& path, const std::vector<std::string>& package_path = ros_package_path());

/// The same for URDF text; `file` names it in messages and anchors relative paths.
UrdfModel read_urdf_string(const std::string& text, const std::string& file,
                           const std::vector<std::string>& package_path = ros_package_path());

/// An <inertial> element (URDF grammar; also used by scene bodies). `strict` refuses unknown
/// attributes and children (scene files), otherwise they are ignored (URDF).
UrdfInertial read_inertial(const xml::Element& inertial, bool strict);

/// A <geometry> element. URDF (`strict` false): its first child element is the shape, others are
/// ignored. Scene (`strict` true): exactly one known shape element with only its own attributes.
/// A mesh's file is resolved against `base_dir` and must exist.
UrdfGeometry read_geometry(const xml::Element& geometry, bool strict, const std::string& base_dir,
                           const std::vector<std::string>& package_path);

}  // namespace impetus
