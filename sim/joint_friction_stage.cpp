// The joint-friction stage (joint_friction_stage.hpp): QP4 per tree on the stepper's v*.
#include "sim/joint_friction_stage.hpp"

#include <algorithm>
#include <cmath>

#include "contact/joint_friction/joint_friction.hpp"
#include "dynamics/mimic.hpp"

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
      // In the independent coordinates u (dynamics/mimic.hpp): a mimic joint's friction acts on its root
      // leader's u_c with the bound |g|·β (its dissipation β|v_m| = |g|β|u_c|), summed with the leader's.
      const int k = j.v_index - tree.v_offset, c = tree.u_column[k];
      const double beta = std::abs(tree.u_gain[k]) * dt * j.friction;   // β = dt·μ_c (Coulomb only)
      const auto same = std::find(dofs.begin(), dofs.end(), c);
      if (same != dofs.end()) betas[same - dofs.begin()] += beta;
      else {
        dofs.push_back(c);
        betas.push_back(beta);
      }
    }
    if (dofs.empty()) continue;
    bound = Eigen::Map<const Eigen::VectorXd>(betas.data(), static_cast<Eigen::Index>(betas.size()));
    v_star.resize(tree.nu);
    gather_independent(tree, data.v_star.segment(tree.v_offset, tree.nv), v_star);
    solver.solve(data.M_llt[t], v_star, dofs, bound, x, v);
    expand_independent(tree, v, data.v_star.segment(tree.v_offset, tree.nv));
  }
}

}  // namespace impetus
