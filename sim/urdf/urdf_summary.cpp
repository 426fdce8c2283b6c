#include "sim/urdf/urdf_summary.hpp"

#include <variant>

namespace impetus {

UrdfSummary summarize_urdf(const std::string& name, const UrdfModel& urdf, const UrdfInstance& instance,
                           const MultibodyModel& multibody, const std::vector<Geometry>& geometries) {
  UrdfSummary s;
  s.name = name;
  s.file = urdf.file;
  s.links = static_cast<int>(urdf.links.size());
  for (UrdfJointType type : {UrdfJointType::Revolute, UrdfJointType::Continuous, UrdfJointType::Prismatic,
                             UrdfJointType::Fixed, UrdfJointType::Floating, UrdfJointType::Planar})
    s.joints_by_type[urdf_joint_type_name(type)] = 0;
  for (std::size_t j = 0; j < urdf.joints.size(); ++j) {
    const UrdfJoint& joint = urdf.joints[j];
    ++s.joints_by_type[urdf_joint_type_name(joint.type)];
    if (joint.mimic) ++s.mimic_joints;
    s.dof += joint_nv(multibody.links[instance.joint_link[j]].joint.type);
  }
  s.mass_as_written = urdf.total_mass();
  for (int link : instance.link_index) s.mass += multibody.links[link].inertia.mass;
  for (const UrdfLink& link : urdf.links)
    for (const UrdfCollision& c : link.collisions) {
      switch (c.geometry.kind) {
        case UrdfGeometry::Kind::Box: ++s.collision_geometries["box"]; break;
        case UrdfGeometry::Kind::Sphere: ++s.collision_geometries["sphere"]; break;
        case UrdfGeometry::Kind::Cylinder: ++s.collision_geometries["cylinder"]; break;
        case UrdfGeometry::Kind::Capsule: ++s.collision_geometries["capsule"]; break;
        case UrdfGeometry::Kind::Mesh: ++s.collision_geometries["mesh"]; break;
      }
    }
  std::vector<bool> ours(multibody.links.size(), false);
  for (int link : instance.link_index) ours[link] = true;
  for (const Geometry& g : geometries)
    if (const Mesh* mesh = std::get_if<Mesh>(&g.shape); mesh && g.link >= 0 && ours[g.link])
      s.mesh_triangles += mesh->triangles.size();
  s.warnings = instance.warnings;
  return s;
}

void print_summary(std::ostream& out, const UrdfSummary& s, const std::string& indent) {
  out << indent << "model '" << s.name << "' from " << s.file << '\n';
  out << indent << "  links " << s.links << "; joints";
  int joints = 0;
  for (const auto& [type, n] : s.joints_by_type) joints += n;
  out << ' ' << joints << " (";
  bool first = true;
  for (const auto& [type, n] : s.joints_by_type)
    if (n > 0) {
      out << (first ? "" : ", ") << type << ' ' << n;
      first = false;
    }
  out << "); mimic " << s.mimic_joints << "; DoF " << s.dof << '\n';
  out << indent << "  total mass " << s.mass << " kg";
  if (s.mass != s.mass_as_written) out << " (" << s.mass_as_written << " kg as written)";
  out << "; collision geometries";
  if (s.collision_geometries.empty()) out << " none";
  for (const auto& [kind, n] : s.collision_geometries) out << ' ' << kind << ' ' << n;
  if (s.mesh_triangles > 0) out << " (" << s.mesh_triangles << " mesh triangles)";
  out << '\n' << indent << "  warnings " << s.warnings.size() << '\n';
  for (const LoadWarning& w : s.warnings) out << indent << "    " << w.text() << '\n';
}

}  // namespace impetus
