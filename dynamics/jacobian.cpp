#include "dynamics/jacobian.hpp"

namespace impetus {

Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const MultibodyModel& model, const MultibodyData& data,
                                                       int link, const Vec3& p_W) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> J = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, model.nv);
  for_each_point_jacobian_column(model, data, link, p_W, [&](int k, const Vec3& col) { J.col(k) = col; });
  return J;
}

}  // namespace impetus
