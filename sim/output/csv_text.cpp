#include "sim/output/csv_text.hpp"

#include <charconv>

namespace impetus {

void CsvText::number(double x) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  text_.append(buffer, end);
}

void CsvText::integer(long long x) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  text_.append(buffer, end);
}

}  // namespace impetus
