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
#include "dynamics/kinematics.hpp"
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
/// in 1/s² and 1/s, critically damped: standing, ω = 10 rad/s; trotting, ω = √1000 ≈ 32 rad/s (kd = 2ω ≈ 63):
/// a 75 ms swing is ~2.4/ω, so the swing legs follow their splines (at ω = 10 they lag ~33 mrad and land
/// with velocity, and every ID controller fell within 1 s on μ = 0.1; at ω = 32, id_qp_coulomb,
/// id_lcp_coulomb and both id_sensed trot 5 s there).
std::string gains(const std::string& controller, bool trot) {
  if (controller == "pid") return R"( kp="20" kd="0.2")";
  return trot ? R"( kp="1000" kd="63")" : R"( kp="100" kd="20")";
}

/// The trot's stance anchors (closed_loop_trot.hpp's anchor_aim): pid's legs (kp 20 N·m/rad) halfway toward
/// where each swing aimed — landed where they landed, LINKS fell at 5.75 s of the turn in place on μ = 0.1
/// (its feet slid 2–12 cm from their anchors); aimed alone, nothing pulled the base back to the plan (1 m off
/// in 30 s). The ID controllers' stiff legs keep where the feet landed (halfway, id_qp_coulomb's CoM went
/// 3.6 cm off the first segment and turn instead of 1.8 cm).
double anchor_aim(const std::string& controller) { return controller == "pid" ? 0.5 : 0.0; }

/// The <controller …> opening of a replay controller name: its type, gains and options. id_sensed_lag2 is
/// ID(t_{i−2}), the paper's second sensed-force reference.
std::string controller_element(const std::string& controller, const std::string& gain_attributes) {
  if (controller == "id_sensed_lag2") return R"(<controller type="id_sensed" sensed_lag="2")" + gain_attributes;
  return "<controller type=\"" + controller + "\"" + gain_attributes;
}

/// "model" or "model:solver" → (model, solver); solver empty for the model's default.
std::pair<std::string, std::string> split_model(const std::string& variant) {
  const size_t colon = variant.find(':');
  if (colon == std::string::npos) return {variant, ""};
  return {variant.substr(0, colon), variant.substr(colon + 1)};
}

/// <physics …> for the variant, with the solver element of no_slip and viscous.
std::string physics(const std::string& variant, double dt, double duration, double mu) {
  const auto [model, solver] = split_model(variant);
  std::ostringstream s;
  s << std::setprecision(17) << "<physics dt=\"" << dt << "\" duration=\"" << duration << "\" contact_model=\"" << model
    << "\" mu=\"" << mu << "\"";
  if (solver.empty()) return s.str() + "/>";
  s << ">\n    <" << model << " solver=\"" << solver << "\"/>\n  </physics>";
  return s.str();
}

/// The compliant plane (seed 004 §3.3: "relatively hard", 1 mm deep under LINKS at rest): each foot is a
/// pair of its own, so K = m g / (4 · 1 mm) per foot puts the mean foot 1 mm deep; damping critical for a
/// quarter of the robot on one foot, B = 2√(K m/4) (the paper gives neither value).
constexpr double kLinksMass = 4.8;               // kg, models/links (notes 004 §5.3)
constexpr double kCompliantSink = 0.001;         // m
std::string compliant_attributes() {
  const double k = kLinksMass * 9.81 / (4 * kCompliantSink), b = 2 * std::sqrt(k * kLinksMass / 4);
  std::ostringstream s;
  s << std::setprecision(17) << "stiffness=\"" << k << "\" damping=\"" << b << "\"";
  return s.str();
}

std::string ground(const std::string& terrain) {
  if (terrain == "flat") return R"(<ground mu="0.1"/>)";
  // μ = ∞ is the no_slip model (S v⁺ = T v⁺ = 0 as equality constraints, μ ignored); the ground's μ = 100 is
  // what the Coulomb ID controllers see, as in the paper's own "μ = ∞" runs (id_qp_noslip's mu_infinity).
  if (terrain == "flat_noslip") return R"(<ground mu="100"/>)";
  if (terrain == "compliant") return "<ground mu=\"0.1\" " + compliant_attributes() + "/>";
  if (terrain == "compliant_noslip") return "<ground mu=\"100\" " + compliant_attributes() + "/>";
  return R"(<ground mu="0.5"><height_map seed="1"/></ground>)";
}

