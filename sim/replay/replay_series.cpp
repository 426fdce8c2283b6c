// series.csv (replay_series.hpp).
#include "sim/replay/replay_series.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace impetus {
namespace {

constexpr const char* kHeader =
    "t,position_error,velocity_error,max_abs_dtau_dt,normal_force_predicted,normal_force_simulated,com_x,com_y,slip";

double* fields(ReplaySample& s, int k) {
  double* f[] = {&s.t,     &s.position_error, &s.velocity_error, &s.max_abs_dtau_dt, &s.normal_force_predicted,
                 &s.normal_force_simulated, &s.com_x, &s.com_y, &s.slip};
  return f[k];
}
constexpr int kFields = 9;

}  // namespace

void write_replay_series(const std::string& path, const std::vector<ReplaySample>& samples) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.precision(9);
  out << kHeader << '\n';
  for (ReplaySample s : samples) {
    for (int k = 0; k < kFields; ++k) {
      if (k) out << ',';
      if (std::isfinite(*fields(s, k))) out << *fields(s, k);
    }
    out << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<ReplaySample> read_replay_series(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) throw std::runtime_error(path + ":1: not a replay series header");
  std::vector<ReplaySample> samples;
  for (int number = 2; std::getline(in, line); ++number) {
    ReplaySample s;
    std::stringstream row(line);
    std::string cell;
    int k = 0;
    for (; k < kFields && std::getline(row, cell, ','); ++k) {
      double x = std::numeric_limits<double>::quiet_NaN();
      if (!cell.empty()) {
        size_t used = 0;
        try {
          x = std::stod(cell, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != cell.size()) throw std::runtime_error(path + ":" + std::to_string(number) + ": not a number: " + cell);
      }
      *fields(s, k) = x;
    }
    if (k == kFields - 1 && !line.empty() && line.back() == ',') *fields(s, k++) = std::numeric_limits<double>::quiet_NaN();
    if (k != kFields) throw std::runtime_error(path + ":" + std::to_string(number) + ": expected 9 columns");
    if (!std::isfinite(s.t)) throw std::runtime_error(path + ":" + std::to_string(number) + ": no time");
    samples.push_back(s);
  }
  return samples;
}

}  // namespace impetus
