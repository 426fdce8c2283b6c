#include "dynamics/crba.hpp"

#include <cstring>

namespace impetus {

void crba(const MultibodyModel& model, MultibodyData& data) {
  for (int t = 0; t < static_cast<int>(model.trees.size()); ++t) crba_of_tree(model, data, t);
}

void crba_of_tree(const MultibodyModel& model, MultibodyData& data, int t) {
  const Tree& tree = model.trees[t];
  Eigen::MatrixXd& M = data.M[t];
  // M and Iᶜ are functions of the tree's links' Iᵢ and S columns alone: while those are bitwise the last call's
  // (bodies resting to the bit), the recursion would write the kept M again, bit for bit. Only forward kinematics
  // writes them, and it counts its passes: with no pass over the tree since they were last compared (its pass kept
  // by sim/step_kinematics.cpp), they are those bits without a compare.
  if (data.M_kept[t] && data.M_pass[t] == data.kinematics_pass[t]) return;
  data.M_pass[t] = data.kinematics_pass[t];
  const std::size_t I_bytes = sizeof(Mat6) * tree.num_links, S_bytes = sizeof(double) * 6 * tree.nv;
  const void* I = data.I.data() + tree.first_link;
  const void* S = data.S.data() + 6 * tree.v_offset;
  double* kept = data.M_inputs[t].data();
  if (data.M_kept[t] && std::memcmp(kept, I, I_bytes) == 0 && std::memcmp(kept + 36 * tree.num_links, S, S_bytes) == 0)
    return;
  std::memcpy(kept, I, I_bytes);
  std::memcpy(kept + 36 * tree.num_links, S, S_bytes);
  data.M_kept[t] = 1;
  data.h_kept[t] = 0;   // a kept h was made of the I and S just replaced (crba_and_bias_forces_of_tree)
  ++data.M_writes[t];   // what was made of M[t] (sim/free_velocity.cpp's M_eff) is of the last bits
  M.setZero();
  const int first = tree.first_link, last = tree.first_link + tree.num_links - 1;
  for (int i = first; i <= last; ++i) data.Ic[i] = data.I[i];
  for (int i = last; i >= first; --i) {
    const Link& link = model.links[i];
    if (link.parent >= 0) data.Ic[link.parent] += data.Ic[i];
    const int nv = joint_nv(link.joint.type);
    if (nv == 0) continue;
    // F = Iᶜᵢ Sᵢ;  M_ij = Sⱼᵀ F for j on the path from i to the root (RBDA Table 6.2).
    const int ki = link.joint.v_index - tree.v_offset;
    const Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> F = data.Ic[i] * data.S.middleCols(link.joint.v_index, nv);
    M.block(ki, ki, nv, nv).noalias() = data.S.middleCols(link.joint.v_index, nv).transpose() * F;
    for (int j = link.parent; j >= 0; j = model.links[j].parent) {
      const int nvj = joint_nv(model.links[j].joint.type);
      if (nvj == 0) continue;
      const int kj = model.links[j].joint.v_index - tree.v_offset;
      M.block(kj, ki, nvj, nv).noalias() = data.S.middleCols(model.links[j].joint.v_index, nvj).transpose() * F;
      M.block(ki, kj, nv, nvj) = M.block(kj, ki, nvj, nv).transpose();
    }
  }
}

}  // namespace impetus