/// The simulator's contact model: the paper's stewart_trinkle, no_slip on a μ = ∞ terrain, or the request's.
std::string contact_model(const ReplayRequest& r) {
  if (r.terrain == "flat_noslip" || r.terrain == "compliant_noslip" || r.terrain == "box_noslip") {
    if (!r.contact_model.empty() && r.contact_model != "no_slip")
      throw std::invalid_argument("replay " + r.name + ": terrain " + r.terrain + " is μ = ∞ as no-slip constraints, " +
                                  "the no_slip model; --model " + r.contact_model + " contradicts it");
    return "no_slip";
  }
  return r.contact_model.empty() ? "stewart_trinkle" : r.contact_model;
}


std::string links_scene(const std::string& models_dir, const ReplayRequest& r, double duration, double z,
                        const std::string& joints, const std::string& controller_body) {
  std::ostringstream s;
  s << std::setprecision(17);
  s << "<scene name=\"" << r.name << "\">\n  " << physics(contact_model(r), 0.001, duration, 0.5) << "\n  "
    << ground(r.terrain)
    << "\n  <model name=\"links\" urdf=\"" << models_dir << "/links/links.urdf\" base=\"floating\""
    << " check_triangle_inequality=\"false\">\n    <origin xyz=\"0 0 " << z << "\"/>\n    " << joints
    << "\n    " << controller_element(r.controller, gains(r.controller, r.name != "links_stance")) << controller_body << "\n  </model>\n</scene>\n";
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

/// The open-loop trot's desired joint table (trot_trajectory.hpp), every ms, with exact q̇_des and q̈_des
/// columns: seed000_walk's (its pid trot on the height map falls under the closed-loop <trot> at 5.4 s on
/// no_slip and 0.8 s on viscous, and held 10 s on both with this table; the walk compares solvers).
void write_trot_table(const std::string& models_dir, double base_height, double foot_height, double duration,
                      const std::string& path) {
  const World probe = load_links(models_dir);
  const MultibodyModel& mb = probe.model.multibody;
  const std::array<TrotLeg, kLegs> legs = links_legs(probe);
  TrotPlan plan;
  plan.base_height = base_height;
  plan.foot_height = foot_height;
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

/// The closed-loop trot (control/gait/closed_loop_trot.hpp) as the controller's <trot>, planned for a level
/// ground at foot_height − kFootRadius.
std::string trot_element(double base_height, double foot_height, double duration, double anchor_aim) {
  std::ostringstream out;
  out << std::setprecision(17) << ">\n      <trot legs=\"";
  for (int f = 0; f < kLegs; ++f) out << (f ? " " : "") << kLegNames[f] << "_LEG_1";
  out << "\" base_height=\"" << base_height << "\" foot_height=\"" << foot_height << "\" duration=\"" << duration << '"';
  if (anchor_aim > 0) out << " anchor_aim=\"" << anchor_aim << '"';
  out << "/>\n    </controller>";
  return out.str();
}

/// URDF's fixed-axis roll-pitch-yaw of R = R_z(yaw) R_y(pitch) R_x(roll).
Eigen::Vector3d rpy_of(const Eigen::Matrix3d& R) {
  return {std::atan2(R(2, 1), R(2, 2)), std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0))), std::atan2(R(1, 0), R(0, 0))};
}

constexpr double kPi = 3.14159265358979323846;
const char* kArmJoints[7] = {"X_1", "Y_2", "Z_3", "X_4", "Y_5", "Z_6", "X_7"};
const char* kFingerJoints[4] = {"F_00", "F_01", "F_10", "F_11"};
constexpr double kArmStart = kPi / 2, kFingerStart = kPi / 4;   // rad: the task's initial pose (notes 004 §5.3)
constexpr double kFingerClose = 0.01;                           // rad: the task's further closing
constexpr double kFingerLength = 0.05;                          // m: arm7_hand.urdf, joint to tip centre

std::string arm_joints() {
  std::ostringstream out;
  out << std::setprecision(17);
  for (const char* j : kArmJoints) out << "<joint name=\"" << j << "\" position=\"" << kArmStart << "\"/>";
  for (const char* j : kFingerJoints) out << "<joint name=\"" << j << "\" position=\"" << kFingerStart << "\"/>";
  return out.str();
}

/// The box's pose in the world with the arm at its start: centred between the fingertips, kFingerLength·cos π/4
/// ahead of the finger joints along the hand's x, its faces along the hand's axes (box.urdf's sizes are in
/// the hand's frame), by forward kinematics of the loaded arm.
Eigen::Isometry3d box_pose(const std::string& models_dir) {
  const World probe = load_scene_string("<scene name=\"probe\"><physics dt=\"0.001\"/><model name=\"arm\" urdf=\"" +
                                            models_dir + "/arm7_hand/arm7_hand.urdf\" base=\"fixed\">" + arm_joints() +
                                            "</model></scene>",
                                        models_dir + "/arm7_hand/probe.xml");
  const MultibodyModel& mb = probe.model.multibody;
  MultibodyData data(mb);
  forward_kinematics(mb, data, probe.initial.q, probe.initial.v);
  const Eigen::Isometry3d X_WH = data.X_WL[mb.find_link("arm/HAND")];
  return X_WH * Eigen::Translation3d(kFingerLength * std::cos(kFingerStart), 0, 0);
}

