// Text → numbers for the XML readers: the grammar of URDF attribute values.
//
// A number is one token in the C locale (std::from_chars, general format; a leading '+' is accepted
// as urdfdom's stream parser does); it must be finite. A vector is whitespace-separated numbers
// (urdfdom splits on spaces only; we also accept tabs and newlines, which urdfdom would refuse).
#pragma once

#include <Eigen/Geometry>
#include <optional>
#include <string_view>
#include <vector>

namespace impetus::xml {

/// The whole of `text` (surrounding whitespace allowed) as one finite number, else nullopt.
std::optional<double> parse_real(std::string_view text);

/// Whitespace-separated finite numbers, else nullopt (a non-number or non-finite token).
std::optional<std::vector<double>> parse_reals(std::string_view text);

/// True when `text` holds an unexpanded xacro expression, "$(…)" or "${…}".
bool is_xacro_expression(std::string_view text);

/// URDF roll-pitch-yaw, fixed axes: R = Rz(yaw)·Ry(pitch)·Rx(roll).
Eigen::Matrix3d rotation_from_rpy(const Eigen::Vector3d& rpy);

}  // namespace impetus::xml
