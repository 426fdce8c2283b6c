// <body>: a free body (one link on a floating joint) or a static one (one link on a fixed joint).
#include <cmath>

#include "collision/mass_properties.hpp"
#include "base/load_error.hpp"
#include "sim/scene/scene_parts.hpp"
#include "sim/urdf/inertia_checks.hpp"
#include "sim/urdf/urdf_parser.hpp"

namespace impetus::scene {
namespace {

/// The mass attribute and an <inertial>'s mass are the same number written twice: they must agree
/// to the digits a person types (12 significant digits are far more than anyone writes).
constexpr double kMassAgreement = 1e-12;

struct BodyCollision {
  Geometry geometry;
  int line = 0;
  std::string filename;  // meshes: as written
};

Eigen::Isometry3d unique_pose(const xml::Element& body) {
  const std::optional<xml::Element> origin = body.unique_child("origin");
  if (!origin) return Eigen::Isometry3d::Identity();
  origin->allow_only({"xyz", "rpy"}, {});
  return origin->pose();
}

std::vector<BodyCollision> read_collisions(const xml::Element& body, SceneBuild& build) {
  std::vector<BodyCollision> out;
  for (const xml::Element& c : body.children("collision")) {
    c.allow_only({"name"}, {"origin", "geometry"});
    const UrdfGeometry g = read_geometry(c.required_child("geometry"), true, build.base_dir, build.package_path);
    BodyCollision collision;
    collision.line = g.line;
    collision.filename = g.filename;
    collision.geometry.name = c.text_or("name", body.text("name") + "#" + std::to_string(out.size()));
    collision.geometry.file = build.file;
    collision.geometry.line = g.line;
    collision.geometry.X_LG = unique_pose(c);
    collision.geometry.shape = collision_shape(g, build.file, build.meshes);
    out.push_back(std::move(collision));
  }
  return out;
}

/// Mass properties in L of a uniform solid filling the collision shapes, with the body's mass or
/// density (mass_properties.hpp). Meshes must bound a solid.
Inertia inertia_from_geometry(const xml::Element& body, const std::vector<BodyCollision>& collisions, SceneBuild& build) {
  if (collisions.empty())
    body.fail("has neither an <inertial> nor <collision> geometry to compute its inertia from");
  std::vector<PlacedShape> shapes;
  for (const BodyCollision& c : collisions) {
    if (const Mesh* mesh = std::get_if<Mesh>(&c.geometry.shape)) {
      const MeshClosure closure = mesh_closure(*mesh);
      if (!closure.closed())
        throw LoadError(build.file, c.line,
                        "<mesh filename=\"" + c.filename + "\">: the mesh does not bound a solid (" +
                            std::to_string(closure.boundary_edges) + " boundary, " +
                            std::to_string(closure.non_manifold_edges) + " non-manifold and " +
                            std::to_string(closure.misoriented_edges) +
                            " misoriented edges), so the body's inertia cannot be computed from it: give an <inertial>");
    }
    shapes.push_back({&c.geometry.shape, c.geometry.X_LG});
  }
  if (!(union_volume(shapes) > 0))
    body.fail("its collision geometry has no volume, so its inertia cannot be computed from it: give an <inertial>");
  const MassProperties p = body.has("mass") ? union_mass_properties_for_mass(shapes, body.positive("mass"))
                                            : union_mass_properties(shapes, body.positive("density"));
  return Inertia{p.mass, p.com, p.I_C};
}

Inertia free_body_inertia(const xml::Element& body, const std::vector<BodyCollision>& collisions, SceneBuild& build) {
  const std::optional<xml::Element> inertial = body.unique_child("inertial");
  if (!inertial) {
    if (body.has("mass") == body.has("density"))
      body.fail("a free body without <inertial> needs exactly one of mass and density");
    return inertia_from_geometry(body, collisions, build);
  }
  const UrdfInertial in = read_inertial(*inertial, true);
  if (body.has("density")) body.fail("density and <inertial> both given; the <inertial> holds the mass");
  if (!(in.mass > 0)) throw LoadError(build.file, in.mass_line, "<mass>: a free body's mass must be positive");
  if (body.has("mass") && std::abs(body.positive("mass") - in.mass) > kMassAgreement * in.mass)
    body.fail("mass " + body.text("mass") + " differs from its <inertial> mass " + std::to_string(in.mass));
  const std::string defect = inertia_defect(in.mass, in.I_I, true);
  if (!defect.empty()) throw LoadError(build.file, in.inertia_line, "<inertia>: " + defect);
  return link_inertia(in);
}

}  // namespace

void add_body(const xml::Element& body, SceneBuild& build) {
  body.allow_only({"name", "mass", "density", "static", "mesh_collision"}, {"origin", "velocity", "inertial", "collision"});
  const std::string name = body.text("name");
  claim_name(body, name, "", build);
  const bool is_static = body.boolean_or("static", false);
  const Eigen::Isometry3d X_WL = unique_pose(body);
  std::vector<BodyCollision> collisions = read_collisions(body, build);
  const bool exact_meshes = exact_mesh_collision(body);
  for (BodyCollision& c : collisions)
    if (Mesh* mesh = std::get_if<Mesh>(&c.geometry.shape)) mesh->exact = exact_meshes;

  Link link;
  link.name = name;
  link.joint.name = name;
  if (is_static) {
    for (const char* a : {"mass", "density"})
      if (body.has(a)) body.fail(std::string("a static body takes no ") + a);
    for (const char* c : {"inertial", "velocity"})
      if (body.child(c)) body.child(c)->fail("a static body takes no <" + std::string(c) + ">");
    link.joint.type = JointType::Fixed;
    link.joint.X_PJ = X_WL;
  } else {
    link.joint.type = JointType::Floating;
    link.inertia = free_body_inertia(body, collisions, build);
  }

  MultibodyModel& multibody = build.model.multibody;
  const int index = static_cast<int>(multibody.links.size());
  multibody.add_tree(name, {link});
  build.tree_lines.push_back(body.line());
  for (BodyCollision& c : collisions) {
    c.geometry.link = index;
    build.model.geometries.push_back(std::move(c.geometry));
  }
  if (is_static) return;
  build.initial.floating_poses.emplace_back(index, X_WL);
  if (const std::optional<xml::Element> velocity = body.unique_child("velocity")) {
    velocity->allow_only({"linear", "angular"}, {});
    build.initial.body_velocities.push_back({index, velocity->vector3_or("linear", Eigen::Vector3d::Zero()),
                                             velocity->vector3_or("angular", Eigen::Vector3d::Zero())});
  }
}

}  // namespace impetus::scene
