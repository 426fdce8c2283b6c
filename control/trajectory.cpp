// Desired trajectories (trajectory.hpp).
#include "control/trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

namespace impetus {
namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::stringstream in(line);
  while (std::getline(in, cell, ',')) {
    const auto b = cell.find_first_not_of(" \t\r"), e = cell.find_last_not_of(" \t\r");
    cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

/// Central differences of samples y over t (one-sided at the ends): the stated differentiation scheme.
Eigen::MatrixXd differentiate(const std::vector<double>& t, const Eigen::MatrixXd& y) {
  const int n = static_cast<int>(t.size());
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(n, y.cols());
  if (n < 2) return d;
  for (int i = 0; i < n; ++i) {
    const int a = std::max(i - 1, 0), b = std::min(i + 1, n - 1);
    d.row(i) = (y.row(b) - y.row(a)) / (t[b] - t[a]);
  }
  return d;
}

}  // namespace

DesiredTrajectory DesiredTrajectory::generators(std::vector<JointSinusoid> joints) {
  DesiredTrajectory trajectory;
  trajectory.na_ = static_cast<int>(joints.size());
  trajectory.sinusoids_ = std::move(joints);
  return trajectory;
}

DesiredTrajectory DesiredTrajectory::from_samples(std::vector<double> t, Eigen::MatrixXd q, Eigen::MatrixXd qd,
                                                  Eigen::MatrixXd qdd) {
  const Eigen::Index rows = static_cast<Eigen::Index>(t.size());
  if (rows == 0 || q.rows() != rows || qd.rows() != rows || qdd.rows() != rows || qd.cols() != q.cols() ||
      qdd.cols() != q.cols())
    throw std::invalid_argument("trajectory samples: t, q, qd, qdd must have the same rows and q, qd, qdd the same columns");
  for (std::size_t i = 1; i < t.size(); ++i)
    if (!(t[i] > t[i - 1])) throw std::invalid_argument("trajectory samples: t must increase strictly");
  if (!q.allFinite() || !qd.allFinite() || !qdd.allFinite())
    throw std::invalid_argument("trajectory samples: every value must be finite");
  DesiredTrajectory trajectory;
  trajectory.na_ = static_cast<int>(q.cols());
  trajectory.t_ = std::move(t);
  trajectory.q_ = std::move(q);
  trajectory.qd_ = std::move(qd);
  trajectory.qdd_ = std::move(qdd);
  return trajectory;
}

DesiredTrajectory DesiredTrajectory::from_csv(const std::string& path, const std::vector<std::string>& joints) {
  std::ifstream in(path);
  if (!in) throw TrajectoryError(path, 0, "cannot open the trajectory file");
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {   // the header: the first line that is not blank
    ++line_number;
    if (line.find_first_not_of(" \t\r") != std::string::npos) break;
  }
  if (line_number == 0 || line.find_first_not_of(" \t\r") == std::string::npos)
    throw TrajectoryError(path, 0, "the trajectory file is empty (expected a header t,JOINT,…)");
  const int header_line = line_number;
  const std::vector<std::string> header = split_csv(line);
  std::map<std::string, int> column;
  for (int c = 0; c < static_cast<int>(header.size()); ++c) {
    if (header[c].empty()) throw TrajectoryError(path, header_line, "column " + std::to_string(c + 1) + " has no name");
    if (!column.emplace(header[c], c).second)
      throw TrajectoryError(path, header_line, "column '" + header[c] + "' appears twice");
  }
  if (!column.count("t")) throw TrajectoryError(path, header_line, "missing column 't'");
  const int na = static_cast<int>(joints.size());
  std::vector<int> q_col(na), qd_col(na, -1), qdd_col(na, -1);
  std::map<std::string, bool> known{{"t", true}};
  for (int j = 0; j < na; ++j) {
    auto it = column.find(joints[j]);
    if (it == column.end())
      throw TrajectoryError(path, header_line, "missing column '" + joints[j] + "' (q_des of a driven joint)");
    q_col[j] = it->second;
    known[joints[j]] = true;
    if (auto d = column.find(joints[j] + ".qd"); d != column.end()) qd_col[j] = d->second, known[d->first] = true;
    if (auto d = column.find(joints[j] + ".qdd"); d != column.end()) qdd_col[j] = d->second, known[d->first] = true;
  }
  for (const auto& [name, c] : column)
    if (!known.count(name))
      throw TrajectoryError(path, header_line, "column '" + name + "' is not a driven joint (nor JOINT.qd, JOINT.qdd)");

  DesiredTrajectory trajectory;
  trajectory.na_ = na;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::vector<std::string> cells = split_csv(line);
    if (cells.size() != header.size())
      throw TrajectoryError(path, line_number, "expected " + std::to_string(header.size()) + " values, got " +
                                                   std::to_string(cells.size()));
    std::vector<double> values(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c) {
      std::size_t used = 0;
      double value = 0;
      try {
        value = std::stod(cells[c], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != cells[c].size())
        throw TrajectoryError(path, line_number, "column '" + header[c] + "': expected a number, got \"" + cells[c] + "\"");
      if (!std::isfinite(value))
        throw TrajectoryError(path, line_number, "column '" + header[c] + "': value is not finite (\"" + cells[c] + "\")");
      values[c] = value;
    }
    const double t = values[column.at("t")];
    if (!trajectory.t_.empty() && !(t > trajectory.t_.back()))
      throw TrajectoryError(path, line_number, "t = " + cells[column.at("t")] + " does not increase");
    trajectory.t_.push_back(t);
    rows.push_back(std::move(values));
  }
  if (rows.empty()) throw TrajectoryError(path, header_line, "the trajectory has a header but no rows");
  const int n = static_cast<int>(rows.size());
  trajectory.q_.resize(n, na);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < na; ++j) trajectory.q_(i, j) = rows[i][q_col[j]];
  trajectory.qd_ = differentiate(trajectory.t_, trajectory.q_);
  for (int j = 0; j < na; ++j)
    if (qd_col[j] >= 0)
      for (int i = 0; i < n; ++i) trajectory.qd_(i, j) = rows[i][qd_col[j]];
  trajectory.qdd_ = differentiate(trajectory.t_, trajectory.qd_);
  for (int j = 0; j < na; ++j)
    if (qdd_col[j] >= 0)
      for (int i = 0; i < n; ++i) trajectory.qdd_(i, j) = rows[i][qdd_col[j]];
  return trajectory;
}