/// Seed 004's manipulator task (notes 004 §3.4, §5.4): the arm follows q_des = π/2 − 0.1(1 − cos 10t) =
/// (π/2 − 0.1) + 0.1 sin(10t + π/2) on all 7 joints, the fingers hold π/4 − 0.01 (closed further, so they
/// squeeze the box); fingertip–box friction μ = 1, or μ = ∞ as no_slip (μ = 100 for the ID controllers).
std::string arm_scene(const std::string& models_dir, const ReplayRequest& r, double duration) {
  const Eigen::Isometry3d X_WB = box_pose(models_dir);
  const Eigen::Vector3d rpy = rpy_of(X_WB.linear());
  std::ostringstream s;
  s << std::setprecision(17);
  s << "<scene name=\"" << r.name << "\">\n  " << physics(contact_model(r), 0.001, duration, r.terrain == "box_mu1" ? 1.0 : 100.0)
    << "\n  <model name=\"arm\" urdf=\"" << models_dir << "/arm7_hand/arm7_hand.urdf\" base=\"fixed\">\n    " << arm_joints()
    << "\n    " << controller_element(r.controller, r.controller == "pid" ? R"( kp="20" kd="0.1">)" : R"( kp="100" kd="20">)");
  for (const char* j : kArmJoints)
    s << "\n      <joint name=\"" << j << "\" offset=\"" << kArmStart - 0.1 << "\" amplitude=\"0.1\" frequency=\"" << 10 / (2 * kPi)
      << "\" phase=\"" << kPi / 2 << "\"/>";
  for (const char* j : kFingerJoints) s << "\n      <joint name=\"" << j << "\" q=\"" << kFingerStart - kFingerClose << "\"/>";
  s << "\n    </controller>\n  </model>\n  <model name=\"box\" urdf=\"" << models_dir << "/arm7_hand/box.urdf\" base=\"floating\">\n"
    << "    <origin xyz=\"" << X_WB.translation().x() << ' ' << X_WB.translation().y() << ' ' << X_WB.translation().z()
    << "\" rpy=\"" << rpy.x() << ' ' << rpy.y() << ' ' << rpy.z() << "\"/>\n  </model>\n</scene>\n";
  return s.str();
}

/// Seed 000's grasp (scenes/grasp_no_slip.xml: its gripper, boxes and squeeze), under the variant's model.
std::string seed000_grasp_scene(const std::string& models_dir, const ReplayRequest& r, double duration) {
  std::ostringstream s;
  s << std::setprecision(17) << "<scene name=\"" << r.name << "\">\n  " << physics(r.contact_model, 0.01, duration, 100)
    << "\n  <model name=\"gripper\" urdf=\"" << models_dir << "/../scenes/grasp_gripper.urdf\" base=\"fixed\" self_collision=\"on\">\n"
    << R"(    <origin xyz="0 0 0.5" rpy="0 0 0"/>
    <actuator joint="left" effort="100"/>
    <actuator joint="right" effort="-100"/>
  </model>
  <body name="box1" mass="0.5">
    <origin xyz="-0.05 0 0.5" rpy="0 0 0"/>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </body>
  <body name="box2" mass="0.5">
    <origin xyz="0.05 0 0.5" rpy="0 0 0"/>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </body>
</scene>
)";
  return s.str();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void require_one_of(const std::string& replay, const char* what, const std::string& value,
                    const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    throw std::invalid_argument("replay " + replay + ": unknown " + what + " '" + value + "' (one of: " + joined(allowed) + ")");
}

}  // namespace

