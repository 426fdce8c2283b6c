#include "dynamics/data.hpp"

namespace impetus {

MultibodyData::MultibodyData(const MultibodyModel& model)
    : X_WL(model.links.size(), Eigen::Isometry3d::Identity()),
      V(model.links.size(), Vec6::Zero()),
      p_WC(model.links.size(), Vec3::Zero()),
      I(model.links.size(), Mat6::Zero()),
      S(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)),
      tau(Eigen::VectorXd::Zero(model.nv)),
      h_inputs(Eigen::VectorXd::Zero(model.nv + 6 * static_cast<Eigen::Index>(model.links.size()))),
      Ic(model.links.size(), Mat6::Zero()),
      a(model.links.size(), Vec6::Zero()),
      f(model.links.size(), Vec6::Zero()),
      zero_vdot(Eigen::VectorXd::Zero(model.nv)) {
  M.reserve(model.trees.size());
  M_inputs.reserve(model.trees.size());
  for (const Tree& tree : model.trees) {
    M.push_back(Eigen::MatrixXd::Zero(tree.nv, tree.nv));
    M_inputs.push_back(Eigen::VectorXd::Zero(36 * tree.num_links + 6 * tree.nv));
  }
  kinematics_pass.assign(model.trees.size(), 0);
  M_kept.assign(model.trees.size(), 0);
  M_pass.assign(model.trees.size(), 0);
  M_writes.assign(model.trees.size(), 0);
  h_kept.assign(model.trees.size(), 0);
}

}  // namespace impetus
