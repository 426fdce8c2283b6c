#include "collision/mesh_io.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "base/load_error.hpp"
#include "collision/mesh_assimp.hpp"

namespace impetus {
namespace {

constexpr std::size_t kStlHeaderBytes = 80;
constexpr std::size_t kStlPreambleBytes = 84;   // header + uint32 triangle count
constexpr std::size_t kStlTriangleBytes = 50;   // normal, 3 vertices (12 float32) + uint16 attribute

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

std::string read_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw LoadError(path, 0, "mesh file not found");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open the mesh file");
  // Read in chunks up to the bound: a file's stated size may be 0 (/proc) or a lie.
  std::string bytes;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > kMaxMeshFileBytes)
      throw LoadError(path, 0, "mesh file larger than " + std::to_string(kMaxMeshFileBytes >> 20) + " MiB");
  }
  return bytes;
}

std::uint32_t read_u32_le(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

float read_f32_le(const char* p) {
  const std::uint32_t bits = read_u32_le(p);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

bool is_binary_stl(const std::string& bytes) {
  if (bytes.size() < kStlPreambleBytes) return false;
  const std::uint64_t n = read_u32_le(bytes.data() + kStlHeaderBytes);
  return bytes.size() == kStlPreambleBytes + kStlTriangleBytes * n;
}

/// Welds vertices by exact coordinate equality and collects non-degenerate triangles.
class MeshBuilder {
 public:
  int vertex(const Eigen::Vector3d& p) {
    Key key;
    for (int k = 0; k < 3; ++k) {
      const double c = p[k] == 0.0 ? 0.0 : p[k];  // −0 and +0 weld
      std::memcpy(&key[k], &c, sizeof c);
    }
    const auto [it, inserted] = index_.try_emplace(key, static_cast<int>(mesh_.vertices.size()));
    if (inserted) mesh_.vertices.push_back(p);
    return it->second;
  }
  void triangle(int a, int b, int c) {
    if (a == b || b == c || c == a) return;  // no area
    mesh_.triangles.emplace_back(a, b, c);
  }
  Mesh take() { return std::move(mesh_); }

 private:
  using Key = std::array<std::uint64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 1469598103934665603ull;
      for (std::uint64_t x : k) h = (h ^ x) * 1099511628211ull;
      return static_cast<std::size_t>(h);
    }
  };
  Mesh mesh_;
  std::unordered_map<Key, int, KeyHash> index_;
};

// --- binary STL -------------------------------------------------------------------------------------

Mesh read_binary_stl(const std::string& path, const std::string& bytes) {
  const std::uint32_t n = read_u32_le(bytes.data() + kStlHeaderBytes);
  MeshBuilder builder;
  for (std::uint32_t t = 0; t < n; ++t) {
    const std::size_t offset = kStlPreambleBytes + kStlTriangleBytes * t;
    const char* p = bytes.data() + offset + 12;  // skip the facet normal: recomputed from the winding
    int corner[3];
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d v(read_f32_le(p + 12 * k), read_f32_le(p + 12 * k + 4), read_f32_le(p + 12 * k + 8));
      if (!v.allFinite())
        throw LoadError(path, 0, "binary STL: triangle " + std::to_string(t) + " (byte offset " +
                                     std::to_string(offset) + ") has a non-finite vertex coordinate");
      corner[k] = builder.vertex(v);
    }
    builder.triangle(corner[0], corner[1], corner[2]);
  }
  return builder.take();
}

// --- ASCII STL --------------------------------------------------------------------------------------

