// Line plots as inline SVG for report.html: no script, no external file, readable in any browser and diffable
// as text. A line's NaN samples break it (a quantity not measured there); log_y plots drop y ≤ 0.
#pragma once

#include <string>
#include <vector>

namespace impetus {

struct PlotLine {
  std::string name;           // legend entry; empty: none
  std::vector<double> x, y;
  bool dashed = false;        // a reference (the paper's waypoints, a threshold), drawn grey
};

struct Plot {
  std::string title, x_label, y_label;
  bool log_y = false;
  bool equal_axes = false;    // one metre is as long on both axes (a path in the plane)
  std::vector<PlotLine> lines;
};

/// Where the data's box lands in the picture: x_min… in data units, and the plot area in SVG pixels.
struct PlotFrame {
  double x_min, x_max, y_min, y_max;   // data (log10 of y when log_y)
  double left, right, top, bottom;     // pixels, top < bottom
  double px(double x) const;
  double py(double y) const;           // y already log10'd when log_y
};

/// The frame svg_plot draws `plot` in: the finite data widened to round ticks.
PlotFrame plot_frame(const Plot& plot);
/// An <svg> element of 640 × 360 px.
std::string svg_plot(const Plot& plot);

}  // namespace impetus
