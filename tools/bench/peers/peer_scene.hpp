// The subset of Impetus's scene format the peer engines (ODE, Bullet) rebuild: a ground plane and free or
// static bodies of one box or sphere each, axis-aligned, with the scene's dt, gravity and one μ. The peers read
// the very scene file Impetus runs, so both sides simulate the same geometry; anything outside the subset
// (per-pair <contact>, URDF models, rotated bodies, several collision elements) is refused with file and line.
#pragma once

#include <tinyxml2.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {

struct PeerBody {
  std::string name;
  bool is_static = false;
  bool is_sphere = false;
  std::array<double, 3> size{};  // box: full edge lengths; sphere: {r, r, r}
  double mass = 0;               // kg (0 for static bodies)
  std::array<double, 3> p{};     // centre, world frame
  std::array<double, 3> v{};     // linear velocity
};

struct PeerScene {
  std::string name;
  double dt = 0.001, duration = 1.0, mu = 0.5;
  std::array<double, 3> gravity{0, 0, -9.81};
  bool ground = false;
  std::vector<PeerBody> bodies;
};

class SceneError : public std::runtime_error {
 public:
  SceneError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + what) {}
};

namespace detail {

inline std::array<double, 3> triple(const std::string& file, const tinyxml2::XMLElement* e, const char* attr,
                                    std::array<double, 3> fallback) {
  const char* text = e->Attribute(attr);
  if (!text) return fallback;
  std::array<double, 3> out{};
  if (std::sscanf(text, "%lf %lf %lf", &out[0], &out[1], &out[2]) != 3)
    throw SceneError(file, e->GetLineNum(), std::string("<") + e->Name() + "> " + attr + ": three numbers expected");
  return out;
}

inline double number(const std::string& file, const tinyxml2::XMLElement* e, const char* attr, double fallback) {
  if (!e->Attribute(attr)) return fallback;
  double x = 0;
  if (e->QueryDoubleAttribute(attr, &x) != tinyxml2::XML_SUCCESS || !std::isfinite(x))
    throw SceneError(file, e->GetLineNum(), std::string("<") + e->Name() + "> " + attr + ": a number expected");
  return x;
}

inline void refuse(const std::string& file, const tinyxml2::XMLElement* e, const std::string& why) {
  throw SceneError(file, e->GetLineNum(), "<" + std::string(e->Name()) + ">: " + why + " (not in the peers' subset)");
}

}  // namespace detail