/// Whitespace tokens with their line numbers.
class Tokens {
 public:
  Tokens(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  bool done() {
    skip_space();
    return pos_ >= text_.size();
  }
  std::string_view next(const char* expected) {
    if (done()) throw LoadError(path_, line_, std::string("ASCII STL: unexpected end of file, expected ") + expected);
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return text_.substr(begin, pos_ - begin);
  }
  void expect(std::string_view keyword) {
    const int at = (skip_space(), line_);
    const std::string_view token = next(std::string(keyword).c_str());
    if (!equals_ignoring_case(token, keyword))
      throw LoadError(path_, at, "ASCII STL: expected '" + std::string(keyword) + "', got '" + std::string(token) + "'");
  }
  double number() {
    const int at = (skip_space(), line_);
    std::string_view token = next("a number");
    if (!token.empty() && token.front() == '+') token.remove_prefix(1);
    double value = 0;
    const auto [stop, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || stop != token.data() + token.size() || !std::isfinite(value))
      throw LoadError(path_, at, "ASCII STL: expected a finite number, got '" + std::string(token) + "'");
    return value;
  }
  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  int line() {
    skip_space();
    return line_;
  }
  static bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }
  const std::string& path_;
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

Mesh read_ascii_stl(const std::string& path, const std::string& text) {
  Tokens tokens(path, text);
  MeshBuilder builder;
  tokens.expect("solid");
  tokens.skip_line();  // the solid's name, possibly several words
  while (!tokens.done()) {
    const int line = tokens.line();
    const std::string_view keyword = tokens.next("facet or endsolid");
    if (Tokens::equals_ignoring_case(keyword, "endsolid")) {
      tokens.skip_line();
      if (tokens.done()) break;
      tokens.expect("solid");  // another solid follows
      tokens.skip_line();
      continue;
    }
    if (!Tokens::equals_ignoring_case(keyword, "facet"))
      throw LoadError(path, line, "ASCII STL: expected 'facet' or 'endsolid', got '" + std::string(keyword) + "'");
    tokens.expect("normal");
    for (int k = 0; k < 3; ++k) tokens.next("a normal component");  // unused (may be "nan"): recomputed from the winding
    tokens.expect("outer");
    tokens.expect("loop");
    int corner[3];
    for (int k = 0; k < 3; ++k) {
      tokens.expect("vertex");
      const double x = tokens.number(), y = tokens.number(), z = tokens.number();
      corner[k] = builder.vertex({x, y, z});
    }
    tokens.expect("endloop");
    tokens.expect("endfacet");
    builder.triangle(corner[0], corner[1], corner[2]);
  }
  return builder.take();
}

// --- OBJ --------------------------------------------------------------------------------------------

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

Mesh read_obj(const std::string& path, const std::string& text) {
  Mesh mesh;
  struct Face { std::vector<long> corners; int line; };
  std::vector<Face> faces;
  std::string logical;   // a line with its '\' continuations joined
  int line_number = 0, logical_start = 1;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view physical(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!physical.empty() && physical.back() == '\r') physical.remove_suffix(1);
    if (logical.empty()) logical_start = line_number;
    if (!physical.empty() && physical.back() == '\\') {
      logical.append(physical.substr(0, physical.size() - 1)).push_back(' ');
      continue;
    }
    logical.append(physical);
    std::string_view statement = logical;
    if (const std::size_t hash = statement.find('#'); hash != std::string_view::npos) statement = statement.substr(0, hash);
    const std::vector<std::string_view> words = split_words(statement);
    const int line = logical_start;
    if (!words.empty() && words[0] == "v") {
      if (words.size() < 4 || words.size() > 8)
        throw LoadError(path, line, "OBJ: a vertex 'v x y z' needs 3 coordinates, got " + std::to_string(words.size() - 1) + " values");
      Eigen::Vector3d v;
      for (int k = 0; k < 3; ++k) {
        std::string_view w = words[k + 1];
        if (!w.empty() && w.front() == '+') w.remove_prefix(1);
        const auto [stop, error] = std::from_chars(w.data(), w.data() + w.size(), v[k]);
        if (error != std::errc() || stop != w.data() + w.size() || !std::isfinite(v[k]))
          throw LoadError(path, line, "OBJ: expected a finite vertex coordinate, got '" + std::string(words[k + 1]) + "'");
      }
      mesh.vertices.push_back(v);
    } else if (!words.empty() && words[0] == "f") {
      if (words.size() < 4)
        throw LoadError(path, line, "OBJ: a face needs at least 3 corners, got " + std::to_string(words.size() - 1));
      Face face{{}, line};
      for (std::size_t k = 1; k < words.size(); ++k) {
        const std::string_view corner = words[k].substr(0, words[k].find('/'));  // i of i/t/n
        long index = 0;
        const auto [stop, error] = std::from_chars(corner.data(), corner.data() + corner.size(), index);
        if (error != std::errc() || stop != corner.data() + corner.size() || index == 0)
          throw LoadError(path, line, "OBJ: expected a non-zero vertex index, got '" + std::string(words[k]) + "'");
        // Negative indices count back from the last vertex read so far (−1 is the latest).
        if (index < 0) index += static_cast<long>(mesh.vertices.size()) + 1;
        if (index < 1)
          throw LoadError(path, line, "OBJ: vertex index " + std::string(corner) + " refers before the first vertex");
        face.corners.push_back(index - 1);
      }
      faces.push_back(std::move(face));
    }
    logical.clear();
  }
  // Positive indices may refer to any vertex of the file; check them once all are read.
  const long n = static_cast<long>(mesh.vertices.size());
  for (const Face& face : faces) {
    for (long c : face.corners)
      if (c >= n)
        throw LoadError(path, face.line, "OBJ: vertex index " + std::to_string(c + 1) + " is out of range (the file has " +
                                             std::to_string(n) + " vertices)");
    for (std::size_t k = 1; k + 1 < face.corners.size(); ++k) {  // fan triangulation
      const int a = face.corners[0], b = face.corners[k], c = face.corners[k + 1];
      if (a != b && b != c && c != a) mesh.triangles.emplace_back(a, b, c);
    }
  }
  return mesh;
}

