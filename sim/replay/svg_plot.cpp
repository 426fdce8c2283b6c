// Inline SVG line plots (svg_plot.hpp).
#include "sim/replay/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "base/html_escape.hpp"

namespace impetus {
namespace {

constexpr double kWidth = 640, kHeight = 360;
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string fixed(double x) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << x;
  return s.str();
}

std::string label(double x) {
  std::ostringstream s;
  s << std::setprecision(3) << (std::abs(x) < 1e-12 ? 0.0 : x);
  return s.str();
}

/// The tick spacing of 1, 2 or 5 × 10^k giving about five ticks over span.
double tick_step(double span) {
  const double raw = span / 5, decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / decade;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * decade;
}

double y_of(const Plot& plot, double y) { return plot.log_y ? (y > 0 ? std::log10(y) : std::numeric_limits<double>::quiet_NaN()) : y; }

}  // namespace

double PlotFrame::px(double x) const { return left + (x - x_min) / (x_max - x_min) * (right - left); }
double PlotFrame::py(double y) const { return bottom - (y - y_min) / (y_max - y_min) * (bottom - top); }

PlotFrame plot_frame(const Plot& plot) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const PlotLine& line : plot.lines)
    for (size_t i = 0; i < std::min(line.x.size(), line.y.size()); ++i) {
      const double y = y_of(plot, line.y[i]);
      if (!std::isfinite(line.x[i]) || !std::isfinite(y)) continue;
      x0 = std::min(x0, line.x[i]), x1 = std::max(x1, line.x[i]);
      y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  if (!(x0 <= x1)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (x1 - x0 < 1e-12) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-12 * std::max(1.0, std::abs(y0))) y0 -= 0.5, y1 += 0.5;
  PlotFrame f{x0, x1, y0, y1, 70, kWidth - 170, 30, kHeight - 45};
  if (plot.log_y) {
    f.y_min = std::floor(y0), f.y_max = std::ceil(y1);
  } else {
    const double s = tick_step(y1 - y0);
    f.y_min = std::floor(y0 / s) * s, f.y_max = std::ceil(y1 / s) * s;
  }
  const double sx = tick_step(x1 - x0);
  f.x_min = std::floor(x0 / sx) * sx, f.x_max = std::ceil(x1 / sx) * sx;
  if (plot.equal_axes) {
    // Widen the shorter side so that a metre has one length in pixels on both axes.
    const double per_x = (f.x_max - f.x_min) / (f.right - f.left), per_y = (f.y_max - f.y_min) / (f.bottom - f.top);
    if (per_x > per_y) {
      const double grow = per_x * (f.bottom - f.top) - (f.y_max - f.y_min);
      f.y_min -= grow / 2, f.y_max += grow / 2;
    } else {
      const double grow = per_y * (f.right - f.left) - (f.x_max - f.x_min);
      f.x_min -= grow / 2, f.x_max += grow / 2;
    }
  }
  return f;
}

std::string svg_plot(const Plot& plot) {
  const PlotFrame f = plot_frame(plot);
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight << "\" viewBox=\"0 0 "
    << kWidth << ' ' << kHeight << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<text x=\"" << kWidth / 2 << "\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">" << html_escape(plot.title) << "</text>\n";
  o << "<rect x=\"" << f.left << "\" y=\"" << f.top << "\" width=\"" << f.right - f.left << "\" height=\"" << f.bottom - f.top
    << "\" fill=\"none\" stroke=\"#444\"/>\n";
  // Ticks and grid.
  const double sx = tick_step(f.x_max - f.x_min);
  for (double x = std::ceil(f.x_min / sx) * sx; x <= f.x_max + 1e-9 * sx; x += sx)
    o << "<line x1=\"" << fixed(f.px(x)) << "\" y1=\"" << f.top << "\" x2=\"" << fixed(f.px(x)) << "\" y2=\"" << f.bottom
      << "\" stroke=\"#ddd\"/><text x=\"" << fixed(f.px(x)) << "\" y=\"" << f.bottom + 14 << "\" text-anchor=\"middle\">"
      << label(x) << "</text>\n";
  const double sy = plot.log_y ? 1.0 : tick_step(f.y_max - f.y_min);
  for (double y = std::ceil(f.y_min / sy) * sy; y <= f.y_max + 1e-9 * sy; y += sy)
    o << "<line x1=\"" << f.left << "\" y1=\"" << fixed(f.py(y)) << "\" x2=\"" << f.right << "\" y2=\"" << fixed(f.py(y))
      << "\" stroke=\"#ddd\"/><text x=\"" << f.left - 4 << "\" y=\"" << fixed(f.py(y) + 4) << "\" text-anchor=\"end\">"
      << (plot.log_y ? "1e" + label(y) : label(y)) << "</text>\n";
  o << "<text x=\"" << (f.left + f.right) / 2 << "\" y=\"" << kHeight - 8 << "\" text-anchor=\"middle\">" << html_escape(plot.x_label)
    << "</text>\n<text transform=\"translate(14," << (f.top + f.bottom) / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
    << html_escape(plot.y_label) << "</text>\n";
  // Lines, each cut where a sample is missing; the legend beside the plot.
  int colour = 0, legend_row = 0;
  for (const PlotLine& line : plot.lines) {
    const std::string stroke = line.dashed ? "#888" : kColours[colour++ % 8];
    const std::string style = "fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"1.2\"" +
                              (line.dashed ? " stroke-dasharray=\"5,3\"" : "");
    std::string points;
    const auto flush = [&] {
      if (!points.empty()) o << "<polyline " << style << " points=\"" << points << "\"/>\n";
      points.clear();
    };
    for (size_t i = 0; i < std::min(line.x.size(), line.y.size()); ++i) {
      const double y = y_of(plot, line.y[i]);
      if (!std::isfinite(line.x[i]) || !std::isfinite(y)) {
        flush();
        continue;
      }
      points += (points.empty() ? "" : " ") + fixed(f.px(line.x[i])) + "," + fixed(f.py(y));
    }
    flush();
    if (line.name.empty()) continue;
    const double ly = f.top + 8 + 16 * legend_row++;
    o << "<line x1=\"" << f.right + 10 << "\" y1=\"" << ly << "\" x2=\"" << f.right + 30 << "\" y2=\"" << ly << "\" " << style
      << "/><text x=\"" << f.right + 34 << "\" y=\"" << ly + 4 << "\">" << html_escape(line.name) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace impetus
