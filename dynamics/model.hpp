// The immutable multibody model: trees of links joined by joints (Featherstone, RBDA ch. 4).
//
// Frames: W world, P a link's parent link, J the joint frame, L the link. As in URDF, the joint
// frame is the child link's frame at zero joint displacement: X_WL = X_WP · X_PJ · X_J(q), and the
// joint axis is expressed in J (= L).
//
// Generalized coordinates, per joint type:      nq  nv  q                       v
//   fixed                                       0   0   –                       –
//   revolute, continuous                        1   1   angle (rad)             rate (rad/s)
//   prismatic                                   1   1   displacement (m)        rate (m/s)
//   planar                                      3   3   (x, y, θ): displacement rates (ẋ, ẏ, θ̇)
//                                                       along e₁, e₂ (m), turn
//                                                       about n (rad)
//   floating, on the world (a tree's root)      7   6   p_WL (3), quaternion    v_WC (3): linear velocity of
//                                                       of R_WL as (w,x,y,z)    L's centre of mass C; ω_WL (3):
//                                                                               angular velocity; both in the
//                                                                               WORLD frame
//   floating, under a link (relative 6-DoF)     7   6   p_JL (3), quaternion    ṗ_JL (3) in J's axes; ω_JL (3):
//                                                       of R_JL as (w,x,y,z)    L's angular velocity relative to
//                                                                               J, in L's axes (body frame)
// Why the centre of mass and not L's origin: with v_WC the free-body block of M is diag(m·1, I_C), Newton's
// and Euler's equations decouple, and a free body's linear momentum m·v_WC is conserved to round-off by
// the time stepping. (With the origin's velocity the centripetal acceleration of an off-centre origin
// enters every step and the centre of mass drifts by O(dt).) Outputs (trajectory.csv) and the scene's
// <velocity> speak of the body frame's origin; sim/ converts, v_WL = v_WC + ω × (p_WL − p_WC). The
// integrator moves C by dt·v_WC and turns the body about C (integration.hpp). Checked by finite
// differences in tests/dynamics.
//
// Planar (URDF `planar`): L slides in the plane through J's origin normal to the unit axis n and turns
// about n: X_J(q) = Trans(x·e₁ + y·e₂) · Rot(n, θ), with the in-plane basis (e₁, e₂, n) right-handed
// and e₁ the unit x of J projected on the plane (unit y when x is within 45° of n): planar_basis().
// Its motion subspace has two columns fixed in the parent (the slides) and one fixed in L (the turn
// about n through L's origin), so Ṡ·v = V_P ×ᵐ (S_slide·v_slide) + V_L ×ᵐ (S_turn·θ̇) (kinematics.cpp).
//
// Floating under a link (URDF `floating` whose parent moves): X_J(q) = Trans(p_JL) · Rot(R_JL), the
// relative free motion of L in J. Its velocity is split like the planar joint's: three slides along J's
// axes (fixed in P: ṗ_JL is the rate of q's position, in J) and three turns about L's axes through L's
// origin (fixed in L: ω_JL in L's axes, Ṙ_JL = R_JL·[ω_JL]×). Hence Ṡ·v = V_P ×ᵐ (S_slide·ṗ_JL) +
// V_L ×ᵐ (S_turn·ω_JL), and q ⊕ dt·v is p_JL + dt·ṗ_JL, R_JL·exp(dt·[ω_JL]×) (integration.hpp). Why not the
// root's convention (v_WC, ω in W): relative to a moving parent, a world-frame velocity would make S
// depend on the parent's motion, and the root's reason for it (a free body's momentum conserved by the
// step, its implicit-midpoint rotation) concerns one-link trees only. A floating joint on the world keeps
// the root's convention whatever it carries. Checked by finite differences in tests/dynamics.
#pragma once

#include <Eigen/Geometry>
#include <string>
#include <utility>
#include <vector>

