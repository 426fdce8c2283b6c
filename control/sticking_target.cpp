// The target made consistent with sticking contacts (sticking_target.hpp).
#include "control/sticking_target.hpp"

namespace impetus {
namespace {

// Singular values of J below this fraction of the largest count as zero: rows that repeat others to
// rounding (two contact points of one foot, a contact listed twice) are counted once. J's entries are unit
// directions and lever arms of a few dm, so its independent rows have singular values ≥ ~1e-2.
constexpr double kRankTolerance = 1e-10;

}  // namespace

void make_sticking_consistent(const InverseDynamicsProblem& problem, Eigen::VectorXd& qd_des) {
  if (!problem.contact || problem.contact->nc == 0) return;
  const ContactProblem& c = *problem.contact;
  Eigen::MatrixXd J(3 * c.nc, c.nv);
  J << Eigen::MatrixXd(c.N), Eigen::MatrixXd(c.S), Eigen::MatrixXd(c.T);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  int rank = 0;
  while (rank < sigma.size() && sigma[rank] > kRankTolerance * sigma[0]) ++rank;
  if (rank == c.nv) {   // J v = 0 only at v = 0 (a robot held at every coordinate, e.g. fallen on many contacts)
    qd_des.setZero();
    return;
  }
  const Eigen::MatrixXd Z = svd.matrixV().rightCols(c.nv - rank);
  Eigen::MatrixXd PZ(qd_des.size(), Z.cols());
  for (int a = 0; a < qd_des.size(); ++a) PZ.row(a) = Z.row(problem.actuated[a]);
  qd_des = PZ * PZ.completeOrthogonalDecomposition().solve(qd_des);
}

}  // namespace impetus
