#include "collision/mesh_assimp.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "base/load_error.hpp"
#include "collision/collada_sizes.hpp"

namespace impetus {
namespace {

/// Formats whose scenes assimp turns to y-up from a declared up axis or convention: eq. (1) applies.
/// GLB (binary glTF, spec §4.4): a 12-byte header "glTF", version, length — the whole file's — then
/// chunks of (length, type, data). Assimp allocates a chunk's stated length before reading it (a
/// 28-byte file claiming a 4 GB chunk took 4 GB and 27 s): the lengths are checked against the bytes
/// first, so that memory stays bounded by the file.
void check_glb(const std::string& path, const std::string& bytes) {
  const auto u32 = [&](std::size_t at) {
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    return std::uint64_t(b[0]) | std::uint64_t(b[1]) << 8 | std::uint64_t(b[2]) << 16 | std::uint64_t(b[3]) << 24;
  };
  if (bytes.size() < 12 || bytes.compare(0, 4, "glTF") != 0)
    throw LoadError(path, 0, "not a GLB file (no 12-byte header beginning \"glTF\")");
  if (u32(8) != bytes.size())
    throw LoadError(path, 0, "GLB header gives a length of " + std::to_string(u32(8)) + " bytes, the file has " +
                                 std::to_string(bytes.size()));
  // The scene comes first, as JSON (glTF 2.0 §4.4.3.1: chunk type 0x4E4F534A "JSON"; glTF 1.0's binary
  // extension: sceneFormat 0). Assimp 5.2 reads another first chunk's bytes past its buffer's end as a
  // C string (tests/fuzz/glb/first_chunk_not_json.glb, found by tools/fuzz.sh glb: ASan heap overflow).
  const std::uint64_t version = u32(4);
  if (version != 1 && version != 2)
    throw LoadError(path, 0, "GLB version " + std::to_string(version) + " (glTF binary is version 2, or 1)");
  if (bytes.size() < 20 || (version == 2 ? bytes.compare(16, 4, "JSON") != 0 : u32(16) != 0))
    throw LoadError(path, 0, "GLB's first chunk (at byte 12) is not the JSON scene" +
                                 std::string(version == 2 ? " (its type is not \"JSON\")" : " (sceneFormat is not 0)"));
  for (std::size_t at = 12; at < bytes.size();) {
    if (bytes.size() - at < 8) throw LoadError(path, 0, "GLB chunk header at byte " + std::to_string(at) + " is cut short");
    const std::uint64_t length = u32(at);
    if (length > bytes.size() - at - 8)
      throw LoadError(path, 0, "GLB chunk at byte " + std::to_string(at) + " claims " + std::to_string(length) +
                                   " bytes, the file has " + std::to_string(bytes.size() - at - 8) + " after it");
    at += 8 + length;
  }
  // The scene must be a JSON object: assimp 5.2 reads a glTF 1 scene that is not JSON as a C string
  // past the end of its buffer (tests/fuzz/glb/scene_not_json.glb, tools/fuzz.sh glb: ASan heap overflow
  // in strlen). The first chunk's length was checked against the file above.
  const auto scene_begin = bytes.begin() + 20;
  const nlohmann::json scene = nlohmann::json::parse(scene_begin, scene_begin + u32(12), nullptr, false);
  if (scene.is_discarded() || !scene.is_object())
    throw LoadError(path, 0, "GLB's scene (the first chunk, at byte 20) is not a JSON object");
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool has_up_axis(const std::string& extension) {
  return extension == ".dae" || extension == ".gltf" || extension == ".glb";
}

void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& X_parent, bool z_up, const std::string& path,
             Mesh& out) {
  const aiMatrix4x4 X = X_parent * node.mTransformation;
  const std::size_t first_triangle = out.triangles.size();
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    const int first = static_cast<int>(out.vertices.size());
    for (unsigned i = 0; i < mesh.mNumVertices; ++i) {
      const aiVector3D p = X * mesh.mVertices[i];
      Eigen::Vector3d v(p.x, p.y, p.z);
      if (z_up) v = Eigen::Vector3d(v.x(), -v.z(), v.y());  // (1)
      if (!v.allFinite())
        throw LoadError(path, 0, "mesh '" + std::string(mesh.mName.C_Str()) + "': vertex " + std::to_string(i) +
                                     " has a non-finite coordinate");
      out.vertices.push_back(v);
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines (SortByPType keeps them apart)
      const unsigned a = face.mIndices[0], b = face.mIndices[1], c = face.mIndices[2];
      if (a >= mesh.mNumVertices || b >= mesh.mNumVertices || c >= mesh.mNumVertices) continue;  // validated by assimp
      if (a == b || b == c || c == a) continue;                                                   // no area
      out.triangles.emplace_back(first + int(a), first + int(b), first + int(c));
    }
  }
  // A mirroring node transform (det < 0) turns outward normals inward: rewind this node's triangles.
  if (X.Determinant() < 0)
    for (std::size_t t = first_triangle; t < out.triangles.size(); ++t) std::swap(out.triangles[t][1], out.triangles[t][2]);
  for (unsigned c = 0; c < node.mNumChildren; ++c) collect(scene, *node.mChildren[c], X, z_up, path, out);
}

// Triangles only (points and lines are dropped), identical vertices joined, indices validated.
constexpr unsigned kSteps =
    aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType | aiProcess_ValidateDataStructure;

Mesh scene_mesh(Assimp::Importer& importer, const aiScene* scene, const std::string& path, const std::string& extension) {
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
    throw LoadError(path, 0, std::string("cannot read the mesh (assimp: ") + importer.GetErrorString() + ")");
  Mesh mesh;
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), has_up_axis(extension), path, mesh);
  mesh.filename = path;
  return mesh;
}

}  // namespace

bool assimp_reads(const std::string& extension) {
  Assimp::Importer importer;
  return importer.IsExtensionSupported(extension);
}

Mesh read_mesh_with_assimp(const std::string& path, const std::string& extension) {
  // The size is bounded by the caller; these formats declare sizes assimp allocates before reading.
  if (extension == ".glb") check_glb(path, file_bytes(path));
  if (extension == ".dae") check_collada_sizes(path, file_bytes(path));
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  return scene_mesh(importer, importer.ReadFile(path, kSteps), path, extension);
}

Mesh read_mesh_with_assimp_from_memory(const std::string& bytes, const std::string& extension, const std::string& path) {
  if (extension == ".glb") check_glb(path, bytes);
  if (extension == ".dae") check_collada_sizes(path, bytes);
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const std::size_t dot = extension.find_first_not_of('.');
  const std::string hint = dot == std::string::npos ? "" : extension.substr(dot);
  return scene_mesh(importer, importer.ReadFileFromMemory(bytes.data(), bytes.size(), kSteps, hint.c_str()), path,
                    extension);
}

}  // namespace impetus
