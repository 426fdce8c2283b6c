// report.html's parts (sim/replay/svg_plot.hpp, replay_series.hpp, replay_html.hpp): the plot puts every
// sample inside its frame in order, a missing sample cuts its line, the series file round-trips and names the
// line of a bad row, and the markdown subset of report.md becomes the same tables in HTML.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>

#include "sim/replay/replay_html.hpp"
#include "sim/replay/replay_series.hpp"
#include "sim/replay/svg_plot.hpp"
#include "temp_dir.hpp"

namespace impetus {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgPlot, FrameHoldsEverySampleAndKeepsTheirOrder) {
  Plot plot{"t", "x", "y", false, false, {{"a", {0, 1, 2, 3}, {-0.3, 2.7, 1.1, 0.4}}, {"b", {0.5, 2.5}, {5.2, -1}}}};
  const PlotFrame f = plot_frame(plot);
  for (const PlotLine& l : plot.lines)
    for (size_t i = 0; i < l.x.size(); ++i) {
      EXPECT_GE(f.px(l.x[i]), f.left - 1e-9);
      EXPECT_LE(f.px(l.x[i]), f.right + 1e-9);
      EXPECT_GE(f.py(l.y[i]), f.top - 1e-9);
      EXPECT_LE(f.py(l.y[i]), f.bottom + 1e-9);
    }
  // Larger y is higher up the picture (smaller pixel row), larger x further right.
  EXPECT_LT(f.py(2.7), f.py(1.1));
  EXPECT_LT(f.px(1), f.px(2));
}

TEST(SvgPlot, EqualAxesGiveAMetreOneLengthOnBothAxes) {
  Plot plot{"path", "x", "y", false, true, {{"p", {-0.3, 0.25, 0.1}, {0, 0.02, -0.01}}}};
  const PlotFrame f = plot_frame(plot);
  EXPECT_NEAR(f.px(1) - f.px(0), f.py(0) - f.py(1), 1e-9);
}

TEST(SvgPlot, AMissingSampleCutsTheLineAndLogDropsNonPositive) {
  const double nan = std::nan("");
  Plot plot{"t", "x", "y", false, false, {{"a", {0, 1, 2, 3, 4}, {1, 2, nan, 3, 4}}}};
  EXPECT_EQ(count(svg_plot(plot), "<polyline"), 1 + 1);   // two pieces (the legend entry is a <line>)
  plot.log_y = true;
  plot.lines[0].y = {1, 10, 0, 100, -1};
  const std::string svg = svg_plot(plot);
  EXPECT_EQ(count(svg, "<polyline"), 2);   // 1, 10 | 100
  EXPECT_NE(svg.find(">1e0<"), std::string::npos);
  EXPECT_NE(svg.find(">1e2<"), std::string::npos);
}

TEST(SvgPlot, NamesAreEscaped) {
  Plot plot{"a < b & c", "x", "y", false, false, {{"<id>", {0, 1}, {0, 1}}}};
  const std::string svg = svg_plot(plot);
  EXPECT_EQ(svg.find("<id>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;id&gt;"), std::string::npos);
  EXPECT_NE(svg.find("a &lt; b &amp; c"), std::string::npos);
}

TEST(ReplaySeries, RoundTripsWithMissingColumnsAndNamesABadLine) {
  const test::TempDir dir("replay_series");
  const std::string path = dir.path() + "/series.csv";
  ReplaySample a, b;
  a.t = 0.01, a.position_error = 0.125, a.max_abs_dtau_dt = 3.5e4, a.com_x = -0.25, a.com_y = 1e-7;
  b.t = 0.02, b.slip = 0.003;   // the last column alone, the others missing
  write_replay_series(path, {a, b});
  const std::vector<ReplaySample> back = read_replay_series(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].position_error, 0.125);
  EXPECT_EQ(back[0].com_y, 1e-7);
  EXPECT_TRUE(std::isnan(back[0].slip) && std::isnan(back[0].normal_force_simulated));
  EXPECT_EQ(back[1].slip, 0.003);
  EXPECT_TRUE(std::isnan(back[1].position_error));
  {
    std::ofstream out(path, std::ios::app);
    out << "0.03,1,2,x,,,,,\n";
  }
  try {
    read_replay_series(path);
    FAIL() << "a bad number was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("series.csv:4: not a number: x"), std::string::npos) << e.what();
  }
}

TEST(ReplayHtml, MarkdownTablesListsAndCodeBecomeHtml) {
  const std::string html = markdown_to_html(
      "# Replay `a<b`\n\nSome text\nwrapped.\n\n- one\n- two\n\n| controller | e |\n|---|---|\n| PID | 0.1 |\n| ID | 0.2 |\n");
  EXPECT_NE(html.find("<h1>Replay <code>a&lt;b</code></h1>"), std::string::npos) << html;
  EXPECT_NE(html.find("<p>Some text\nwrapped.</p>"), std::string::npos) << html;
  EXPECT_EQ(count(html, "<li>"), 2);
  EXPECT_EQ(count(html, "<th>"), 2);
  EXPECT_EQ(count(html, "<td>"), 4);
  EXPECT_NE(html.find("<td>PID</td><td>0.1</td>"), std::string::npos) << html;
  EXPECT_EQ(count(html, "<table>"), count(html, "</table>"));
}

}  // namespace
}  // namespace impetus
