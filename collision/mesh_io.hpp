// Triangle meshes from files: STL (binary and ASCII) and Wavefront OBJ by the readers here, every
// other format assimp reads (COLLADA, glTF/GLB, PLY, 3DS, FBX, …) through it (mesh_assimp.hpp), into
// the collision Mesh of geometry.hpp (vertices in G, scale applied, triangles as vertex indices).
// STL and OBJ stay on these readers: they are faster than assimp's on the corpus (the closing note of
// issue 17 has the measurement) and their refusals name the line.
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
//   other extensions assimp has an importer for: mesh_assimp.hpp (COLLADA's <unit> and up axis
//         honoured, glTF's y-up turned onto z); an extension it does not know is refused.
// Memory is bounded by the file: a binary STL's triangle count is believed only when the file's
// size is exactly 84 + 50·n (a header claiming 10⁹ triangles in a small file is not binary STL, and
// is then refused as ASCII), and OBJ allocates per line read.
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
#include <cstddef>
#include <string>

#include "collision/geometry.hpp"

namespace impetus {

enum class MeshFormat { StlBinary, StlAscii, Obj, Assimp };

/// The format of a mesh file (extension, and for STL the size test above). Refuses other formats.
MeshFormat mesh_format(const std::string& path);

/// Reads `path` into a Mesh with its vertices multiplied component-wise by `scale`; Mesh::filename is
/// `path`, Mesh::scale is `scale`.
Mesh load_mesh(const std::string& path, const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

/// Mesh files larger than this are refused before they are read: the largest mesh of the URDF corpus
/// is 2 MB, a dense scanned part some 100 MB; beyond 1 GiB a file is a mistake or an attack.
constexpr std::size_t kMaxMeshFileBytes = std::size_t(1) << 30;

/// The mesh in `bytes`, in the format of `extension` (".stl", ".obj", or one assimp reads), unscaled;
/// `path` names it in messages (and is Mesh::filename). Memory-only: a glTF's external buffers are
/// not found this way (load_mesh reads them).
Mesh parse_mesh(const std::string& bytes, const std::string& extension, const std::string& path);

/// The same mesh with vertices multiplied by `scale` (refused if a component is zero or non-finite).
Mesh scaled_mesh(const Mesh& mesh, const Eigen::Vector3d& scale);

}  // namespace impetus
