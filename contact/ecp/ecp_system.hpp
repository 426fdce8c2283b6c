// The ECP step as a mixed complementarity problem MCP(F) (contact/solvers/semismooth_newton.hpp):
// unknowns, equations, scaling and the analytic Jacobian. The derivation is in contact/ecp/ecp_model.hpp;
// equation tags (E…) refer to it.
//
// Unknowns z, each paired with the equation written after "↔" (free: F_i = 0; bounded: 0 ≤ z_i ⊥ F_i ≥ 0):
//
//   block          unknown (scaled)         physical                  equation
//   -------------  -----------------------  ------------------------  ----------------------------------
//   velocity       ξ (nv), free             v⁺ = s_v ⊙ ξ              Newton–Euler (E1), row j ÷ (M_jj s_v,j)
//   per pair e:    α (3), free              a1 = c + A α              stationarity Σ l_i ν_i + n = 0    (E4)
//                  l_i (m_e), bounded, w    l_i                       −f_i(a1) / ℓ ≥ 0                  (E5)
//                  π_n, bounded             p_n = P π_n               (n·a1 − d − φ_floor) / ℓ ≥ 0      (E6′)
//                  b (3), free              (p_t,p_o,p_r) = P(e_t b₁, e_o b₂, e_r b₃)
//                                                                     μ π_n ŵ/U + ς b = 0               (E7)
//                  ς, bounded               σ = U ς                   μ π_n − ‖b‖ ≥ 0                   (E8)
//   per point c:   π_n, bounded             p_N = P_c π_n             (N v⁺ + φ/dt) / U ≥ 0             (E9)
//                  b (2), free              (p_S, p_T) = P_c b        μ π_n (S v⁺, T v⁺)/U + ς b = 0    (E10)
//                  ς, bounded               σ = U ς                   μ π_n − ‖b‖ ≥ 0                   (E10)
//   per limit:     π_L, bounded             p_L = P_L π_L             (L v⁺ + φ_L/dt) / U ≥ 0           (E11)
//
// Scales (they change the conditioning and the meaning of the tolerance, never the solution):
//   U = g_ref·dt            velocity: what gravity adds in one step (g_ref = kReferenceAcceleration)
//   s_v,j                   U for every coordinate, U/L for the angular coordinates of a pair's body
//   L                       the body's hull diameter
//   ℓ = U·dt                length: how far gravity moves a body in one step; the gap (E6) and the face
//                           rows (E5) share it, so that neither the ECP nor the hull can drift by more than
//                           tolerance·ℓ per step (a looser face scale lets a1 float above the face it rests on)
//   A = ℓ n nᵀ + L (t tᵀ + o oᵀ)   the ECP's unknowns: ℓ along the normal, like the rows it meets; L in the
//                           plane, where a1 is set by the moment balance, which changes by only p_n·ℓ per unit
//                           of an ℓ-scaled α: a Jacobian column ~1e-5 that made Levenberg–Marquardt steps
//                           converge linearly wherever redundant point contacts made the Jacobian singular
//   P = m U, P_c = m_c U    impulses: m the body's mass; m_c = 1/(N M⁻¹ Nᵀ)_cc the contact's effective mass
//   ŵ = (e_t w_t, e_o w_o, e_r w_r)   the weighted slip of seed 003 Eq. 14 (m/s)
// The face pairs (E5) weigh l_i by w = L/ℓ in the FB function (semismooth_newton.hpp S3): a side face's
// multiplier is the tilt it holds (l_i ≈ sin θ), and L·l_i the arc length of that tilt, which is what a
// distance f_i of the ECP from the face compares with. Unweighted, a tilt of 1e-3 would count as "nearer
// zero" than an ECP 0.3 mm from the edge it is about to reach, and Newton would try to level the body in
// one step instead of moving the ECP onto the edge (seen as stalls when a tipped box lands on its face).
// With these, every row is dimensionless and O(1) for O(1) errors: a residual of ε in (E5)–(E6) is a length
// error of ε·ℓ (1e-13 m for ε = 1e-10, dt = 0.01), in (E1) an impulse error of ε·P.
#pragma once

#include <string>
#include <vector>

#include "contact/hull_plane.hpp"
#include "contact/problem.hpp"
#include "contact/result.hpp"
#include "contact/solvers/semismooth_newton.hpp"

