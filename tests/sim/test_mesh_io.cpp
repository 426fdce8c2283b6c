// Mesh files → collision Mesh: STL (binary, binary with a "solid" header, ASCII) and OBJ, against the
// corpus's mesh edge cases (edge-cases/EXPECTED.json: triangle counts, scaled bounds and volumes
// computed independently) and small files written here; malformed files are refused with file and line.
// COLLADA and glTF through assimp: tetrahedra written here, whose corners after the unit and the up
// axis follow from mesh_assimp.hpp (1).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "collision/mass_properties.hpp"
#include "collision/mesh_io.hpp"
#include "base/load_error.hpp"
#include "temp_dir.hpp"
#include "tests/sim/shared_corpus.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kMeshes = corpus::corpus_dir() + "/edge-cases/mesh_scale/meshes";
const std::string kExpected = corpus::corpus_dir() + "/edge-cases/EXPECTED.json";

// STL stores float32: coordinates carry a relative error of 2⁻²⁴ ≈ 6e-8.
constexpr double kFloat32 = 1e-7;
// EXPECTED.json prints volumes with 9 significant digits.
constexpr double kPrinted9 = 1e-8;
// Volumes of meshes with small integer or power-of-two coordinates: exact but for round-off.
constexpr double kExactVolume = 1e-15;

Eigen::Vector3d vec3(const json& a) { return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()}; }

/// Σ det[a b c]/6: positive when the triangles wind outwards (right-hand rule, normals out).
double signed_volume(const Mesh& m) {
  double V = 0;
  for (const Eigen::Vector3i& t : m.triangles) V += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6;
  return V;
}

/// A binary STL of the given triangles (corners as float32), with the given 80-byte header text.
std::string binary_stl(const std::vector<std::array<Eigen::Vector3f, 3>>& triangles, const std::string& header) {
  std::string bytes(80, ' ');
  std::memcpy(bytes.data(), header.data(), std::min<std::size_t>(header.size(), 80));
  const std::uint32_t n = triangles.size();
  bytes.append(reinterpret_cast<const char*>(&n), 4);  // little-endian host
  for (const auto& t : triangles) {
    const float normal[3] = {0, 0, 0};
    bytes.append(reinterpret_cast<const char*>(normal), 12);
    for (const Eigen::Vector3f& v : t) bytes.append(reinterpret_cast<const char*>(v.data()), 12);
    bytes.append(2, '\0');
  }
  return bytes;
}

/// The unit tetrahedron (0, e₁, e₂, e₃), wound outwards.
std::vector<std::array<Eigen::Vector3f, 3>> tetra() {
  const Eigen::Vector3f o(0, 0, 0), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  return {{{o, y, x}}, {{o, x, z}}, {{o, z, y}}, {{x, y, z}}};
}

