#include "collision/collada_sizes.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>

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

/// Assimp keeps names and references in 1024-byte strings (aiString, with its terminator) and appends
/// ".jpg" to a texture reference that names no image.
constexpr std::size_t kLongestName = 1024 - 1 - 4;
constexpr std::size_t kShownOfALongName = 24;  // bytes quoted in the refusal

/// The first text among an element's children (what assimp's XML reader takes as its value).
std::string_view first_text(const XMLElement& e) {
  for (const XMLNode* n = e.FirstChild(); n; n = n->NextSibling())
    if (n->ToText()) return n->Value();
  return {};
}

/// A file reference names a file: something but whitespace after an optional "file://".
bool names_a_file(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  text.remove_prefix(first);
  if (text.substr(0, 7) == "file://") text.remove_prefix(7);
  return text.find_first_not_of(" \t\r\n") != std::string_view::npos;
}

/// The schema versions whose image references assimp 5.2 reads differently.
enum class Version { v1_3, v1_4, v1_5 };

class Checker {
 public:
  Checker(const std::string& path, const XMLElement& root) : path_(path) {
    const std::string_view version = root.Attribute("version") ? root.Attribute("version") : "";
    if (version.substr(0, 3) == "1.4") version_ = Version::v1_4;
    else if (version.substr(0, 3) == "1.3") version_ = Version::v1_3;
  }

  /// The values of the file and of its arrays (first pass).
  void count(const XMLElement& e) {
    const std::uint64_t n = tokens(e.GetText());
    file_values_ += n;
    if (ends_with(e.Name(), "_array")) {
      array_values_ += n;
      if (const char* id = e.Attribute("id")) values_by_id_[id] = n;
    }
    for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) count(*c);
  }

  void check(const XMLElement& e) {
    const std::string_view name = e.Name();
    for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next())
      if (std::strlen(a->Value()) > kLongestName) {
        std::size_t shown = kShownOfALongName;
        while (shown > 0 && (static_cast<unsigned char>(a->Value()[shown]) & 0xC0) == 0x80) --shown;  // UTF-8 boundary
        fail(e, std::string(a->Name()) + "=\"" + std::string(a->Value(), shown) + "…\" is " +
                    std::to_string(std::strlen(a->Value())) + " bytes long; names and references are read into " +
                    "1024-byte strings (at most " + std::to_string(kLongestName) + " characters)");
      }
    if (name == "image") check_image_references(e);
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
      const char* source = e.Attribute("source");
      const auto array = source && source[0] == '#' ? values_by_id_.find(source + 1) : values_by_id_.end();
      const bool own = array != values_by_id_.end();
      const std::uint64_t values = own ? array->second : array_values_;
      const std::string of = own ? "the " + std::to_string(values) + " values of its array " + source
                                 : "the " + std::to_string(values) + " values of the file's arrays";
      const std::uint64_t count = attribute(e, "count", array_values_), offset = attribute(e, "offset", array_values_);
      // 1 when absent, as assimp reads it
      const std::uint64_t stride = e.Attribute("stride") ? attribute(e, "stride", array_values_) : 1;
      if (count > 0 && (stride > (values - std::min(offset, values)) / count || offset >= values))
        fail(e, "offset " + std::to_string(offset) + " + count " + std::to_string(count) + " × stride " +
                    std::to_string(stride) + " exceeds " + of);
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
    std::uint64_t offsets = 1, indices = 0, p_elements = 0, p_lists = 0, vcount_values = 0, vcount_sum = 0;
    for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view child = c->Name();
      if ((child == "input" || child == "vcount") && p_elements > 0)
        fail(*c, "after a <p>: the inputs and vertex counts of <" + std::string(name) + "> precede its index lists");
      if (child == "input") offsets = std::max(offsets, attribute(*c, "offset", file_values_) + 1);
      else if (child == "p") {
        indices += tokens(c->GetText());
        ++p_elements;
        ++p_lists;
      } else if (child == "ph") {  // <polygons>: a polygon with holes, <p> and <h> inside
        ++p_elements;
        for (const XMLElement* h = c->FirstChildElement(); h; h = h->NextSiblingElement()) {
          indices += tokens(h->GetText());
          if (std::string_view(h->Name()) == "p") ++p_lists;
        }
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
    if ((name == "triangles" || name == "lines" || name == "polylist") && p_lists > 1)
      fail(e, "holds " + std::to_string(p_lists) + " <p> elements; it has one index list");
    if (name == "polygons" && count != p_lists)
      fail(e, "count=\"" + std::to_string(count) + "\" but it holds " + std::to_string(p_lists) +
                  " polygons (<p> elements)");
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

  /// An image's file reference names a file: assimp reads it from <init_from> in COLLADA 1.4 and from the
  /// <ref> of any other child in 1.5 (files of no known version included), then aborts on an empty name.
  void check_image_references(const XMLElement& image) const {
    for (const XMLElement* c = image.FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) == "image") continue;
      const XMLElement* reference = nullptr;
      if (version_ == Version::v1_4) reference = std::string_view(c->Name()) == "init_from" ? c : nullptr;
      else if (version_ == Version::v1_5) reference = c->FirstChildElement("ref");
      if (reference && !names_a_file(first_text(*reference))) fail(*reference, "names no image file");
    }
  }

  const std::string& path_;
  Version version_ = Version::v1_5;
  std::uint64_t file_values_ = 0, array_values_ = 0;
  std::unordered_map<std::string, std::uint64_t> values_by_id_;
};

}  // namespace

void check_collada_sizes(const std::string& path, const std::string& bytes) {
  tinyxml2::XMLDocument document;
  if (document.Parse(bytes.data(), bytes.size()) != tinyxml2::XML_SUCCESS)
    throw LoadError(path, document.ErrorLineNum(), std::string("not well-formed XML: ") + document.ErrorStr());
  const XMLElement* root = document.RootElement();
  if (!root) throw LoadError(path, 0, "no root element");
  Checker checker(path, *root);
  checker.count(*root);
  checker.check(*root);
}

}  // namespace impetus