namespace impetus::ecp {

/// Acceleration that sets the velocity scale U = g_ref·dt. Any positive value gives the same solution;
/// standard gravity makes U the velocity a resting body must lose to the ground in each step.
constexpr double kReferenceAcceleration = 9.81;

/// Ellipsoidal limit surface of seed 003 Eq. 13.
struct LimitSurface {
  double e_t = 1, e_o = 1;   // dimensionless
  double e_r = 0.1;          // m
};

/// Depth (m) of the hull at the start of the step that (E6′) still pushes out within the step (φ_floor =
/// min(φ₀ + kGapFloorSlop, 0), contact/ecp/ecp_model.hpp): the stepper's penetration recovery leaves
/// penetration up to its slop uncorrected (sim/penetration_recovery.hpp, kRecoverySlop, which must equal
/// this), so the model must not keep it either. Below it, a converged step's round-off (its gap rows hold
/// to tolerance·ℓ ~ 1e-14 m) leaves φ_floor = 0: resting bodies solve the paper's (E6) exactly.
constexpr double kGapFloorSlop = 1e-9;

/// A hull vertex whose height above the lowest one (at the start of the step) exceeds
///   kFaceWindowRelative·L + kFaceWindowSteps·dt·(speed bound of the hull's points)
/// can only enter the support set after a large motion; faces touching no vertex below that height are
/// left out of (E4)–(E5) for hulls with more than kAllFacesUpTo faces. The solution is checked against
/// every face afterwards (EcpSystem::check_all_faces).
constexpr double kFaceWindowRelative = 0.05;
constexpr double kFaceWindowSteps = 3.0;
constexpr int kAllFacesUpTo = 32;

class EcpSystem final : public McpFunction {
 public:
  /// Lays out the unknowns for `problem` (which must outlive every later call). all_faces: put every
  /// hull face into (E4)–(E5) (otherwise only the faces near the support set, see kFaceWindowRelative).
  void setup(const ContactProblem& problem, const HullPlaneProblem& pairs, const LimitSurface& surface, bool all_faces);

  int size() const override { return n_; }
  bool bounded(int i) const override { return bounded_[i] != 0; }
  double weight(int i) const override { return weight_[i]; }
  void evaluate(const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J) override;

  /// Starting points of the Newton method. Each makes v⁺ consistent with its guessed impulses (E1) and
  /// gives the faces through its ECP the multipliers that satisfy (E4) best (non-negative least squares).
  enum class Start {
    Warm,      // the problem's guesses (the previous step's solution); the ECP is kept while it stays in the
               // support set of the hull at the configuration the guessed v⁺ reaches, else moved there
    Level,     // no impulse guess; the ECP at the centroid of the hull points that the free motion (v*) brings
               // within one step's travel of the lowest: the middle of a face about to land flat
    Current,   // no impulse guess; the ECP at the lowest points of the hull at t
    Free,      // no impulse guess; the ECP at the lowest points of the hull at the configuration the free
               // motion (v*) reaches: the exact solution when that motion keeps the hull off the plane
  };
  void initial_guess(Start start, Eigen::VectorXd& z) const;

  /// v⁺, impulses, q⁺ and the pair solutions of z into result.
  void extract(const Eigen::VectorXd& z, ContactResult& result) const;

  /// Largest violation at z, in units of ℓ (as the rows (E5)–(E6)), of a condition that the face selection
  /// could hide: max over every hull face of f_i(a1), and over every hull vertex of n·a1 − n·x_j(q⁺).
  /// ≤ 0 when the ECP lies in Conv(F⁺) and is its lowest point.
  double check_all_faces(const Eigen::VectorXd& z) const;
  /// True when a pair leaves faces out of (E4)–(E5).
  bool has_face_selection() const;

  /// Which equation row i is, for failure messages ("friction cone of body 3").
  std::string describe_row(int i) const;

  double velocity_scale() const { return U_; }