void DesiredTrajectory::evaluate(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd) const {
  q.resize(na_);
  qd.resize(na_);
  qdd.resize(na_);
  if (!sinusoids_.empty() || t_.empty()) {
    for (int j = 0; j < na_; ++j) {
      const JointSinusoid& s = sinusoids_[j];
      const double w = 2 * std::numbers::pi * s.frequency, angle = w * t + s.phase;
      q[j] = s.offset + s.amplitude * std::sin(angle);
      qd[j] = s.amplitude * w * std::cos(angle);
      qdd[j] = -s.amplitude * w * w * std::sin(angle);
    }
    return;
  }
  const int n = static_cast<int>(t_.size());
  if (t <= t_.front() || t >= t_.back()) {
    q = (t <= t_.front() ? q_.row(0) : q_.row(n - 1)).transpose();
    qd.setZero();
    qdd.setZero();
    return;
  }
  const int i = static_cast<int>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin()) - 1;
  const double s = (t - t_[i]) / (t_[i + 1] - t_[i]);
  q = ((1 - s) * q_.row(i) + s * q_.row(i + 1)).transpose();
  qd = ((1 - s) * qd_.row(i) + s * qd_.row(i + 1)).transpose();
  qdd = ((1 - s) * qdd_.row(i) + s * qdd_.row(i + 1)).transpose();
}

}  // namespace impetus
