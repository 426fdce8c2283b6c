#include "collision/collada_sizes.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "base/load_error.hpp"

namespace impetus {
namespace {

using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

/// Whitespace-separated tokens of a text.
std::uint64_t tokens(const char* text) {
  std::uint64_t n = 0;
  bool in_token = false;
  for (const char* c = text ? text : ""; *c; ++c) {
    const bool space = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
    if (!space && !in_token) ++n;
    in_token = !space;
  }
  return n;
}

std::string hex(unsigned char byte) {
  const char* digits = "0123456789abcdef";
  return {digits[byte >> 4], digits[byte & 15]};
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

class Checker {
 public:
  Checker(const std::string& path) : path_(path) {}

  /// The values of the file and of its arrays (first pass).
  void count(const XMLElement& e) {
    const std::uint64_t n = tokens(e.GetText());
    file_values_ += n;
    if (ends_with(e.Name(), "_array")) array_values_ += n;
    for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) count(*c);
  }

  void check(const XMLElement& e) {
    const std::string_view name = e.Name();
    if (ends_with(name, "_array")) {
      const std::uint64_t values = tokens(e.GetText());
      if (!e.Attribute("count")) fail(e, "no count attribute (the number of values it holds: " + std::to_string(values) + ")");
      if (values > 0 && attribute(e, "count", UINT64_MAX - 1) == 0)
        fail(e, "count=\"0\" but it holds " + std::to_string(values) + " values");
      at_most(e, "count", values, "the values it holds");
    } else if (name == "triangles" || name == "lines" || name == "polylist" || name == "polygons" ||
               name == "tristrips" || name == "trifans" || name == "linestrips") {
      check_primitives(e, name);
    } else if (name == "accessor") {
      const std::uint64_t count = attribute(e, "count", array_values_), stride = attribute(e, "stride", array_values_);
      if (count > 0 && stride > array_values_ / count)
        fail(e, "accessor count " + std::to_string(count) + " × stride " + std::to_string(stride) + " exceeds the " +
                    std::to_string(array_values_) + " values of the file's arrays");
    } else {
      for (const char* a : {"count", "stride", "offset"}) attribute(e, a, file_values_);
    }
    if (name == "p" || name == "h" || name == "vcount" || name == "v") {  // lists of unsigned integers
      for (const char* c = e.GetText() ? e.GetText() : ""; *c; ++c)
        if (!(*c >= '0' && *c <= '9') && *c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
          fail(e, "holds byte 0x" + hex(static_cast<unsigned char>(*c)) + " among its indices (unsigned integers)");
    }
    if (name == "instance_geometry" || name == "instance_node" || name == "instance_controller" ||
        name == "instance_camera" || name == "instance_light" || name == "instance_visual_scene") {
      const char* url = e.Attribute("url");
      if (!url || url[0] != '#')
        fail(e, std::string(url ? "url=\"" + std::string(url) + "\" is not" : "no url, not") +
                    " a reference to an element of this file (\"#id\")");
    }
    for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) check(*c);
  }

 private:
  [[noreturn]] void fail(const XMLElement& e, const std::string& what) const {
    throw LoadError(path_, e.GetLineNum(), "<" + std::string(e.Name()) + ">: " + what);
  }

  /// The attribute as a non-negative integer ≤ bound (0 when absent).
  std::uint64_t attribute(const XMLElement& e, const char* name, std::uint64_t bound) const {
    const char* text = e.Attribute(name);
    if (!text) return 0;
    std::uint64_t value = 0;
    const char* c = text;
    while (*c == ' ') ++c;
    if (!*c) fail(e, std::string(name) + "=\"" + text + "\" is not a non-negative integer");
    for (; *c >= '0' && *c <= '9'; ++c) {
      if (value > (UINT64_MAX - 9) / 10) fail(e, std::string(name) + "=\"" + text + "\" is too large");
      value = value * 10 + static_cast<std::uint64_t>(*c - '0');
    }
    while (*c == ' ') ++c;
    if (*c) fail(e, std::string(name) + "=\"" + text + "\" is not a non-negative integer");
    if (value > bound)
      fail(e, std::string(name) + "=\"" + text + "\" exceeds the " + std::to_string(bound) + " values of the file");
    return value;
  }

  void at_most(const XMLElement& e, const char* name, std::uint64_t bound, const std::string& what) const {
    const char* text = e.Attribute(name);
    if (!text) return;
    const std::uint64_t value = attribute(e, name, UINT64_MAX - 1);
    if (value > bound)
      fail(e, std::string(name) + "=\"" + text + "\" but " + what + ": " + std::to_string(bound));
  }

  void check_primitives(const XMLElement& e, std::string_view name) {
    std::uint64_t offsets = 1, indices = 0, p_elements = 0, vcount_values = 0, vcount_sum = 0;
    for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view child = c->Name();
      if (child == "input") offsets = std::max(offsets, attribute(*c, "offset", file_values_) + 1);
      else if (child == "p") {
        indices += tokens(c->GetText());
        ++p_elements;
      } else if (child == "ph") {  // <polygons>: a polygon with holes, <p> and <h> inside
        ++p_elements;
        for (const XMLElement* h = c->FirstChildElement(); h; h = h->NextSiblingElement()) indices += tokens(h->GetText());
      } else if (child == "vcount") {
        vcount_values = tokens(c->GetText());
        const char* t = c->GetText();
        for (const char* s = t ? t : ""; *s;) {  // Σ vcount, saturating
          char* end = nullptr;
          const unsigned long long v = std::strtoull(s, &end, 10);
          if (end == s) break;
          vcount_sum = v > UINT64_MAX / 4 - vcount_sum ? UINT64_MAX / 4 : vcount_sum + v;
          s = end;
        }
      }
    }
    const std::uint64_t count = attribute(e, "count", file_values_);
    if (offsets > 1 && offsets - 1 > indices) fail(e, "an <input offset> beyond the " + std::to_string(indices) + " indices of its <p>");
    std::uint64_t points = 0;
    if (name == "triangles") points = 3 * count;
    else if (name == "lines") points = 2 * count;
    else if (name == "polylist") {
      at_most(e, "count", vcount_values, "its <vcount> holds");
      points = vcount_sum;
    } else {
      at_most(e, "count", p_elements, "its <p> elements number");
    }
    if (points > 0 && offsets > indices / points)
      fail(e, std::to_string(points) + " points of " + std::to_string(offsets) + " indices each, but its <p> holds " +
                  std::to_string(indices) + " indices");
  }

  const std::string& path_;
  std::uint64_t file_values_ = 0, array_values_ = 0;
};

}  // namespace

void check_collada_sizes(const std::string& path, const std::string& bytes) {
  tinyxml2::XMLDocument document;
  if (document.Parse(bytes.data(), bytes.size()) != tinyxml2::XML_SUCCESS)
    throw LoadError(path, document.ErrorLineNum(), std::string("not well-formed XML: ") + document.ErrorStr());
  const XMLElement* root = document.RootElement();
  if (!root) throw LoadError(path, 0, "no root element");
  Checker checker(path);
  checker.count(*root);
  checker.check(*root);
}

}  // namespace impetus