LoadError refusal(const std::string& path, const Eigen::Vector3d& scale = Eigen::Vector3d::Ones()) {
  try {
    load_mesh(path, scale);
  } catch (const LoadError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a refusal of " << path;
  return LoadError(path, -1, "");
}

// --- the corpus's mesh edge cases ---------------------------------------------------------------------------

TEST(MeshIo, CorpusEdgeCasesMatchTheirDerivedBoundsAndVolumes) {
  SKIP_WITHOUT_URDF_CORPUS();
  const json meshes = json::parse(std::ifstream(kExpected))["edge-cases/mesh_scale"]["meshes"];
  ASSERT_EQ(meshes.size(), 4u);
  for (const auto& [name, e] : meshes.items()) {
    SCOPED_TRACE(name);
    const std::string path = kMeshes + "/" + fs::path(name).filename().string();
    const Mesh mesh = load_mesh(path, vec3(e["scale"]));
    EXPECT_EQ(mesh.triangles.size(), e["triangles"].get<std::size_t>());
    Eigen::Vector3d lo = mesh.vertices[0], hi = mesh.vertices[0];
    for (const Eigen::Vector3d& v : mesh.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    EXPECT_LT((lo - vec3(e["scaled_aabb_min"])).norm(), kFloat32);
    EXPECT_LT((hi - vec3(e["scaled_aabb_max"])).norm(), kFloat32);
    const double V = e["scaled_volume"];
    EXPECT_NEAR(shape_volume(mesh), V, kPrinted9 * V + kFloat32 * V);
    EXPECT_GT(signed_volume(mesh), 0) << "triangles wind outwards";
    EXPECT_TRUE(mesh_closure(mesh).closed());
    EXPECT_EQ(mesh.scale, vec3(e["scale"]));
    const std::string format = e["format"];
    EXPECT_EQ(mesh_format(path), format == "stl-ascii"    ? MeshFormat::StlAscii
                                 : format == "stl-binary" ? MeshFormat::StlBinary
                                                          : MeshFormat::Obj);
  }
}

TEST(MeshIo, BinaryStlWhoseHeaderSaysSolid) {
  SKIP_WITHOUT_URDF_CORPUS();
  const std::string path = kMeshes + "/TETRA_SOLID_HEADER.STL";
  std::ifstream in(path, std::ios::binary);
  char head[5];
  in.read(head, 5);
  ASSERT_EQ(std::string(head, 5), "solid");  // the trap: an ASCII reader would take it
  EXPECT_EQ(mesh_format(path), MeshFormat::StlBinary);
  const Mesh mesh = load_mesh(path);
  EXPECT_EQ(mesh.vertices.size(), 4u);  // corners welded
  EXPECT_NEAR(shape_volume(mesh), 1.0 / 6.0, kFloat32);
}

// --- STL written here -----------------------------------------------------------------------------------------

TEST(MeshIo, BinaryAndAsciiStlOfOneSolidAgree) {
  test::TempDir dir("mesh_io");
  const std::string binary = dir.write("t.stl", binary_stl(tetra(), "solid looks like ASCII but is not"));
  std::string ascii = "solid tetra made by hand\n";
  for (const auto& t : tetra()) {
    ascii += "  facet normal nan nan nan\n    outer loop\n";  // normals are ignored, even broken ones
    for (const Eigen::Vector3f& v : t)
      ascii += "      vertex " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
    ascii += "    endloop\n  endfacet\n";
  }
  ascii += "endsolid tetra\n";
  const std::string ascii_path = dir.write("t_ascii.stl", ascii);
  const Mesh a = load_mesh(binary), b = load_mesh(ascii_path);
  EXPECT_EQ(mesh_format(binary), MeshFormat::StlBinary);
  EXPECT_EQ(mesh_format(ascii_path), MeshFormat::StlAscii);
  ASSERT_EQ(a.vertices.size(), 4u);
  ASSERT_EQ(b.vertices.size(), 4u);
  EXPECT_EQ(a.triangles, b.triangles);
  for (std::size_t i = 0; i < a.vertices.size(); ++i) EXPECT_EQ(a.vertices[i], b.vertices[i]);
}

TEST(MeshIo, AsciiStlWithSeveralSolids) {
  test::TempDir dir("mesh_io");
  std::string text;
  for (int s = 0; s < 2; ++s) {
    text += "solid part" + std::to_string(s) + "\nfacet normal 0 0 1\nouter loop\n";
    text += "vertex 0 0 " + std::to_string(s) + "\nvertex 1 0 " + std::to_string(s) + "\nvertex 0 1 " + std::to_string(s) + "\n";
    text += "endloop\nendfacet\nendsolid part" + std::to_string(s) + "\n";
  }
  const Mesh mesh = load_mesh(dir.write("two.stl", text));
  EXPECT_EQ(mesh.triangles.size(), 2u);
  EXPECT_EQ(mesh.vertices.size(), 6u);
}

TEST(MeshIo, MalformedStlIsRefusedWithItsLine) {
  test::TempDir dir("mesh_io");
  {
    const std::string path = dir.write("short.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0\nvertex 0 1 0\n");
    const LoadError e = refusal(path);
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 6);  // "vertex" where the third coordinate of line 5 should be
  }
  {
    const std::string path = dir.write("nan.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 nan\n");
    EXPECT_EQ(refusal(path).line(), 4);
  }
  {
    std::string bytes = binary_stl(tetra(), "binary");
    bytes.resize(bytes.size() - 7);  // truncated, and no "solid": neither binary nor ASCII
    const LoadError e = refusal(dir.write("cut.stl", bytes));
    EXPECT_NE(e.message().find("neither a binary STL"), std::string::npos) << e.what();
  }
  {
    auto triangles = tetra();
    triangles[2][1].y() = std::numeric_limits<float>::infinity();
    const LoadError e = refusal(dir.write("inf.stl", binary_stl(triangles, "binary")));
    EXPECT_NE(e.message().find("triangle 2"), std::string::npos) << e.what();
  }
  EXPECT_NE(refusal(dir.write("empty.stl", "solid nothing\nendsolid nothing\n")).message().find("no triangles"), std::string::npos);
}

// --- OBJ ------------------------------------------------------------------------------------------------------

TEST(MeshIo, ObjFacesInEveryForm) {
  test::TempDir dir("mesh_io");
  // A unit cube around the origin: quads (fan-triangulated), corners in the forms i, i/t, i/t/n, i//n,
  // negative indices, a continued line, comments, vertex colours, and statements to skip.
  const std::string text =
      "# cube\nmtllib missing.mtl\no cube\n"
      "v -0.5 -0.5 -0.5\nv 0.5 -0.5 -0.5 1 0 0\nv 0.5 0.5 -0.5\nv -0.5 0.5 -0.5\n"
      "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv 0.5 0.5 0.5\nv -0.5 0.5 0.5\n"
      "vt 0 0\nvn 0 0 1\ng faces\nusemtl steel\ns off\n"
      "f 1 4 3 2\n"                 // bottom, −z
      "f 5/1 6/1 7/1 8/1\n"         // top, +z
      "f 1/1/1 2/1/1 6/1/1 5/1/1\n" // −y
      "f 2//1 3//1 \\\n 7//1 6//1\n"// +x, continued line
      "f -5 -1 -2 -6\n"             // +y, as negative indices (see below)
      "f 1 5 8 4 # −x\n"
      "l 1 2\n";
  // Negative index −k is vertex 8 − k + 1: −5→4, −1→8, −2→7, −6→3: face 4 8 7 3 (+y, outward).
  const Mesh mesh = load_mesh(dir.write("cube.obj", text));
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_TRUE(mesh_closure(mesh).closed());
  EXPECT_NEAR(signed_volume(mesh), 1.0, kExactVolume);
}

TEST(MeshIo, MalformedObjIsRefusedWithItsLine) {
  test::TempDir dir("mesh_io");
  const auto line_of_refusal = [&](const std::string& text) { return refusal(dir.write("bad.obj", text)).line(); };
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"), 4);        // index out of range
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"), 4);        // indices start at 1
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 -4 2\n"), 4);       // before the first vertex
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 0 0\nf 1 2\n"), 3);                   // two corners
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 inf 0\nv 0 1 0\nf 1 2 3\n"), 2);      // non-finite
  EXPECT_EQ(line_of_refusal("v 0 0\n"), 1);                                     // two coordinates
  EXPECT_EQ(line_of_refusal("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n"), 4);        // garbage index
  EXPECT_NE(refusal(dir.write("none.obj", "v 0 0 0\n")).message().find("no triangles"), std::string::npos);
}

// --- formats, files and scales ------------------------------------------------------------------------------

TEST(MeshIo, UnsupportedFormatsAndMissingFilesAreRefused) {
  test::TempDir dir("mesh_io");
  EXPECT_NE(refusal(dir.write("a.dae", "<COLLADA/>")).message().find("cannot read"), std::string::npos);
  EXPECT_NE(refusal(dir.write("a.gltf", "{}")).message().find("cannot read"), std::string::npos);
  EXPECT_NE(refusal(dir.write("a.ply", "ply")).message().find("cannot read"), std::string::npos);
  EXPECT_NE(refusal(dir.write("a.nomesh", "x")).message().find("unknown mesh format"), std::string::npos);
  const LoadError missing = refusal("/nonexistent/a.stl");
  EXPECT_EQ(missing.file(), "/nonexistent/a.stl");
  EXPECT_NE(missing.message().find("not found"), std::string::npos);
  const std::string tetra_path = dir.write("t.stl", binary_stl(tetra(), "b"));
  EXPECT_NE(refusal(tetra_path, {1, 0, 1}).message().find("non-zero"), std::string::npos);
}

TEST(MeshIo, MirroringScaleKeepsTrianglesWindingOutwards) {
  test::TempDir dir("mesh_io");
  const std::string path = dir.write("t.stl", binary_stl(tetra(), "b"));
  const Mesh mirrored = load_mesh(path, {-2, 1, 1});
  EXPECT_NEAR(signed_volume(mirrored), 2.0 / 6.0, kExactVolume);  // |det S|·V, and positive
  const Mesh twice = load_mesh(path, {-1, -1, 1});           // a rotation by π: no rewinding
  EXPECT_NEAR(signed_volume(twice), 1.0 / 6.0, kExactVolume);
}

// --- COLLADA and glTF (assimp) -----------------------------------------------------------------------------

/// A COLLADA tetrahedron with corners 0, (1,0,0), (0,2,0), (0,0,3) in file units, outward winding.
std::string collada_tetra(const std::string& unit_meter, const std::string& up_axis) {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter=")" + unit_meter + R"("/><up_axis>)" + up_axis + R"(</up_axis></asset>
  <library_geometries>
    <geometry id="tet" name="tet"><mesh>
      <source id="tet-pos">
        <float_array id="tet-pos-array" count="12">0 0 0 1 0 0 0 2 0 0 0 3</float_array>
        <technique_common><accessor source="#tet-pos-array" count="4" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="tet-vtx"><input semantic="POSITION" source="#tet-pos"/></vertices>
      <triangles count="4"><input semantic="VERTEX" source="#tet-vtx" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene"><node id="n"><instance_geometry url="#tet"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
}

Eigen::Vector3d lower_corner(const Mesh& m) {
  Eigen::Vector3d lo = m.vertices.front();
  for (const Eigen::Vector3d& v : m.vertices) lo = lo.cwiseMin(v);
  return lo;
}
Eigen::Vector3d upper_corner(const Mesh& m) {
  Eigen::Vector3d hi = m.vertices.front();
  for (const Eigen::Vector3d& v : m.vertices) hi = hi.cwiseMax(v);
  return hi;
}

TEST(MeshIo, ColladaHonoursItsUnitAndUpAxis) {
  test::TempDir dir("mesh_io");
  // Z_UP in millimetres: the file's coordinates times 0.001, axes as written.
  const Mesh mm = load_mesh(dir.write("mm.dae", collada_tetra("0.001", "Z_UP")));
  EXPECT_EQ(mesh_format(mm.filename), MeshFormat::Assimp);
  ASSERT_EQ(mm.triangles.size(), 4u);
  EXPECT_LT((lower_corner(mm) - Eigen::Vector3d::Zero()).norm(), kFloat32 * 0.003);
  EXPECT_LT((upper_corner(mm) - Eigen::Vector3d(0.001, 0.002, 0.003)).norm(), kFloat32 * 0.003);
  EXPECT_NEAR(signed_volume(mm), 1e-9, 1e-9 * kFloat32 * 10);  // 1·2·3/6 mm³, winding kept
  // Y_UP in metres: the file's up (y) onto the link's z, (x, y, z) ↦ (x, −z, y).
  const Mesh y_up = load_mesh(dir.write("yup.dae", collada_tetra("1", "Y_UP")));
  EXPECT_LT((lower_corner(y_up) - Eigen::Vector3d(0, -3, 0)).norm(), kFloat32 * 3);
  EXPECT_LT((upper_corner(y_up) - Eigen::Vector3d(1, 0, 2)).norm(), kFloat32 * 3);
  EXPECT_NEAR(signed_volume(y_up), 1.0, kFloat32 * 10);
  // URDF's scale applies on top of the unit.
  const Mesh scaled = load_mesh(dir.write("s.dae", collada_tetra("0.001", "Z_UP")), {2, 1, 1});
  EXPECT_LT((upper_corner(scaled) - Eigen::Vector3d(0.002, 0.002, 0.003)).norm(), kFloat32 * 0.003);
}

std::string base64(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint8_t(bytes[i]) << 16) | (i + 1 < bytes.size() ? std::uint8_t(bytes[i + 1]) << 8 : 0) |
                            (i + 2 < bytes.size() ? std::uint8_t(bytes[i + 2]) : 0);
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? table[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? table[n & 63] : '=';
  }
  return out;
}