[[noreturn]] void refuse_format(const std::string& path, const std::string& ext) {
  throw LoadError(path, 0, "unknown mesh format '" + ext + "' (supported: .stl, .obj, and what assimp reads: "
                           ".dae, .gltf, .glb, .ply, .3ds, .fbx, …)");
}

}  // namespace

MeshFormat mesh_format(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".obj") return MeshFormat::Obj;
  if (ext != ".stl") {
    if (assimp_reads(ext)) return MeshFormat::Assimp;
    refuse_format(path, ext);
  }
  return is_binary_stl(read_file(path)) ? MeshFormat::StlBinary : MeshFormat::StlAscii;
}

Mesh scaled_mesh(const Mesh& mesh, const Eigen::Vector3d& scale) {
  if (!scale.allFinite() || (scale.array() == 0).any()) {
    std::ostringstream s;
    s << "mesh scale must be finite and non-zero, got " << scale.transpose();
    throw LoadError(mesh.filename, 0, s.str());
  }
  Mesh out = mesh;
  out.scale = mesh.scale.cwiseProduct(scale);
  for (Eigen::Vector3d& v : out.vertices) v = v.cwiseProduct(scale);
  // A mirror (det < 0) turns outward normals inward: rewind the triangles.
  if (scale.prod() < 0)
    for (Eigen::Vector3i& t : out.triangles) std::swap(t[1], t[2]);
  return out;
}

Mesh load_mesh(const std::string& path, const Eigen::Vector3d& scale) {
  const std::string ext = lower_extension(path);
  if (ext != ".stl" && ext != ".obj" && !assimp_reads(ext)) refuse_format(path, ext);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw LoadError(path, 0, "mesh file not found");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxMeshFileBytes)
    throw LoadError(path, 0, "mesh file larger than " + std::to_string(kMaxMeshFileBytes >> 20) + " MiB");
  // Assimp reads from the file itself: glTF and others may refer to files beside it (buffers).
  Mesh mesh = ext == ".stl" || ext == ".obj" ? parse_mesh(read_file(path), ext, path) : read_mesh_with_assimp(path, ext);
  if (mesh.triangles.empty()) throw LoadError(path, 0, "the mesh has no triangles");
  mesh.filename = path;
  mesh.scale = Eigen::Vector3d::Ones();
  return scale.isOnes() ? mesh : scaled_mesh(mesh, scale);
}

Mesh parse_mesh(const std::string& bytes, const std::string& extension, const std::string& path) {
  const std::string ext = lower_extension("x" + extension);
  Mesh mesh;
  if (ext != ".stl" && ext != ".obj") {
    if (!assimp_reads(ext)) refuse_format(path, ext);
    mesh = read_mesh_with_assimp_from_memory(bytes, ext, path);
  } else if (ext == ".obj") {
    mesh = read_obj(path, bytes);
  } else if (is_binary_stl(bytes)) {
    mesh = read_binary_stl(path, bytes);
  } else {
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || !Tokens::equals_ignoring_case(std::string_view(bytes).substr(first, 5), "solid")) {
      std::string message = "neither a binary STL (";
      if (bytes.size() < kStlPreambleBytes) {
        message += "shorter than the 84-byte preamble";
      } else {
        const std::uint64_t n = read_u32_le(bytes.data() + kStlHeaderBytes);
        message += std::to_string(n) + " triangles need " + std::to_string(kStlPreambleBytes + kStlTriangleBytes * n) +
                   " bytes, the file has " + std::to_string(bytes.size());
      }
      throw LoadError(path, 0, message + ") nor an ASCII STL (no leading 'solid')");
    }
    mesh = read_ascii_stl(path, bytes);
  }
  if (mesh.triangles.empty()) throw LoadError(path, 0, "the mesh has no triangles");
  mesh.filename = path;
  return mesh;
}

}  // namespace impetus