inline PeerScene load_peer_scene(const std::string& file) {
  using namespace detail;
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(file.c_str()) != tinyxml2::XML_SUCCESS)
    throw SceneError(file, doc.ErrorLineNum(), std::string("cannot read the scene: ") + doc.ErrorStr());
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "scene") throw SceneError(file, 1, "<scene> expected at the top");
  PeerScene scene;
  scene.name = root->Attribute("name") ? root->Attribute("name") : "scene";
  for (const tinyxml2::XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "physics") {
      scene.dt = number(file, e, "dt", scene.dt);
      scene.duration = number(file, e, "duration", scene.duration);
      scene.mu = number(file, e, "mu", scene.mu);
      scene.gravity = triple(file, e, "gravity", scene.gravity);
      if (number(file, e, "mu_viscous", 0) != 0) refuse(file, e, "viscous friction");
    } else if (tag == "ground") {
      scene.ground = true;
      if (e->Attribute("mu") && number(file, e, "mu", scene.mu) != scene.mu) refuse(file, e, "a ground μ of its own");
    } else if (tag == "body") {
      PeerBody b;
      b.name = e->Attribute("name") ? e->Attribute("name") : "";
      b.is_static = e->BoolAttribute("static", false);
      if (const auto* o = e->FirstChildElement("origin")) {
        b.p = triple(file, o, "xyz", b.p);
        const auto rpy = triple(file, o, "rpy", {0, 0, 0});
        if (rpy != std::array<double, 3>{0, 0, 0}) refuse(file, o, "a rotated body");
      }
      if (const auto* vel = e->FirstChildElement("velocity")) {
        b.v = triple(file, vel, "linear", b.v);
        if (triple(file, vel, "angular", {0, 0, 0}) != std::array<double, 3>{0, 0, 0})
          refuse(file, vel, "an initial angular velocity");
      }
      if (e->FirstChildElement("inertial")) refuse(file, e->FirstChildElement("inertial"), "an explicit inertia");
      const auto* col = e->FirstChildElement("collision");
      if (!col || col->NextSiblingElement("collision")) refuse(file, e, "exactly one <collision> expected");
      if (const auto* o = col->FirstChildElement("origin"))
        if (triple(file, o, "xyz", {0, 0, 0}) != std::array<double, 3>{0, 0, 0} ||
            triple(file, o, "rpy", {0, 0, 0}) != std::array<double, 3>{0, 0, 0})
          refuse(file, o, "a collision origin off the body frame");
      const auto* geom = col->FirstChildElement("geometry");
      const auto* shape = geom ? geom->FirstChildElement() : nullptr;
      if (!shape) refuse(file, col, "<geometry> with a box or a sphere expected");
      double volume = 0;
      if (std::string(shape->Name()) == "box") {
        b.size = triple(file, shape, "size", {0, 0, 0});
        volume = b.size[0] * b.size[1] * b.size[2];
      } else if (std::string(shape->Name()) == "sphere") {
        const double r = number(file, shape, "radius", 0);
        b.is_sphere = true;
        b.size = {r, r, r};
        volume = 4.0 / 3.0 * M_PI * r * r * r;
      } else {
        refuse(file, shape, "a shape other than box or sphere");
      }
      if (volume <= 0) refuse(file, shape, "a shape without volume");
      if (!b.is_static) {
        b.mass = e->Attribute("mass") ? number(file, e, "mass", 0) : number(file, e, "density", 0) * volume;
        if (!(b.mass > 0)) refuse(file, e, "a free body needs a positive mass or density");
      }
      scene.bodies.push_back(b);
    } else {
      refuse(file, e, "element <" + tag + ">");
    }
  }
  return scene;
}

/// What every peer reports, one JSON line (tools/bench/peers.sh reads it).
struct PeerReport {
  std::string engine, scene, status = "ok";
  double sim_time = 0, wall_time_s = 0, max_penetration = 0, top_drift = 0, max_drift = 0;
  long steps = 0;
  long solver_errors = 0;  // the engine's own complaints (ODE's "LCP internal error" messages)

  void print() const {
    std::printf(
        "{\"engine\": \"%s\", \"scene\": \"%s\", \"status\": \"%s\", \"steps\": %ld, \"sim_time\": %.6g, "
        "\"wall_time_s\": %.6g, \"max_penetration\": %.6g, \"top_drift\": %.6g, \"max_drift\": %.6g, "
        "\"solver_errors\": %ld}\n",
        engine.c_str(), scene.c_str(), status.c_str(), steps, sim_time, wall_time_s, max_penetration, top_drift,
        max_drift, solver_errors);
  }
};

/// Index of the free body that starts highest (the top box of a stack), or -1.
inline int top_body(const PeerScene& scene) {
  int top = -1;
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i)
    if (!scene.bodies[i].is_static && (top < 0 || scene.bodies[i].p[2] > scene.bodies[top].p[2])) top = i;
  return top;
}

inline double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/// Command line shared by the peers: SCENE [--duration S] [--budget S] [--solver NAME].
struct PeerArgs {
  std::string scene_file, solver;
  double duration = -1;   // simulated seconds; < 0: the scene's
  double budget = 600;    // wall seconds of stepping before the run is abandoned (status "over_budget")
};

inline PeerArgs parse_peer_args(int argc, char** argv, const char* usage) {
  PeerArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + ": a value expected");
      return argv[++i];
    };
    if (arg == "--duration") a.duration = std::stod(value());
    else if (arg == "--budget") a.budget = std::stod(value());
    else if (arg == "--solver") a.solver = value();
    else if (!arg.empty() && arg[0] != '-' && a.scene_file.empty()) a.scene_file = arg;
    else throw std::invalid_argument("unknown argument '" + arg + "'\nusage: " + usage);
  }
  if (a.scene_file.empty()) throw std::invalid_argument(std::string("usage: ") + usage);
  return a;
}

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace peers
