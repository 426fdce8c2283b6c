// Text safe inside HTML and SVG elements and attributes: the self-contained report pages (batch's compare
// pages, a replay's report.html) write names and messages a user chose.
#pragma once

#include <string>

namespace impetus {

inline std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace impetus
