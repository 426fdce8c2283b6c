// What a loaded URDF holds, in the terms of urdfdom's facts (../shared/urdf-corpus MANIFEST.json):
// links, joints by type, mimic joints, total mass, collision geometries; and what the conversion
// made of it (degrees of freedom, mass after repairs, warnings). `impetus check` prints it.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "dynamics/model.hpp"
#include "base/load_error.hpp"
#include "sim/urdf/urdf_model.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"

namespace impetus {

struct UrdfSummary {
  std::string name;                                  // the scene's model name, or <robot name>
  std::string file;                                  // the URDF
  int links = 0;
  std::map<std::string, int> joints_by_type;         // every URDF type, zeros included
  int mimic_joints = 0;
  int dof = 0;                                       // velocity coordinates of the URDF's joints (base not counted)
  double mass_as_written = 0;                        // kg, Σ <mass> (urdfdom's total_mass)
  double mass = 0;                                   // kg, as simulated (after inertia floors)
  std::map<std::string, int> collision_geometries;   // box, sphere, cylinder, capsule, mesh
  std::size_t mesh_triangles = 0;                    // over all collision meshes, as loaded
  std::vector<LoadWarning> warnings;
};

UrdfSummary summarize_urdf(const std::string& name, const UrdfModel& urdf, const UrdfInstance& instance,
                           const MultibodyModel& multibody, const std::vector<Geometry>& geometries);

/// Several lines, indented by `indent`, ending in a newline.
void print_summary(std::ostream& out, const UrdfSummary& summary, const std::string& indent = "  ");

}  // namespace impetus