const std::vector<ReplayInfo>& replay_list() {
  static const std::vector<ReplayInfo> list = [] {
    // The paper's seven columns (Table 3's order): QP,μ; QP,∞; LCP,μ; LCP,∞; PID; ID(t_{i−1}); ID(t_{i−2}).
    const std::vector<std::string> controllers = {"id_qp_coulomb", "id_qp_noslip", "id_lcp_coulomb", "id_lcp_noslip",
                                                  "pid", "id_sensed", "id_sensed_lag2"};
    return std::vector<ReplayInfo>{
        {"links_stance", "seed 004: LINKS standing still at init.xml's pose (Σ f_N = 47.088 N)",
         {"flat_noslip", "flat", "compliant_noslip", "compliant", "height_map"}, controllers, {}, 2.0, 10},
        // On the height map the planner's feet and base follow a flat ground at the map's mid-height.
        {"links_trot", "seed 004: LINKS trotting the paper's waypoints at 20 cm/s (gait 0.3 s, duty 0.75, 1.5 cm steps)",
         {"flat_noslip", "flat", "compliant_noslip", "compliant", "height_map"}, controllers, {}, 30.0, 16},
        {"arm7_grasp", "seed 004: arm7_hand holding a 6000 kg/m³ box through q_des = π/2 − 0.1(1 − cos 10t)",
         {"box_noslip", "box_mu1"}, controllers, {}, 3.0, 9},
        {"seed000_grasp", "seed 000 Table I: two fingers squeezing two boxes against gravity, dt 0.01 s, 1000 steps",
         {"none"}, {"none"}, {"no_slip", "stewart_trinkle", "no_slip:lemke"}, 10.0, 1},
        {"seed000_walk", "seed 000 Tables II-III: LINKS trotting 10 s on the height map, principal pivoting vs Lemke",
         {"height_map"}, {"pid"},
         {"no_slip:principal_pivoting", "no_slip:lemke", "viscous:principal_pivoting", "viscous:lemke"}, 10.0, 7},
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

ReplayWatchSpec replay_watch(const std::string& name) {
  ReplayWatchSpec w;
  if (name == "links_stance" || name == "links_trot" || name == "seed000_walk") w.base = "links/BODY";
  if (name == "links_trot" || name == "seed000_walk") w.waypoints = true;
  if (name == "arm7_grasp") {
    w.held = {{"box/BOX", "arm/HAND"}};
    w.tracked_joints = {0, 1, 2, 3, 4, 5, 6};   // the arm's joints only, as the authors' process_data.m
  }
  if (name == "seed000_grasp") w.held = {{"box1", "gripper/finger_left"}, {"box2", "gripper/finger_right"}};
  return w;
}

ReplayWatch replay_watch(const std::string& name, const WorldModel& model) {
  const auto link_of = [&](const std::string& link_name) {
    const int link = model.multibody.find_link(link_name);
    if (link < 0) throw std::logic_error("replay " + name + ": no link " + link_name + " in the scene");
    return link;
  };
  const ReplayWatchSpec spec = replay_watch(name);
  ReplayWatch w;
  for (const auto& [body, holder] : spec.held) w.held.emplace_back(link_of(body), link_of(holder));
  if (!spec.base.empty()) w.base = link_of(spec.base);
  if (spec.waypoints) {
    const BasePathParameters path;
    w.waypoints = path.waypoints;
    if (path.patrol) w.waypoints.push_back(path.waypoints.front());   // the patrol walks back to the first
  }
  return w;
}

std::string write_replay_scene(const ReplayRequest& request, const std::string& models_dir, const std::string& dir) {
  const ReplayInfo& info = find_replay(request.name);
  ReplayRequest r = request;
  if (r.controller.empty()) r.controller = info.controllers.front();
  if (r.terrain.empty()) r.terrain = info.terrains.front();
  if (r.contact_model.empty() && !info.models.empty()) r.contact_model = info.models.front();
  require_one_of(r.name, "controller", r.controller, info.controllers);
  require_one_of(r.name, "terrain", r.terrain, info.terrains);
  if (!info.models.empty()) require_one_of(r.name, "model", r.contact_model, info.models);
  const double duration = r.duration >= 0 ? r.duration : info.duration;
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/replay.xml";
  std::string scene;
  if (r.name == "arm7_grasp") {
    scene = arm_scene(models_dir, r, duration);
  } else if (r.name == "seed000_grasp") {
    scene = seed000_grasp_scene(models_dir, r, duration);
  } else {
    // On the height map the robot starts above its highest point (3 cm) and drops onto it.
    const double z = standing_height() + (r.terrain == "height_map" ? 0.03 : 0.0);
    std::string body = "/>";
    if (r.name != "links_stance") {
      // On the height map the trot is planned for a flat ground at the map's mid-height (1.5 cm); the legs'
      // feedback and the contacts take up the ±1.5 cm of the bumps (the planner does not read the terrain).
      const double ground_z = r.terrain == "height_map" ? 0.015 : 0.0;
      if (r.name == "seed000_walk") {
        write_trot_table(models_dir, standing_height() + ground_z, kFootRadius + ground_z, duration, dir + "/desired.csv");
        body = " trajectory=\"desired.csv\"/>";
      } else {
        body = trot_element(standing_height() + ground_z, kFootRadius + ground_z, duration, anchor_aim(r.controller));
      }
    }
    scene = links_scene(models_dir, r, duration, z, standing_joints(standing_pose(models_dir, standing_height())), body);
  }
  std::ofstream out(path);
  out << scene;
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace impetus
