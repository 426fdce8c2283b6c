#include "collision/mass_properties.hpp"

#include <cmath>
#include <map>
#include <numbers>

namespace impetus {
namespace {

constexpr double kPi = std::numbers::pi;

/// I = tr(Σ)·1 − Σ  (eq. 2).
Eigen::Matrix3d inertia_from_second_moment(const Eigen::Matrix3d& Sigma) {
  return Sigma.trace() * Eigen::Matrix3d::Identity() - Sigma;
}

/// Unit-density volume integrals of a mesh about its vertex centroid O (eq. 3): V, ∫(p−O) dV, Σ_O.
struct MeshIntegrals {
  double V = 0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  Eigen::Vector3d O = Eigen::Vector3d::Zero();
};

MeshIntegrals mesh_integrals(const Mesh& mesh) {
  MeshIntegrals out;
  if (mesh.vertices.empty()) return out;
  // Taking O inside the mesh's extent keeps the tetrahedra small and the sums well conditioned.
  for (const Eigen::Vector3d& v : mesh.vertices) out.O += v;
  out.O /= static_cast<double>(mesh.vertices.size());
  for (const Eigen::Vector3i& t : mesh.triangles) {
    const Eigen::Vector3d a = mesh.vertices[t[0]] - out.O, b = mesh.vertices[t[1]] - out.O,
                          c = mesh.vertices[t[2]] - out.O;
    const double d = a.dot(b.cross(c));  // 6 × the signed volume of the tetrahedron (O, a, b, c)
    const Eigen::Vector3d s = a + b + c;
    out.V += d / 6;
    out.first += d / 24 * s;
    out.second += d / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (out.V < 0) {  // wound inwards: the same solid with the orientation reversed
    out.V = -out.V;
    out.first = -out.first;
    out.second = -out.second;
  }
  return out;
}

MassProperties mesh_mass_properties(const Mesh& mesh, double density) {
  const MeshIntegrals m = mesh_integrals(mesh);
  MassProperties out;
  if (m.V <= 0) return out;
  const Eigen::Vector3d r = m.first / m.V;                              // C − O
  const Eigen::Matrix3d Sigma_C = m.second - m.V * r * r.transpose();   // shift Σ from O to C
  out.mass = density * m.V;
  out.com = m.O + r;
  out.I_C = density * inertia_from_second_moment(Sigma_C);
  return out;
}

struct VolumeVisitor {
  double operator()(const Sphere& s) const { return 4.0 / 3.0 * kPi * std::pow(s.radius, 3); }
  double operator()(const Box& b) const { return b.size.prod(); }
  double operator()(const Cylinder& c) const { return kPi * c.radius * c.radius * c.length; }
  double operator()(const Capsule& c) const {
    return kPi * c.radius * c.radius * c.length + 4.0 / 3.0 * kPi * std::pow(c.radius, 3);
  }
  double operator()(const Mesh& m) const { return mesh_integrals(m).V; }
};

struct MassVisitor {
  double rho;
  MassProperties operator()(const Sphere& s) const {
    MassProperties p;
    p.mass = rho * VolumeVisitor{}(s);
    p.I_C = 2.0 / 5.0 * p.mass * s.radius * s.radius * Eigen::Matrix3d::Identity();
    return p;
  }
  MassProperties operator()(const Box& b) const {
    MassProperties p;
    p.mass = rho * VolumeVisitor{}(b);
    const Eigen::Vector3d s2 = b.size.cwiseAbs2();
    p.I_C = p.mass / 12 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal();
    return p;
  }
  MassProperties operator()(const Cylinder& c) const {
    MassProperties p;
    p.mass = rho * VolumeVisitor{}(c);
    const double r2 = c.radius * c.radius, h2 = c.length * c.length;
    const double transverse = p.mass * (3 * r2 + h2) / 12;
    p.I_C = Eigen::Vector3d(transverse, transverse, p.mass * r2 / 2).asDiagonal();
    return p;
  }
  MassProperties operator()(const Capsule& c) const {
    MassProperties p;
    const double r = c.radius, h = c.length;
    const double m_c = rho * kPi * r * r * h;                   // cylinder part
    const double m_s = rho * 4.0 / 3.0 * kPi * r * r * r;       // both hemispheres
    p.mass = m_c + m_s;
    const double axial = m_c * r * r / 2 + 2.0 / 5.0 * m_s * r * r;
    const double transverse = m_c * (3 * r * r + h * h) / 12 + m_s * (2.0 / 5.0 * r * r + h * h / 4 + 3.0 / 8.0 * h * r);
    p.I_C = Eigen::Vector3d(transverse, transverse, axial).asDiagonal();
    return p;
  }
  MassProperties operator()(const Mesh& m) const { return mesh_mass_properties(m, rho); }
};

}  // namespace

double shape_volume(const Shape& shape) { return std::visit(VolumeVisitor{}, shape); }

MassProperties shape_mass_properties(const Shape& shape, double density) {
  return std::visit(MassVisitor{density}, shape);
}

MassProperties transformed(const MassProperties& body_G, const Eigen::Isometry3d& X_FG) {
  MassProperties out;
  out.mass = body_G.mass;
  out.com = X_FG * body_G.com;
  out.I_C = X_FG.linear() * body_G.I_C * X_FG.linear().transpose();
  return out;
}

MassProperties combined(const std::vector<MassProperties>& bodies_F) {
  MassProperties out;
  for (const MassProperties& b : bodies_F) {
    out.mass += b.mass;
    out.com += b.mass * b.com;
  }
  // Massless parts (bare frames, or a rotational inertia without mass) add no parallel-axis term.
  out.com = out.mass > 0 ? Eigen::Vector3d(out.com / out.mass) : Eigen::Vector3d::Zero();
  for (const MassProperties& b : bodies_F) {
    const Eigen::Vector3d d = b.com - out.com;
    out.I_C += b.I_C + b.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return out;
}

double union_volume(const std::vector<PlacedShape>& shapes) {
  double V = 0;
  for (const PlacedShape& s : shapes) V += shape_volume(*s.shape);
  return V;
}

MassProperties union_mass_properties(const std::vector<PlacedShape>& shapes, double density) {
  std::vector<MassProperties> parts;
  parts.reserve(shapes.size());
  for (const PlacedShape& s : shapes) parts.push_back(transformed(shape_mass_properties(*s.shape, density), s.X_FG));
  return combined(parts);
}

MassProperties union_mass_properties_for_mass(const std::vector<PlacedShape>& shapes, double mass) {
  const double V = union_volume(shapes);
  if (V <= 0) return MassProperties{};
  return union_mass_properties(shapes, mass / V);
}

MeshClosure mesh_closure(const Mesh& mesh) {
  // Per undirected edge {i < j}: how many triangles run along i→j and along j→i.
  std::map<std::pair<int, int>, std::pair<int, int>> runs;
  for (const Eigen::Vector3i& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const int i = t[k], j = t[(k + 1) % 3];
      auto& count = runs[{std::min(i, j), std::max(i, j)}];
      (i < j ? count.first : count.second) += 1;
    }
  MeshClosure out;
  for (const auto& [edge, count] : runs) {
    const int uses = count.first + count.second;
    if (uses == 1) ++out.boundary_edges;
    else if (uses > 2) ++out.non_manifold_edges;
    else if (count.first != 1) ++out.misoriented_edges;
  }
  return out;
}

}  // namespace impetus
