// The replays (replay_registry.hpp).
#include "sim/replay/replay_registry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "control/controller.hpp"
#include "control/gait/trot_trajectory.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus {
namespace {

const char* kLegNames[kLegs] = {"LF", "RF", "LH", "RH"};
// init.xml's standing pose (notes 004 §5.3), per leg (X_1, Y_2, Y_3).
const double kStanding[kLegs][3] = {{0.1, 0.8, 1.2}, {-0.1, -0.8, -1.2}, {-0.1, -0.8, -1.2}, {0.1, 0.8, 1.2}};
constexpr double kFootRadius = 0.01;   // m, links.urdf
// The base height at which the hind feet (their hips 1.5 mm lower than the front ones) touch the ground.
double standing_height() { return (0.0065 + 0.077 * std::sin(0.8) + 0.1 * std::sin(2.0)) * std::cos(0.1) + kFootRadius; }

/// Feedback gains per controller: the joint PD's in N·m/rad and N·m·s/rad (the knee's ~0.5 N·m static load
/// bends it ~25 mrad; kd within the explicit bound for the 3e-4 kg·m² shank at 1 ms); the ID controllers'
/// in 1/s² and 1/s (critically damped, ω = 10 rad/s).
std::string gains(const std::string& controller) {
  return controller == "pid" ? R"( kp="20" kd="0.2")" : R"( kp="100" kd="20")";
}

std::string ground(const std::string& terrain) {
  if (terrain == "flat") return R"(<ground mu="0.1"/>)";
  // μ = ∞ is the no_slip model (S v⁺ = T v⁺ = 0 as equality constraints, μ ignored); the ground's μ = 100 is
  // what the Coulomb ID controllers see, as in the paper's own "μ = ∞" runs (id_qp_noslip's mu_infinity).
  if (terrain == "flat_noslip") return R"(<ground mu="100"/>)";
  return R"(<ground mu="0.5"><height_map seed="1"/></ground>)";
}

/// The simulator's contact model: the paper's stewart_trinkle, no_slip on a μ = ∞ terrain, or the request's.
std::string contact_model(const ReplayRequest& r) {
  if (r.terrain == "flat_noslip") {
    if (!r.contact_model.empty() && r.contact_model != "no_slip")
      throw std::invalid_argument("replay " + r.name + ": terrain flat_noslip is μ = ∞ as no-slip constraints, the " +
                                  "no_slip model; --model " + r.contact_model + " contradicts it (use terrain flat)");
    return "no_slip";
  }
  return r.contact_model.empty() ? "stewart_trinkle" : r.contact_model;
}


std::string links_scene(const std::string& models_dir, const ReplayRequest& r, double duration, double z,
                        const std::string& joints, const std::string& controller_body) {
  std::ostringstream s;
  s << std::setprecision(17);
  s << "<scene name=\"" << r.name << "\">\n  <physics dt=\"0.001\" duration=\"" << duration << "\" contact_model=\""
    << contact_model(r) << "\" mu=\"0.5\"/>\n  " << ground(r.terrain)
    << "\n  <model name=\"links\" urdf=\"" << models_dir << "/links/links.urdf\" base=\"floating\""
    << " check_triangle_inequality=\"false\">\n    <origin xyz=\"0 0 " << z << "\"/>\n    " << joints
    << "\n    <controller type=\"" << r.controller << "\"" << gains(r.controller) << controller_body << "\n  </model>\n</scene>\n";
  return s.str();
}

/// LINKS loaded on its own, for its legs' kinematics.
World load_links(const std::string& models_dir) {
  return load_scene_string("<scene name=\"probe\"><physics dt=\"0.001\"/><model name=\"links\" urdf=\"" + models_dir +
                               "/links/links.urdf\" base=\"floating\" check_triangle_inequality=\"false\"/></scene>",
                           models_dir + "/links/probe.xml");
}

std::array<TrotLeg, kLegs> links_legs(const World& probe) {
  const MultibodyModel& mb = probe.model.multibody;
  std::array<TrotLeg, kLegs> legs;
  for (int f = 0; f < kLegs; ++f) {
    const int foot = mb.find_link(std::string("links/") + kLegNames[f] + "_FOOT");
    Eigen::Vector3d p_KF = Eigen::Vector3d::Zero();
    for (const Geometry& g : probe.model.geometries)
      if (g.link == foot) p_KF = g.X_LG.translation();
    legs[f] = {mb.find_link(std::string("links/") + kLegNames[f] + "_LEG_1"), p_KF,
               Eigen::Vector3d(kStanding[f][0], kStanding[f][1], kStanding[f][2])};
  }
  return legs;
}

/// init.xml's pose with every foot on the ground under a level base at base_height: the hind legs as
/// init.xml has them, the front legs (whose hips sit 1.5 mm higher) stretched by IK to reach the ground,
/// so that no foot lands with an impact at the start.
std::array<Eigen::Vector3d, kLegs> standing_pose(const std::string& models_dir, double base_height) {
  const World probe = load_links(models_dir);
  const std::array<TrotLeg, kLegs> legs = links_legs(probe);
  std::array<Eigen::Vector3d, kLegs> q;
  for (int f = 0; f < kLegs; ++f) {
    const LegKinematics leg(probe.model.multibody, legs[f].abduction_link, legs[f].p_KF, legs[f].standing[2]);
    Eigen::Vector3d p = leg.foot_position(legs[f].standing);
    p.z() = kFootRadius - base_height;
    q[f] = leg.inverse(p);
  }
  return q;
}

std::string standing_joints(const std::array<Eigen::Vector3d, kLegs>& q) {
  std::ostringstream out;
  out << std::setprecision(17);
  for (int f = 0; f < kLegs; ++f) {
    const char* joints[3] = {"_X_1", "_Y_2", "_Y_3"};
    for (int j = 0; j < 3; ++j) out << "<joint name=\"" << kLegNames[f] << joints[j] << "\" position=\"" << q[f][j] << "\"/>";
  }
  return out.str();
}

/// The trot's desired joint table, every ms, with exact q̇_des and q̈_des columns.
void write_trot_table(const std::string& models_dir, double base_height, double duration, const std::string& path) {
  const World probe = load_links(models_dir);
  const MultibodyModel& mb = probe.model.multibody;
  const std::array<TrotLeg, kLegs> legs = links_legs(probe);
  TrotPlan plan;
  plan.base_height = base_height;
  plan.foot_height = kFootRadius;
  plan.path.duration = duration;
  const TrotPlanner planner(mb, legs, plan);
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << std::setprecision(17) << "t";
  const char* joints[3] = {"_X_1", "_Y_2", "_Y_3"};
  for (const char* suffix : {"", ".qd", ".qdd"})
    for (int f = 0; f < kLegs; ++f)
      for (const char* j : joints) out << ',' << kLegNames[f] << j << suffix;
  out << '\n';
  Eigen::VectorXd q, qd, qdd;
  const long n = std::lround(duration / 0.001);
  for (long i = 0; i <= n; ++i) {
    const double t = i * 0.001;
    planner.joints(t, q, qd, qdd);
    out << t;
    for (const Eigen::VectorXd* v : {&q, &qd, &qdd})
      for (int k = 0; k < v->size(); ++k) out << ',' << (*v)[k];
    out << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

const std::vector<ReplayInfo>& replay_list() {
  static const std::vector<ReplayInfo> list = [] {
    const std::vector<std::string> controllers = {"id_qp_coulomb", "id_lcp_coulomb", "id_lcp_noslip", "id_qp_noslip",
                                                  "id_sensed", "pid"};
    return std::vector<ReplayInfo>{
        {"links_stance", "seed 004: LINKS standing still at init.xml's pose (Σ f_N = 47.088 N)",
         {"flat_noslip", "flat", "height_map"}, controllers, 2.0},
        // Not on the height map yet: the planner's feet and base follow a flat ground.
        {"links_trot", "seed 004: LINKS trotting the paper's waypoints at 20 cm/s (gait 0.3 s, duty 0.75, 1.5 cm steps)",
         {"flat_noslip", "flat"}, controllers, 30.0},
    };
  }();
  return list;
}

const ReplayInfo& find_replay(const std::string& name) {
  for (const ReplayInfo& r : replay_list())
    if (r.name == name) return r;
  std::vector<std::string> names;
  for (const ReplayInfo& r : replay_list()) names.push_back(r.name);
  throw std::invalid_argument("unknown replay '" + name + "' (one of: " + joined(names) + ")");
}

std::string write_replay_scene(const ReplayRequest& request, const std::string& models_dir, const std::string& dir) {
  const ReplayInfo& info = find_replay(request.name);
  ReplayRequest r = request;
  if (r.controller.empty()) r.controller = info.controllers.front();
  if (r.terrain.empty()) r.terrain = info.terrains.front();
  if (std::find(info.controllers.begin(), info.controllers.end(), r.controller) == info.controllers.end())
    throw std::invalid_argument("replay " + r.name + ": unknown controller '" + r.controller + "' (one of: " +
                                joined(info.controllers) + ")");
  if (std::find(info.terrains.begin(), info.terrains.end(), r.terrain) == info.terrains.end())
    throw std::invalid_argument("replay " + r.name + ": unknown terrain '" + r.terrain + "' (one of: " +
                                joined(info.terrains) + ")");
  const double duration = r.duration >= 0 ? r.duration : info.duration;
  std::filesystem::create_directories(dir);
  // On the height map the robot starts above its highest point (3 cm) and drops onto it.
  const double z = standing_height() + (r.terrain == "height_map" ? 0.03 : 0.0);
  std::string body = "/>";
  if (r.name == "links_trot") {
    write_trot_table(models_dir, z, duration, dir + "/desired.csv");
    body = " trajectory=\"desired.csv\"/>";
  }
  const std::string path = dir + "/replay.xml";
  std::ofstream out(path);
  out << links_scene(models_dir, r, duration, z, standing_joints(standing_pose(models_dir, standing_height())), body);
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace impetus
