#include "dynamics/kinematics.hpp"

#include "dynamics/integration.hpp"
#include "dynamics/subspace6_times.hpp"

namespace impetus {

namespace {

/// X_J(q): the joint's displacement of L relative to J.
Eigen::Isometry3d joint_transform(const Joint& joint, const Eigen::VectorXd& q) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  switch (joint.type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Continuous: X.linear() = Eigen::AngleAxisd(q[joint.q_index], joint.axis).toRotationMatrix(); break;
    case JointType::Prismatic: X.translation() = q[joint.q_index] * joint.axis; break;
    case JointType::Planar: {
      const auto [e1, e2] = planar_basis(joint.axis);
      X.translation() = q[joint.q_index] * e1 + q[joint.q_index + 1] * e2;
      X.linear() = Eigen::AngleAxisd(q[joint.q_index + 2], joint.axis).toRotationMatrix();
      break;
    }
    case JointType::Floating:
      X.translation() = q.segment<3>(joint.q_index);
      X.linear() = quaternion_at(q, joint.q_index + 3).normalized().toRotationMatrix();
      break;
  }
  return X;
}

void forward_kinematics_of_links(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v, int first, int end) {
  for (int i = first; i < end; ++i) {
    const Link& link = model.links[i];
    const Joint& joint = link.joint;
    const bool on_world = link.parent < 0;
    const Eigen::Isometry3d X_WJ = on_world ? joint.X_PJ : data.X_WL[link.parent] * joint.X_PJ;
    data.X_WL[i] = X_WJ * joint_transform(joint, q);
    data.p_WC[i] = data.X_WL[i] * link.inertia.com;

    // Motion subspace columns in W at O (RBDA Table 4.1, moved to world coordinates).
    const int k = joint.v_index;
    switch (joint.type) {
      case JointType::Fixed: break;
      case JointType::Revolute:
      case JointType::Continuous: {
        const Vec3 a = X_WJ.linear() * joint.axis;
        data.S.col(k) << a, X_WJ.translation().cross(a);
        break;
      }
      case JointType::Prismatic: data.S.col(k) << Vec3::Zero(), X_WJ.linear() * joint.axis; break;
      case JointType::Planar: {
        // Two slides along e₁, e₂ (fixed in P), a turn about n through L's origin (fixed in L).
        const auto [e1, e2] = planar_basis(joint.axis);
        const Vec3 n = X_WJ.linear() * joint.axis, p = data.X_WL[i].translation();
        data.S.col(k) << Vec3::Zero(), X_WJ.linear() * e1;
        data.S.col(k + 1) << Vec3::Zero(), X_WJ.linear() * e2;
        data.S.col(k + 2) << n, p.cross(n);
        break;
      }
      case JointType::Floating: {
        if (on_world) {  // v = (v_WC, ω) in W: V = [ω; v_WC + p_WC × ω]
          const Vec3& p = data.p_WC[i];
          auto S = data.S.middleCols<6>(k);   // fixed size: comma initialisers of runtime blocks took ~1 % of a step
          S.setZero();
          for (int c = 0; c < 3; ++c) {
            S(3 + c, c) = 1;
            S(c, 3 + c) = 1;
            S.col(3 + c).tail<3>() = p.cross(Vec3::Unit(c));   // products by 0 and 1: exact, fused or not
          }
          break;
        }
        // Under a link: slides along J's axes (fixed in P), turns about L's axes through L's origin (fixed in L).
        const Vec3 p = data.X_WL[i].translation();
        for (int c = 0; c < 3; ++c) {
          const Vec3 slide = X_WJ.linear().col(c), turn = data.X_WL[i].linear().col(c);
          data.S.col(k + c) << Vec3::Zero(), slide;
          data.S.col(k + 3 + c) << turn, p.cross(turn);
        }
        break;
      }
    }
    const int nv = joint_nv(joint.type);
    if (kExactSubspace6Times && nv == 6)   // Eigen's bits without its runtime loops (subspace6_times.hpp)
      data.V[i] = (on_world ? Vec6::Zero() : data.V[link.parent]) + subspace6_times(&data.S(0, k), &v[k]);
    else
      data.V[i] = (on_world ? Vec6::Zero() : data.V[link.parent]) + data.S.middleCols(k, nv) * v.segment(k, nv);

    const Mat3& R = data.X_WL[i].linear();
    data.I[i] = spatial_inertia(link.inertia.mass, data.p_WC[i], R * link.inertia.I_C * R.transpose());
  }
}

}  // namespace

void forward_kinematics(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v) {
  forward_kinematics_of_links(model, data, q, v, 0, static_cast<int>(model.links.size()));
  for (std::uint64_t& pass : data.kinematics_pass) ++pass;
}

void forward_kinematics_of_tree(const MultibodyModel& model, MultibodyData& data, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, int tree) {
  const Tree& t = model.trees[tree];
  forward_kinematics_of_links(model, data, q, v, t.first_link, t.first_link + t.num_links);
  ++data.kinematics_pass[tree];
}

Vec6 joint_bias_acceleration(const MultibodyModel& model, const MultibodyData& data, int link,
                             const Eigen::VectorXd& v) {
  const Joint& joint = model.links[link].joint;
  const int k = joint.v_index;
  switch (joint.type) {
    case JointType::Fixed: return Vec6::Zero();
    case JointType::Floating: {
      const int parent = model.links[link].parent;
      if (parent >= 0)  // Ṡv: slides fixed in P move with V_P, turns fixed in L with V_L (model.hpp)
        return cross_motion(data.V[parent], data.S.middleCols<3>(k) * v.segment<3>(k)) +
               cross_motion(data.V[link], data.S.middleCols<3>(k + 3) * v.segment<3>(k + 3));
      // On the world: d/dt (v_WC + p_WC × ω) = v̇_WC + v_WC × ω + p_WC × ω̇: the middle term is Ṡv.
      Vec6 c;
      c << Vec3::Zero(), v.segment<3>(k).cross(v.segment<3>(k + 3));
      return c;
    }
    case JointType::Planar: {
      // Ṡv: slides fixed in the parent move with V_P, the turn fixed in L with V_L (model.hpp).
      const int parent = model.links[link].parent;
      const Vec6 V_P = parent < 0 ? Vec6::Zero() : data.V[parent];
      return cross_motion(V_P, data.S.middleCols<2>(k) * v.segment<2>(k)) +
             cross_motion(data.V[link], data.S.col(k + 2) * v[k + 2]);
    }
    default: return cross_motion(data.V[link], data.S.col(k) * v[k]);
  }
}

}  // namespace impetus