namespace impetus {

enum class JointType { Fixed, Revolute, Continuous, Prismatic, Floating, Planar };

int joint_nq(JointType type);
int joint_nv(JointType type);
const char* joint_type_name(JointType type);

/// The planar joint's in-plane unit vectors (e₁, e₂) in J for its unit normal n (see above).
std::pair<Eigen::Vector3d, Eigen::Vector3d> planar_basis(const Eigen::Vector3d& n);

/// Mass properties of a link, in its own frame L.
struct Inertia {
  double mass = 0;                                         // kg
  Eigen::Vector3d com = Eigen::Vector3d::Zero();           // p_LC: centre of mass in L (m)
  Eigen::Matrix3d I_C = Eigen::Matrix3d::Zero();           // rotational inertia about C, axes of L (kg·m²)
};

struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();  // joint frame in the parent link's frame
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();         // unit, in J (revolute, continuous, prismatic; planar: normal n)
  bool has_limits = false;                                 // revolute and prismatic
  double lower = 0, upper = 0;                             // position limits (rad or m)
  double effort = 0;                                       // |τ| bound on applied torques; 0: none
  double velocity_limit = 0;                               // informative; 0: none
  double damping = 0;                                      // viscous joint damping (N·m·s/rad or N·s/m)
  double friction = 0;                                     // Coulomb joint friction (N·m or N)
  // URDF <mimic>: q = mimic_multiplier · q_leader + mimic_offset, the leader the joint of link `mimic`
  // (1-DoF joints of one tree; dynamics/mimic.hpp). Given to add_tree relative to the tree, like parent.
  int mimic = -1;                                          // link index of the leader's link; −1: none
  double mimic_multiplier = 1, mimic_offset = 0;           // (m/m, rad/rad, m/rad or rad/m; m or rad)
  int q_index = 0;                                         // first coordinate in q
  int v_index = 0;                                         // first coordinate in v
};

struct Link {
  std::string name;                                        // body ID in outputs (NAME or MODEL/LINK)
  int parent = -1;                                         // index of the parent link; −1: world
  int tree = 0;                                            // index into MultibodyModel::trees
  Joint joint;                                             // the joint to the parent
  Inertia inertia;
};

/// A tree ("system" in seed 001): links [first_link, first_link + num_links), contiguous in q and v.
/// A free body is a one-link tree with a floating joint; a static body a tree with nv = 0.
struct Tree {
  std::string name;
  int first_link = 0, num_links = 0;
  int q_offset = 0, nq = 0;
  int v_offset = 0, nv = 0;
  // Mimic joints eliminated (dynamics/mimic.hpp): the tree's velocity v = G·u over its nu independent
  // coordinates u; G has one nonzero per row. Without mimic joints nu = nv and G = 1.
  int nu = 0;
  std::vector<int> u_column;                               // (nv) row k of G: its nonzero's column …
  std::vector<double> u_gain;                              // (nv) … and value (the composed multiplier)
  std::vector<int> u_dof;                                  // (nu) the tree dof that each column of u is (gain 1)
  std::vector<double> u_lower, u_upper;                    // (nu) limits of a 1-DoF column: its joints' limits
                                                           // mapped onto u and intersected; ±∞ where none
  bool has_mimic() const { return nu != nv; }
};

struct MultibodyModel {
  std::vector<Link> links;                                 // topological order: parent < child
  std::vector<Tree> trees;
  int nq = 0, nv = 0;
  Eigen::Vector3d gravity{0, 0, -9.81};                    // m/s²

  /// Appends a tree; its links must be given parent-first, with parents and mimic leaders indexed
  /// relative to the tree (−1: world / none). Fills tree, q/v indices, offsets and the mimic map G.
  /// Returns the tree's index. Throws std::invalid_argument on links out of order, or a mimic that is
  /// not 1-DoF on 1-DoF or whose chain of leaders is a cycle.
  int add_tree(const std::string& name, std::vector<Link> links);
  /// Index of the link with that name, or −1.
  int find_link(const std::string& name) const;
  /// The neutral configuration: zero joint coordinates, identity quaternions.
  Eigen::VectorXd neutral_configuration() const;
};

}  // namespace impetus
