// The text of CSV rows built in memory, then written to its stream in one call.
//
// The recorder's rows hold 13 numbers per body (the thousand resting spheres: 13 000 in a trajectory row), and
// an ostream call per number and per comma (its sentry, its buffer's checks) cost more than formatting the number
// (issue 16). The bytes are those the streams wrote: std::to_chars' shortest form of a double, which reads back
// to the same double, and the decimal form of an integer.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace impetus {

class CsvText {
 public:
  /// The shortest text that reads back to x (deterministic and compact).
  void number(double x);
  void integer(long long x);
  void text(std::string_view s) { text_.append(s); }
  void comma() { text_.push_back(','); }
  void end_row() { text_.push_back('\n'); }
  /// Writes the text to `out` and starts again, keeping the storage (no allocation once the longest text is met).
  void write_to(std::ostream& out) {
    out.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

}  // namespace impetus
