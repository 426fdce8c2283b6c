// geometry.json writer (geometry_json.hpp).
#include "sim/output/geometry_json.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace impetus {

namespace {

using nlohmann::json;

constexpr int kCellIndexBits = 21;                    // three indices packed in 63 bits
constexpr long kMaxCellsPerAxis = (1L << kCellIndexBits) - 1;
// Each coarsening step aims this far below the budget, so the loop ends in a few passes.
constexpr double kCoarsenMargin = 0.95;
constexpr double kTrianglesPerCell = 2.0;             // a surface crossing a cell leaves ≈ 2 triangles

json vec(const Eigen::Vector3d& v) { return json::array({v.x(), v.y(), v.z()}); }

json pose(const Eigen::Isometry3d& X_LG) {
  Eigen::Quaterniond q(X_LG.linear());
  q.normalize();
  if (q.w() < 0) q.coeffs() = -q.coeffs();             // q and −q are one rotation: write w ≥ 0
  return {{"p", vec(X_LG.translation())}, {"q", json::array({q.w(), q.x(), q.y(), q.z()})}};
}

struct Clustering {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<int> cluster_of;                        // original vertex → cluster
};

/// Pools vertices by grid cell of edge h from lo; cluster positions are the means.
Clustering cluster(const std::vector<Eigen::Vector3d>& vertices, const Eigen::Vector3d& lo, double h) {
  Clustering c;
  c.cluster_of.resize(vertices.size());
  std::unordered_map<std::uint64_t, int> index;
  std::vector<int> count;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    std::uint64_t key = 0;
    for (int k = 0; k < 3; ++k) {
      const auto cell = static_cast<std::uint64_t>(std::clamp<long>(std::lround(std::floor((vertices[i][k] - lo[k]) / h)),
                                                                     0, kMaxCellsPerAxis));
      key |= cell << (kCellIndexBits * k);
    }
    auto [it, inserted] = index.try_emplace(key, static_cast<int>(c.vertices.size()));
    if (inserted) {
      c.vertices.push_back(Eigen::Vector3d::Zero());
      count.push_back(0);
    }
    c.cluster_of[i] = it->second;
    c.vertices[it->second] += vertices[i];
    ++count[it->second];
  }
  for (std::size_t k = 0; k < c.vertices.size(); ++k) c.vertices[k] /= count[k];
  return c;
}

/// Triangles over clusters: degenerate ones dropped, duplicates (as vertex sets) kept once.
std::vector<Eigen::Vector3i> remap(const std::vector<Eigen::Vector3i>& triangles, const Clustering& c) {
  std::vector<Eigen::Vector3i> out;
  std::unordered_set<std::uint64_t> seen;
  for (const Eigen::Vector3i& t : triangles) {
    Eigen::Vector3i m(c.cluster_of[t[0]], c.cluster_of[t[1]], c.cluster_of[t[2]]);
    if (m[0] == m[1] || m[1] == m[2] || m[0] == m[2]) continue;
    std::array<std::uint64_t, 3> s = {std::uint64_t(m[0]), std::uint64_t(m[1]), std::uint64_t(m[2])};
    std::sort(s.begin(), s.end());
    if (!seen.insert(s[0] | s[1] << kCellIndexBits | s[2] << (2 * kCellIndexBits)).second) continue;
    out.push_back(m);
  }
  return out;
}

/// Keeps only the vertices the triangles use (all of them when there are no triangles), reindexed.
void compact(DecimatedMesh& mesh) {
  if (mesh.triangles.empty()) return;
  std::vector<int> new_index(mesh.vertices.size(), -1);
  std::vector<Eigen::Vector3d> used;
  for (Eigen::Vector3i& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      int& n = new_index[t[k]];
      if (n < 0) {
        n = static_cast<int>(used.size());
        used.push_back(mesh.vertices[t[k]]);
      }
      t[k] = n;
    }
  }
  mesh.vertices = std::move(used);
}

