#include "dynamics/model.hpp"

#include <stdexcept>

#include "dynamics/integration.hpp"
#include "dynamics/mimic.hpp"

namespace impetus {

int joint_nq(JointType type) {
  switch (type) {
    case JointType::Fixed: return 0;
    case JointType::Floating: return 7;
    case JointType::Planar: return 3;
    default: return 1;
  }
}

int joint_nv(JointType type) {
  switch (type) {
    case JointType::Fixed: return 0;
    case JointType::Floating: return 6;
    case JointType::Planar: return 3;
    default: return 1;
  }
}

const char* joint_type_name(JointType type) {
  switch (type) {
    case JointType::Fixed: return "fixed";
    case JointType::Revolute: return "revolute";
    case JointType::Continuous: return "continuous";
    case JointType::Prismatic: return "prismatic";
    case JointType::Floating: return "floating";
    case JointType::Planar: return "planar";
  }
  return "?";
}

std::pair<Eigen::Vector3d, Eigen::Vector3d> planar_basis(const Eigen::Vector3d& n) {
  // cos 45° ≈ 0.707: beyond it x is too close to n to span the plane well; y is then at least 45° off.
  const Eigen::Vector3d reference = std::abs(n.x()) < 0.7071 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d e1 = (reference - reference.dot(n) * n).normalized();
  return {e1, n.cross(e1)};
}

int MultibodyModel::add_tree(const std::string& name, std::vector<Link> tree_links) {
  Tree tree;
  tree.name = name;
  tree.first_link = static_cast<int>(links.size());
  tree.num_links = static_cast<int>(tree_links.size());
  tree.q_offset = nq;
  tree.v_offset = nv;
  const int t = static_cast<int>(trees.size());
  for (int i = 0; i < tree.num_links; ++i) {
    Link& link = tree_links[i];
    if (link.parent >= i) throw std::invalid_argument("add_tree: links of '" + name + "' are not parent-first");
    if (link.parent >= 0) link.parent += tree.first_link;
    if (link.joint.mimic >= tree.num_links)
      throw std::invalid_argument("add_tree: joint '" + link.joint.name + "' mimics a link outside its tree");
    if (link.joint.mimic >= 0) link.joint.mimic += tree.first_link;
    link.tree = t;
    link.joint.q_index = nq;
    link.joint.v_index = nv;
    nq += joint_nq(link.joint.type);
    nv += joint_nv(link.joint.type);
    links.push_back(std::move(link));
  }
  tree.nq = nq - tree.q_offset;
  tree.nv = nv - tree.v_offset;
  build_mimic_map(*this, tree);
  trees.push_back(tree);
  return t;
}

int MultibodyModel::find_link(const std::string& link_name) const {
  for (int i = 0; i < static_cast<int>(links.size()); ++i)
    if (links[i].name == link_name) return i;
  return -1;
}

Eigen::VectorXd MultibodyModel::neutral_configuration() const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(nq);
  for (const Link& link : links)
    if (link.joint.type == JointType::Floating) set_quaternion_at(q, link.joint.q_index + 3, Eigen::Quaterniond::Identity());
  return q;
}

}  // namespace impetus