 private:
  /// Geometry of one pair at the start of the step, and its place in z.
  struct Pair {
    const BodyPlanePair* data = nullptr;
    int v = 0;                         // first velocity coordinate of the body in the island
    int q = 0;                         // first configuration coordinate (p_WL, then the quaternion)
    int z = 0;                         // first unknown: α(3), l(m), π_n, b(3), ς
    int m = 0;                         // faces in (E4)–(E5)
    std::vector<int> faces;            // (m) their indices in the hull
    double L = 1, mass = 1, P = 1;     // length, mass and impulse scales
    Eigen::Matrix3d A = Eigen::Matrix3d::Identity();      // scale of the ECP unknowns: a1 = c + A α (m)
    Eigen::Matrix3d A_inv = Eigen::Matrix3d::Identity();  // its inverse
    Eigen::Vector3d c = Eigen::Vector3d::Zero();     // centre of mass at t (W)
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  // R_WL at t
    Eigen::Matrix3Xd u_bar;            // (3×m) face normals at t, R u_i
    Eigen::VectorXd d_c;               // (m) face offsets about the centre of mass, d_i − u_iᵀ p_LC
    double gap_floor = 0;              // φ_floor of (E6′) (m), ≤ 0
    int alpha() const { return z; }
    int l() const { return z + 3; }
    int pn() const { return z + 3 + m; }
    int b() const { return z + 4 + m; }
    int sigma() const { return z + 7 + m; }
  };
  struct Point {
    int row = 0;                       // row of N, S, T
    int z = 0;                         // π_n, b_S, b_T, ς
    double P = 1;                      // impulse scale
  };

  void evaluate_pair(const Pair& p, const Eigen::VectorXd& z, Eigen::VectorXd& F, Eigen::MatrixXd* J,
                     Eigen::Matrix3Xd& nu, Eigen::VectorXd& nu_r) const;
  void pair_configuration(const Pair& p, const Eigen::VectorXd& z, Eigen::Vector3d& c_plus,
                          Eigen::Matrix3d& R_plus) const;
  /// The same from a physical velocity v (nv).
  void predicted_configuration(const Pair& p, const Eigen::VectorXd& v, Eigen::Vector3d& c_plus,
                               Eigen::Matrix3d& R_plus) const;
  /// Centroid of the hull's vertices within `window` (m) of the lowest, posed at (c, R); returns the lowest
  /// height n·x.
  double support_centroid(const Pair& p, const Eigen::Vector3d& c, const Eigen::Matrix3d& R, double window,
                          Eigen::Vector3d& centroid) const;
  /// generalized += W(a1)ᵀ (p_n, p_t, p_o, p_r) on the body's coordinates, lever arm from c at t.
  void add_pair_impulse(const Pair& p, const Eigen::Vector3d& a1, const Eigen::Vector4d& impulse,
                        Eigen::VectorXd& generalized) const;

  const ContactProblem* problem_ = nullptr;
  const HullPlaneProblem* hull_plane_ = nullptr;   // the problem's pairs and configuration
  LimitSurface surface_;
  double U_ = 1, dt_ = 1;
  int n_ = 0, nv_ = 0, limits_z_ = 0;
  std::vector<Pair> pairs_;
  std::vector<Point> points_;
  std::vector<char> bounded_;
  std::vector<double> weight_;         // w_i of the FB pairs (semismooth_newton.hpp S3): L/ℓ for (E5), else 1
  Eigen::VectorXd s_v_;                // (nv) velocity column scales
  Eigen::VectorXd ne_row_scale_;       // (nv) 1/(M_jj s_v,j)
  Eigen::VectorXd P_L_;                // (nl) limit impulse scales
  std::vector<Eigen::Matrix3Xd> nu_;   // per pair (3×m): face normals at t + dt, ν_i = exp(dt[ω]×) R u_i
  // per pair (m): ν_iᵀr of (E5), a whole vector of its own (the product's own plain type, so the same
  // kernel and bits as the temporary it replaces; a segment of a shared buffer takes another path).
  std::vector<Eigen::VectorXd> nu_r_;

  // scratch
  Eigen::VectorXd v_;                  // (nv) v⁺ at the point of evaluation
  Eigen::VectorXd v_minus_star_;       // (nv) v⁺ − v* there
  mutable Eigen::VectorXd face_values_;   // grow-only: the heights of a pair's hull vertices
  mutable Eigen::VectorXd row_, Minv_row_, impulse_, dv_;   // (nv)
  mutable std::vector<Eigen::Vector4d> pair_p_;             // per pair: guessed impulses
  mutable std::vector<Eigen::Vector3d> pair_a1_;            // per pair: guessed ECP
};

}  // namespace impetus::ecp
