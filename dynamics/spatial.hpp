// Spatial algebra in world coordinates (Featherstone, "Rigid Body Dynamics Algorithms", ch. 2).
//
// Every spatial quantity here is expressed in the world frame W and measured at W's origin O:
//   motion vector  V = [ω; v_O]    ω angular velocity, v_O velocity of the body point at O
//   force vector   f = [n_O; f]    n_O moment about O, f force
// Working in one frame means no per-link transforms in the recursions; the price is that v_O of a
// body far from O is large, which is harmless at the scales of robotics scenes (metres).
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace impetus {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// [a]×, so that [a]× b = a × b.
inline Mat3 skew(const Vec3& a) {
  Mat3 S;
  S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return S;
}

/// Motion cross product V ×ᵐ m (RBDA eq. 2.31).
inline Vec6 cross_motion(const Vec6& V, const Vec6& m) {
  Vec6 r;
  r.head<3>() = V.head<3>().cross(m.head<3>());
  r.tail<3>() = V.head<3>().cross(m.tail<3>()) + V.tail<3>().cross(m.head<3>());
  return r;
}

/// Force cross product V ×* f (RBDA eq. 2.32).
inline Vec6 cross_force(const Vec6& V, const Vec6& f) {
  Vec6 r;
  r.head<3>() = V.head<3>().cross(f.head<3>()) + V.tail<3>().cross(f.tail<3>());
  r.tail<3>() = V.head<3>().cross(f.tail<3>());
  return r;
}

/// Spatial inertia at O of a body of mass m, centre of mass c and rotational inertia I_C about c
/// (all in W): I = [I_C − m[c]×[c]×,  m[c]×;  −m[c]×,  m·1]  (RBDA eq. 2.63).
inline Mat6 spatial_inertia(double m, const Vec3& c, const Mat3& I_C) {
  const Mat3 C = skew(c);
  Mat6 I;
  I.topLeftCorner<3, 3>() = I_C - m * C * C;
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = -m * C;
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

/// Linear velocity of the body point at p, given the body's spatial velocity V: v_p = v_O + ω × p.
/// Each component of ω × p, a·b − c·d, is one fused multiply-add where the build has FMA, fma(a, b, −(c·d)): the
/// contraction GCC makes of the plain expression, written out so that it cannot change with the code around an
/// inlined call (the recorded velocities of trajectory.csv and summary.json's final_state changed their last
/// bits with edits elsewhere in recorder.cpp).
inline Vec3 point_velocity(const Vec6& V, const Vec3& p) {
  auto difference = [](double a, double b, double c, double d) {   // a·b − c·d
#ifdef __FMA__
    return std::fma(a, b, -(c * d));
#else
    return a * b - c * d;
#endif
  };
  const double wx = V[0], wy = V[1], wz = V[2];
  return Vec3(V[3] + difference(wy, p.z(), wz, p.y()), V[4] + difference(wz, p.x(), wx, p.z()),
              V[5] + difference(wx, p.y(), wy, p.x()));
}

}  // namespace impetus
