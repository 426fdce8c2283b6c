// series.csv of a replay run: the quantities behind seed 004's figures, sampled in time so that report.html can
// plot them (Fig. 14/16 tracking error, Fig. 15 torque rate, Fig. 17 COM path, Fig. 18 the manipulator's error
// and the box's slip; Table 5's forces over time). One row per sample window of `kSeriesWindow` seconds:
//   t                     s, the end of the window
//   position_error        rad, mean_j |q_j − q_des,j| at t (Table 3's summand)
//   velocity_error        rad/s, likewise with q̇
//   max_abs_dtau_dt       N·m/s, the largest |τ_i − τ_{i−1}|/Δt in the window (Fig. 15)
//   normal_force_predicted, normal_force_simulated   N, their means over the window's steps with contact
//   com_x, com_y          m, the base's centre of mass at t (Fig. 17)
//   slip                  m, the largest held body's displacement in its holder's frame at t
// A column the run does not measure (no controller, no base, nothing held, no contact in the window) is empty.
// Deterministic, like metrics.json: the same run gives the same file.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace impetus {

inline constexpr double kSeriesWindow = 0.01;   // s: 100 samples a second, 3000 rows for a 30 s trot

struct ReplaySample {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();   // not measured
  double t = 0;
  double position_error = kNone, velocity_error = kNone, max_abs_dtau_dt = kNone;
  double normal_force_predicted = kNone, normal_force_simulated = kNone;
  double com_x = kNone, com_y = kNone, slip = kNone;
};

void write_replay_series(const std::string& path, const std::vector<ReplaySample>& samples);
/// Throws std::runtime_error naming the file and line of a malformed row.
std::vector<ReplaySample> read_replay_series(const std::string& path);

}  // namespace impetus
