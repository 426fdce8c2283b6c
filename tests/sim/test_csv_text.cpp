// sim/output/csv_text.hpp: every cell reads back to the number written, rows end where they should, and the
// text starts again after each write.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sim/output/csv_text.hpp"

namespace impetus {
namespace {

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  return cells;
}

TEST(CsvText, EveryNumberReadsBackToTheSameBitsAndWritesDoNotCarryOver) {
  // Doubles whose shortest text needs all 17 digits, a subnormal, −0 and the extremes: a recorded state must
  // read back to the state's bits (restart and replay read these files).
  const std::vector<double> first = {1.0 / 3.0, -0.0, 0.1 + 0.2, 4.9e-324, std::numeric_limits<double>::max(),
                                     -8.203487073305337e-31, 9.81};
  const std::vector<double> second = {2.0 / 3.0, 1e300};
  std::ostringstream out;
  CsvText text;
  text.text("a");
  for (double x : first) {
    text.comma();
    text.number(x);
  }
  text.comma();
  text.integer(-42);
  text.end_row();
  text.write_to(out);
  EXPECT_TRUE(text.str().empty());
  text.text("b");
  for (double x : second) {
    text.comma();
    text.number(x);
  }
  text.comma();
  text.integer(std::numeric_limits<int>::max());
  text.end_row();
  text.write_to(out);

  std::istringstream lines(out.str());
  const std::vector<std::vector<double>> expected = {first, second};
  const std::vector<std::string> integers = {"-42", std::to_string(std::numeric_limits<int>::max())};
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    ASSERT_LT(rows, 2);
    const std::vector<std::string> cells = cells_of(line);
    ASSERT_EQ(cells.size(), expected[rows].size() + 2) << line;
    EXPECT_EQ(cells[0], rows == 0 ? "a" : "b");
    for (std::size_t k = 0; k < expected[rows].size(); ++k)
      EXPECT_EQ(std::bit_cast<std::uint64_t>(std::strtod(cells[k + 1].c_str(), nullptr)),
                std::bit_cast<std::uint64_t>(expected[rows][k]))
          << cells[k + 1];
    EXPECT_EQ(cells.back(), integers[rows]);
    ++rows;
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(out.str().back(), '\n');
}

}  // namespace
}  // namespace impetus
