// The robots of the URDF corpus (../shared/urdf-corpus) as a user puts them in a scene: on the ground,
// a floating base dropped from kDropHeight above its lowest point (legged robots, humanoids, hands,
// vehicles), a fixed base at z = 0 (arms, and mechanisms on a stand); μ = 0.8, dt = 1 ms, nothing
// driven, self-collision off (the default), CAD inertias that break the triangle inequality accepted
// (check_triangle_inequality="false", as a user of these CAD exports must). Shared by the suite (tests/sim/test_corpus_robots.cpp, short runs) and the benchmark
// (tools/bench/bench_corpus_robots.cpp, the full 2 s).
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "collision/collision_shape.hpp"
#include "dynamics/kinematics.hpp"
#include "sim/scene/scene_loader.hpp"
#include "tests/sim/shared_corpus.hpp"

namespace impetus::corpus {

/// Height of a floating robot's lowest point above the ground at t = 0 (m): a drop of ~0.1 s.
constexpr double kDropHeight = 0.05;
/// Clearance of a fixed base's moving links above the floor when they would start in it (m).
constexpr double kFixedBaseClearance = 0.01;
constexpr double kFriction = 0.8;
constexpr double kTimeStep = 0.001;           // s

struct Robot {
  std::string name;                           // the corpus's
  std::string kind;                           // MANIFEST.json's description
  std::string urdf;                           // absolute path
  std::string package_path;                   // ROS_PACKAGE_PATH it needs
  bool fixed_base = false;
};

/// The corpus's robots (its manifest's models but the single objects and hand-made edge cases).
inline std::vector<Robot> robots() {
  std::vector<Robot> out;
  const std::string manifest = corpus_dir() + "/MANIFEST.json";
  if (!std::filesystem::exists(manifest)) return out;
  std::ifstream in(manifest);
  const nlohmann::json m = nlohmann::json::parse(in);
  for (const nlohmann::json& model : m["models"]) {
    Robot r;
    r.name = model["name"];
    r.kind = model["kind"];
    if (r.name.rfind("edge-cases/", 0) == 0) continue;
    if (r.name == "cube" || r.name == "sphere2" || r.name == "table") continue;   // objects, not robots
    r.urdf = corpus_dir() + "/" + model["urdf"].get<std::string>();
    for (const auto& [package, root] : model["package_roots"].items()) {
      const std::filesystem::path dir = std::filesystem::path(corpus_dir()) / root.get<std::string>();
      r.package_path += (r.package_path.empty() ? "" : ":") + dir.parent_path().string();
    }
    // Arms stand on a fixed base; so do the mechanisms made to hang from a stand.
    std::string kind = r.kind;
    for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool arm = (kind.find(" arm") != std::string::npos || kind.find("arm,") != std::string::npos ||
                      kind.rfind("arm", 0) == 0 || kind.find("xarm") != std::string::npos) &&
                     kind.find("mobile") == std::string::npos;
    r.fixed_base = arm || kind.find("fixed base") != std::string::npos || kind.find("pendulum") != std::string::npos ||
                   kind.find("cart-pole") != std::string::npos;
    out.push_back(r);
  }
  return out;
}

inline std::string scene_text(const Robot& r, double z, double duration, const std::string& model,
                              const std::string& extra = "") {
  std::ostringstream s;
  s << "<scene name=\"corpus_" << std::filesystem::path(r.urdf).stem().string() << "\">\n"
    << "  <physics dt=\"" << kTimeStep << "\" duration=\"" << duration << "\" mu=\"" << kFriction
    << "\" contact_model=\"" << model << "\"/>\n"
    << "  <ground/>\n"
    << "  <model name=\"robot\" urdf=\"" << r.urdf << "\" base=\"" << (r.fixed_base ? "fixed" : "floating") << "\""
    << " check_triangle_inequality=\"false\"" << extra << ">\n"
    << "    <origin xyz=\"0 0 " << z << "\"/>\n"
    << "  </model>\n"
    << "</scene>\n";
  return s.str();
}

/// The lowest point of the world's collision geometry at its initial state (m); of the links that
/// can move only, when `moving_only`.
inline double lowest_point(const World& world, bool moving_only = false) {
  const MultibodyModel& mb = world.model.multibody;
  MultibodyData data(mb);
  forward_kinematics(mb, data, world.initial.q, world.initial.v);
  double z = std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; g < world.model.geometries.size(); ++g) {
    const Geometry& geometry = world.model.geometries[g];
    if (moving_only && !world.model.collision.link_movable[geometry.link]) continue;
    const CollisionShape shape = prepare_shape(geometry, static_cast<int>(g));
    z = std::min(z, world_bounds(shape, data.X_WL[geometry.link] * geometry.X_LG).min().z());
  }
  return z;
}

/// The robot's scene under `model` for `duration` s (package path set by the caller): a floating
/// robot is raised so that its lowest point starts kDropHeight above the ground; a fixed base stands at
/// z = 0, raised only as far as its moving links need to clear the floor at the initial configuration
/// (the UR5's zero configuration lays its wrist 44 mm into the floor; the cart-pole's cart sits on
/// its rail at z = 0). Throws LoadError when the corpus's URDF is refused.
inline World robot_scene(const Robot& r, double duration, const std::string& model, const std::string& extra = "") {
  const std::string anchor = corpus_dir() + "/corpus_scene.xml";
  const World probe = load_scene_string(scene_text(r, 0, duration, model, extra), anchor);
  const double z = r.fixed_base ? std::max(0.0, kFixedBaseClearance - lowest_point(probe, true))
                                : kDropHeight - lowest_point(probe);
  if (z == 0) return probe;
  return load_scene_string(scene_text(r, z, duration, model, extra), anchor);
}

}  // namespace impetus::corpus
