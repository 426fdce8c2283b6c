// The joint-friction stage (joint_friction_stage.hpp): QP4 per tree on the stepper's v*.
#include "sim/joint_friction_stage.hpp"

#include "contact/joint_friction/joint_friction.hpp"

namespace impetus {

void apply_joint_friction(const WorldModel& model, double dt, StepData& data) {
  const MultibodyModel& mb = model.multibody;
  auto& [solver, dofs, betas, bound, v_star, x, v] = data.joint_friction;
  for (std::size_t t = 0; t < mb.trees.size(); ++t) {
    const Tree& tree = mb.trees[t];
    if (tree.nv == 0) continue;
    dofs.clear();
    betas.clear();
    for (int i = tree.first_link; i < tree.first_link + tree.num_links; ++i) {
      const Joint& j = mb.links[i].joint;
      if (joint_nv(j.type) != 1 || j.friction <= 0) continue;
      dofs.push_back(j.v_index - tree.v_offset);
      betas.push_back(dt * j.friction);   // β = dt·μ_c (Coulomb only)
    }
    if (dofs.empty()) continue;
    bound = Eigen::Map<const Eigen::VectorXd>(betas.data(), static_cast<Eigen::Index>(betas.size()));
    v_star = data.v_star.segment(tree.v_offset, tree.nv);
    solver.solve(data.M_llt[t], v_star, dofs, bound, x, v);
    data.v_star.segment(tree.v_offset, tree.nv) = v;
  }
}

}  // namespace impetus
