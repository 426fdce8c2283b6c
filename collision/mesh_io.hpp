// Triangle meshes from files: STL (binary and ASCII) and Wavefront OBJ, into the collision Mesh of
// geometry.hpp (vertices in G, scale applied, triangles as vertex indices).
//
// Formats, chosen by the file extension (case-insensitive):
//   .stl  binary when the size is exactly 84 + 50·n for the triangle count n stored at byte 80 —
//         whatever the 80-byte header says: exporters (SolidWorks among them) write binary files
//         whose header begins with "solid" —, else ASCII ("solid … facet normal … outer loop
//         vertex ×3 endloop endfacet … endsolid", several solids allowed).
//   .obj  "v x y z [w | r g b]" and "f" lines; face corners i, i/t, i/t/n or i//n, 1-based, negative
//         indices counted back from the last vertex read; polygons are triangulated as fans
//         (exact for the convex faces exporters write); vt, vn, vp, o, g, s, l, p, mtllib,
//         usemtl and other statements are skipped.
//   .dae, .gltf, .glb  refused with a message: COLLADA and glTF collision meshes are not read
//         (convert them to STL or OBJ); no Debian library for them is linked.
// STL vertices are welded by exact equality of their coordinates (STL stores a triangle soup), and
// triangles whose corners coincide after welding are dropped (they have no area). A scale with a
// negative determinant mirrors the mesh; the triangles are then rewound so that their normals
// (b − a) × (c − a) still point outwards.
//
// Refusals are LoadErrors naming the mesh file and the line (ASCII STL, OBJ) or 0 for binary STL, whose
// message gives the triangle and byte offset: unreadable file, truncated or malformed content, a
// non-finite coordinate, an index out of range, a mesh without triangles, a zero or non-finite scale.
#pragma once

#include <Eigen/Core>
#include <string>

#include "collision/geometry.hpp"

namespace impetus {

enum class MeshFormat { StlBinary, StlAscii, Obj };

/// The format of a mesh file (extension, and for STL the size test above). Refuses other formats.
MeshFormat mesh_format(const std::string& path);

/// Reads `path` into a Mesh with its vertices multiplied component-wise by `scale`; Mesh::filename is
/// `path`, Mesh::scale is `scale`.
Mesh load_mesh(const std::string& path, const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

/// The same mesh with vertices multiplied by `scale` (refused if a component is zero or non-finite).
Mesh scaled_mesh(const Mesh& mesh, const Eigen::Vector3d& scale);

}  // namespace impetus