TEST(MeshIo, GltfIsTurnedFromYUpToZUp) {
  // The same tetrahedron in glTF (y up by its specification), with an embedded buffer: float32
  // positions, then uint16 indices.
  std::string buffer;
  for (float c : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 2.f, 0.f, 0.f, 0.f, 3.f}) buffer.append(reinterpret_cast<const char*>(&c), 4);
  for (std::uint16_t i : {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}) buffer.append(reinterpret_cast<const char*>(&i), 2);
  const std::string gltf = R"({"asset": {"version": "2.0"},
 "buffers": [{"byteLength": 72, "uri": "data:application/octet-stream;base64,)" + base64(buffer) + R"("}],
 "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 2, 3]},
               {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
 "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0})";
  test::TempDir dir("mesh_io");
  const Mesh m = load_mesh(dir.write("tet.gltf", gltf));
  ASSERT_EQ(m.triangles.size(), 4u);
  EXPECT_LT((lower_corner(m) - Eigen::Vector3d(0, -3, 0)).norm(), kFloat32 * 3);
  EXPECT_LT((upper_corner(m) - Eigen::Vector3d(1, 0, 2)).norm(), kFloat32 * 3);
  EXPECT_NEAR(signed_volume(m), 1.0, kFloat32 * 10);
  // A buffer shorter than its accessors claim is refused, not read past its end.
  std::string lying = gltf;
  lying.replace(lying.find("\"count\": 12"), 12, "\"count\": 1200000000");
  EXPECT_NE(refusal(dir.write("lying.gltf", lying)).message().find("cannot read"), std::string::npos);
}

TEST(MeshIo, BinaryStlClaimingABillionTrianglesIsRefusedWithoutAllocatingThem) {
  // The count at byte 80 says 10⁹ triangles (50 GB); the file has one. It is not binary STL (the size
  // test) and not ASCII either: refused, with the arithmetic in the message.
  std::string bytes = binary_stl(tetra(), "binary header");
  const std::uint32_t claimed = 1000000000u;
  std::memcpy(bytes.data() + 80, &claimed, 4);
  test::TempDir dir("mesh_io");
  const LoadError e = refusal(dir.write("huge.stl", bytes));
  EXPECT_NE(e.message().find("1000000000 triangles need"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace impetus