json shape_json(const Shape& shape, const GeometryJsonOptions& options) {
  return std::visit([&](const auto& s) -> json {
    using T = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<T, Box>) return {{"kind", "box"}, {"size", vec(s.size)}};
    else if constexpr (std::is_same_v<T, Sphere>) return {{"kind", "sphere"}, {"radius", s.radius}};
    else if constexpr (std::is_same_v<T, Cylinder>) return {{"kind", "cylinder"}, {"radius", s.radius}, {"length", s.length}};
    else if constexpr (std::is_same_v<T, Capsule>) return {{"kind", "capsule"}, {"radius", s.radius}, {"length", s.length}};
    else {
      static_assert(std::is_same_v<T, Mesh>, "a shape kind geometry.json does not write");
      const DecimatedMesh d = decimate_mesh(s.vertices, s.triangles, options.max_mesh_triangles);
      json j = {{"kind", "mesh"}, {"filename", s.filename}, {"vertices", json::array()}, {"triangles", json::array()}};
      for (const Eigen::Vector3d& v : d.vertices) j["vertices"].push_back(vec(v));
      for (const Eigen::Vector3i& t : d.triangles) j["triangles"].push_back({t[0], t[1], t[2]});
      if (d.cell > 0) {
        j["decimated"] = {{"method", "vertex clustering"}, {"cell", d.cell}, {"vertices", s.vertices.size()},
                          {"triangles", s.triangles.size()}};
      }
      return j;
    }
  }, shape);
}

}  // namespace

DecimatedMesh decimate_mesh(const std::vector<Eigen::Vector3d>& vertices, const std::vector<Eigen::Vector3i>& given,
                            int max_triangles) {
  // A triangle naming a vertex that does not exist cannot be drawn: it is left out.
  std::vector<Eigen::Vector3i> triangles;
  triangles.reserve(given.size());
  const int nv = static_cast<int>(vertices.size());
  for (const Eigen::Vector3i& t : given)
    if (t.minCoeff() >= 0 && t.maxCoeff() < nv) triangles.push_back(t);
  const bool points_only = triangles.empty();
  const std::size_t budget = points_only ? std::max(4, max_triangles / 2) : std::max(1, max_triangles);
  const std::size_t size = points_only ? vertices.size() : triangles.size();
  if (size <= budget || vertices.empty()) return {vertices, triangles, 0.0};

  Eigen::Vector3d lo = vertices[0], hi = vertices[0];
  for (const Eigen::Vector3d& v : vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const double extent = std::max((hi - lo).maxCoeff(), 1e-12);
  // Start where a surface of `budget` triangles would land; a point set fills the volume instead.
  double cells = points_only ? std::cbrt(static_cast<double>(budget)) : std::sqrt(budget / kTrianglesPerCell);
  DecimatedMesh out;
  for (;;) {
    cells = std::clamp(cells, 1.0, static_cast<double>(kMaxCellsPerAxis));
    const double h = extent / cells * (1 + 1e-9);     // the top face of the box stays in the last cell
    const Clustering c = cluster(vertices, lo, h);
    out = {c.vertices, points_only ? std::vector<Eigen::Vector3i>{} : remap(triangles, c), h};
    const std::size_t kept = points_only ? out.vertices.size() : out.triangles.size();
    if (kept <= budget || cells <= 1.0) break;
    // Kept triangles scale with cells² on a surface (cells³ for a point set): aim just under budget.
    const double ratio = static_cast<double>(budget) / static_cast<double>(kept);
    const double next = cells * kCoarsenMargin * (points_only ? std::cbrt(ratio) : std::sqrt(ratio));
    cells = std::min(next, cells - 1.0);
  }
  compact(out);
  return out;
}

std::string geometry_json(const WorldModel& model, const GeometryJsonOptions& options) {
  json bodies = json::array();
  const MultibodyModel& mb = model.multibody;
  std::vector<json> shapes(mb.links.size(), json::array());
  for (const Geometry& g : model.geometries) {
    if (g.link < 0 || g.link >= static_cast<int>(mb.links.size())) continue;   // no body to draw it on
    json s = shape_json(g.shape, options);
    s["pose"] = pose(g.X_LG);
    shapes[g.link].push_back(std::move(s));
  }
  for (std::size_t i = 0; i < mb.links.size(); ++i) {
    const Link& link = mb.links[i];
    const bool is_static = link.tree >= 0 && link.tree < static_cast<int>(mb.trees.size()) && mb.trees[link.tree].nv == 0;
    bodies.push_back({{"id", link.name}, {"static", is_static}, {"shapes", std::move(shapes[i])}});
  }
  json ground = nullptr;
  if (model.has_ground) ground = {{"z", 0.0}, {"normal", json::array({0.0, 0.0, 1.0})}};
  const json doc = {{"scene", model.name}, {"ground", ground}, {"bodies", std::move(bodies)}};
  return doc.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

void write_geometry_json(const WorldModel& model, const std::filesystem::path& file, const GeometryJsonOptions& options) {
  const std::string text = geometry_json(model, options);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << text;
  out.close();
  if (!out) throw std::runtime_error("writing " + file.string() + " failed (disk full?)");
}

}  // namespace impetus
