// Meshes in the formats assimp reads (COLLADA .dae, glTF .gltf/.glb, PLY, 3DS, FBX, …) into the
// collision Mesh of geometry.hpp. Internal to mesh_io.cpp, which chooses the reader by extension.
//
// Frames: assimp returns every scene in its own convention (right-handed, y up, metres): the
// COLLADA importer applies the file's <unit meter> and turns its <up_axis> onto +y; glTF is y-up
// metres by its specification. URDF links are z-up, and a mesh's "up" belongs on the link's +z (as
// Gazebo reads COLLADA and Drake reads glTF), so for these two formats the vertices are turned by
//   R_zy = [1 0 0; 0 0 −1; 0 1 0]      (x, y, z) ↦ (x, −z, y): +y onto +z                       (1)
// after the node transforms; a Z_UP COLLADA file then comes out in its own coordinates (scaled by
// its unit), a Y_UP one with its y along +z. Other formats carry no up axis: their coordinates are
// taken as written (as for STL and OBJ).
//
// Every node's transform is applied to its meshes (a scene graph flattened into one triangle set);
// polygons are triangulated, points and lines dropped, identical vertices joined; a degenerate
// triangle (repeated index) is dropped. Refused (LoadError, line 0, assimp's message): a file assimp
// cannot read or finds invalid, a non-finite vertex, no triangles; a GLB whose stated lengths exceed
// the file, and a COLLADA file whose declared counts exceed its data (collada_sizes.hpp), both checked
// before assimp sees them: assimp would allocate them.
#pragma once

#include <string>

#include "collision/geometry.hpp"

namespace impetus {

/// True when assimp has an importer for this extension (".dae", lower case with the dot).
bool assimp_reads(const std::string& extension);

/// Reads `path` (extension `extension`, lower case) through assimp, unscaled; Mesh::filename is `path`.
Mesh read_mesh_with_assimp(const std::string& path, const std::string& extension);

/// The same from the file's bytes (`path` names it in messages).
Mesh read_mesh_with_assimp_from_memory(const std::string& bytes, const std::string& extension, const std::string& path);

}  // namespace impetus
