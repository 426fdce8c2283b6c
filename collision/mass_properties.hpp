// Mass properties of uniform solids: volume V, centre of mass C and rotational inertia I_C of each
// shape of geometry.hpp, and of a union of shapes at poses. Used when a scene body has no <inertial>.
//
// Glossary (frames as in geometry.hpp: G a shape's frame, F the frame the caller works in, e.g. L):
//   ρ        density (kg/m³);  m = ρ·V
//   p_FC     centre of mass in F
//   I_C      rotational inertia about C, axes of F:  I_C = ∫ρ (|r|²·1 − r rᵀ) dV,  r = p − p_FC   (1)
//   Σ        second moment about a point O:  Σ_O = ∫ρ (p − O)(p − O)ᵀ dV,  so that I = tr(Σ)·1 − Σ    (2)
//
// Closed forms (shapes centred on G, axes along G's z as in geometry.hpp):
//   box a×b×c          V = abc                 I = m/12·diag(b²+c², a²+c², a²+b²)
//   sphere r           V = 4/3·πr³             I = 2/5·m r²·1
//   cylinder r, h      V = πr²h                Izz = m r²/2,  Ixx = Iyy = m(3r² + h²)/12
//   capsule r, h       V = πr²h + 4/3·πr³      cylinder part m_c, two hemispheres m_s (together):
//                                              Izz = m_c r²/2 + 2/5·m_s r²
//                                              Ixx = m_c(3r² + h²)/12 + m_s(2/5·r² + h²/4 + 3/8·h r)
//                      (a hemisphere's centroid lies 3r/8 from its flat face; parallel-axis shift)
//   closed mesh        divergence theorem: the solid is the signed sum of the tetrahedra (O, a, b, c)
//                      over its triangles, O a reference point, with  d = det[a−O, b−O, c−O]:
//                        V = Σ d/6,   ∫(p−O) dV = Σ d/24·(a+b+c−3O),
//                        Σ_O = ρ Σ d/120·(Σᵢuᵢuᵢᵀ + (Σᵢuᵢ)(Σᵢuᵢ)ᵀ),  uᵢ ∈ {a−O, b−O, c−O}          (3)
//                      (Tonon 2004, "Explicit exact formulas for the 3-D tetrahedron inertia tensor";
//                      Eberly, "Polyhedral mass properties"). A mesh wound inwards (V < 0) is taken
//                      with its orientation reversed. The mesh must be closed: mesh_closure() tells.
//   union              m = Σ mᵢ,  p_FC = Σ mᵢ p_FCᵢ / m,
//                      I_C = Σ [R_FGᵢ I_Cᵢ R_FGᵢᵀ + mᵢ(|dᵢ|²·1 − dᵢdᵢᵀ)],  dᵢ = p_FCᵢ − p_FC  (parallel axes)
//                      Overlapping shapes are counted twice (their volumes add).
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "collision/geometry.hpp"

namespace impetus {

struct MassProperties {
  double mass = 0;                                  // kg
  Eigen::Vector3d com = Eigen::Vector3d::Zero();    // p_FC (m)
  Eigen::Matrix3d I_C = Eigen::Matrix3d::Zero();    // about C, axes of F (kg·m²)
};

/// Volume of a shape (m³). For a mesh, the signed volume of (3) made positive; 0 for a flat or
/// empty mesh. Meaningful only for a closed mesh.
double shape_volume(const Shape& shape);

/// Mass properties of a uniform solid shape of density ρ, in its own frame G.
MassProperties shape_mass_properties(const Shape& shape, double density);

/// The same body seen from F: X_FG places G in F.
MassProperties transformed(const MassProperties& body_G, const Eigen::Isometry3d& X_FG);

/// The union of bodies given in one frame F (parallel-axis theorem). With zero total mass the centre
/// is F's origin and I_C the sum of the parts' I_C.
MassProperties combined(const std::vector<MassProperties>& bodies_F);

struct PlacedShape {
  const Shape* shape = nullptr;
  Eigen::Isometry3d X_FG = Eigen::Isometry3d::Identity();
};

/// Total volume of shapes at poses (overlaps counted twice).
double union_volume(const std::vector<PlacedShape>& shapes);
/// A uniform solid of density ρ filling the shapes, in F.
MassProperties union_mass_properties(const std::vector<PlacedShape>& shapes, double density);
/// A uniform solid of total mass m filling the shapes (ρ = m / Σ V), in F. Zero volume → zero result.
MassProperties union_mass_properties_for_mass(const std::vector<PlacedShape>& shapes, double mass);

/// Whether a triangle mesh bounds a solid: every edge is shared by exactly two triangles that run
/// along it in opposite directions (a closed, consistently oriented 2-manifold).
struct MeshClosure {
  int boundary_edges = 0;        // edges of one triangle only (holes)
  int non_manifold_edges = 0;    // edges of three or more triangles
  int misoriented_edges = 0;     // edges two triangles run along in the same direction
  bool closed() const { return boundary_edges == 0 && non_manifold_edges == 0 && misoriented_edges == 0; }
};
MeshClosure mesh_closure(const Mesh& mesh);

}  // namespace impetus
