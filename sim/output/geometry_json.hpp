// geometry.json: the collision geometry of a run, written beside trajectory.csv so that a run
// folder describes itself (the viewer, tools/viewer, draws it).
//
//   {"scene": NAME,
//    "ground": {"z": 0, "normal": [0, 0, 1]} | null,
//    "bodies": [{"id": ID, "static": bool, "shapes": [SHAPE, …]}, …]}     one per link, link order
//
//   SHAPE = {"kind": "box", "size": [x, y, z]}               full edge lengths (m)
//         | {"kind": "sphere", "radius": r}
//         | {"kind": "cylinder" | "capsule", "radius": r, "length": l}   along the shape's z axis
//         | {"kind": "mesh", "filename": F, "vertices": [[x, y, z], …], "triangles": [[i, j, k], …],
//            "decimated": {"method": "vertex clustering", "cell": h, "vertices": V0, "triangles": T0}}
//   and every SHAPE has "pose": {"p": [x, y, z], "q": [w, x, y, z]}, X_LG: the shape's frame G in
//   its body's frame L (collision/geometry.hpp), q unit with w ≥ 0.
//
// ID is the body ID of trajectory.csv (NAME, or MODEL/LINK). A body is static when its tree has no
// velocity coordinates (nv = 0). Mesh vertices are in G with the scale applied. "decimated" is
// present only when the mesh had more than max_mesh_triangles triangles (see decimate_mesh).
// Numbers are written with 17 significant digits: they read back as the same doubles.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/world.hpp"

namespace impetus {

struct GeometryJsonOptions {
  // Triangles of a mesh beyond which it is decimated. 20 000 keeps a scene of a few dozen robot
  // links under a few MiB of JSON and draws at interactive rates in a software-rendered browser.
  int max_mesh_triangles = 20000;
};

/// A mesh reduced by vertex clustering (Rossignac & Borrel 1993): vertices are pooled in the
/// cubic cells of a uniform grid over the bounding box and replaced by their mean; triangles whose
/// corners fall into fewer than three cells disappear, as do duplicates (either orientation). The
/// grid starts at the resolution a surface of max_triangles needs (≈ 2 triangles per cell it
/// crosses) and is coarsened until at most max_triangles remain. A mesh without triangles (a convex
/// point set) is clustered the same way down to max_triangles / 2 points. cell = 0 when the mesh
/// was already within budget (returned as is). Triangles naming a vertex that does not exist are
/// left out in every case.
struct DecimatedMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3i> triangles;
  double cell = 0;                            // grid cell edge (m); 0: not decimated
};
DecimatedMesh decimate_mesh(const std::vector<Eigen::Vector3d>& vertices,
                            const std::vector<Eigen::Vector3i>& triangles, int max_triangles);

/// The text of geometry.json for a model.
std::string geometry_json(const WorldModel& model, const GeometryJsonOptions& options = {});

/// Writes geometry.json; throws std::runtime_error naming the file when it cannot be written.
void write_geometry_json(const WorldModel& model, const std::filesystem::path& file,
                         const GeometryJsonOptions& options = {});

}  // namespace impetus
