// Desired joint trajectories of a controller: q_des(t), q̇_des(t), q̈_des(t) per driven joint.
//
//   constant   q_des = q,  q̇_des = q̈_des = 0
//   sinusoid   q_des = offset + amplitude·sin(2π·frequency·t + phase), its exact derivatives
//              (seed 004's manipulator: q_des = π/2 − 0.1(1 − cos 10t) is offset = π/2 − 0.1,
//              amplitude = 0.1, frequency = 10/2π, phase = π/2)
//   file       a CSV table: header `t,NAME,…` with one column NAME per driven joint (q_des) and
//              optional columns NAME.qd and NAME.qdd; rows strictly increasing in t, every value finite.
//              Between rows q_des (and a given q̇_des, q̈_des) is interpolated linearly. Without a
//              .qd column, q̇_des at row i is the central difference (q_{i+1} − q_{i−1})/(t_{i+1} − t_{i−1})
//              (one-sided at the first and last row), interpolated linearly between rows; without .qdd,
//              q̈_des is the same difference of those q̇_des samples. Before the first row the first row
//              holds and after the last row the last q_des holds, with q̇_des = q̈_des = 0 outside.
#pragma once

#include <Eigen/Dense>
#include <stdexcept>
#include <string>
#include <vector>

namespace impetus {

/// A bad trajectory file: file, line (0: the file as a whole) and what is wrong.
struct TrajectoryError : std::runtime_error {
  TrajectoryError(std::string file_, int line_, const std::string& message_)
      : std::runtime_error(file_ + ":" + std::to_string(line_) + ": error: " + message_),
        file(std::move(file_)), line(line_), message(message_) {}
  std::string file;
  int line;
  std::string message;
};

struct JointSinusoid {
  double offset = 0, amplitude = 0, frequency = 0, phase = 0;   // rad (or m), rad, Hz, rad
};

class DesiredTrajectory {
 public:
  /// Per joint a sinusoid (a constant is amplitude 0).
  static DesiredTrajectory generators(std::vector<JointSinusoid> joints);
  /// Reads the CSV table of `path` for the named joints; throws TrajectoryError.
  static DesiredTrajectory from_csv(const std::string& path, const std::vector<std::string>& joints);
  /// A table of given samples (rows × na each; t strictly increasing), read as a file's table with
  /// .qd and .qdd columns: exact at the rows, linear between them. Throws std::invalid_argument.
  static DesiredTrajectory from_samples(std::vector<double> t, Eigen::MatrixXd q, Eigen::MatrixXd qd,
                                        Eigen::MatrixXd qdd);

  int size() const { return na_; }
  /// q_des, q̇_des, q̈_des (each na) at time t.
  void evaluate(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd) const;

 private:
  int na_ = 0;
  std::vector<JointSinusoid> sinusoids_;   // generators (empty for a table)
  std::vector<double> t_;                  // table: rows
  Eigen::MatrixXd q_, qd_, qdd_;           // (rows × na)
};

}  // namespace impetus
