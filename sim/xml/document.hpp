// The XML reading layer shared by the URDF and scene loaders: a parsed file and typed, checked
// access to its elements. Every refusal is a LoadError naming the file, the line, the element, the
// attribute, what was expected and what was found (STYLE.md 13, tier 1), e.g.
//   scene.xml:7: error: <body name="box">: attribute mass: expected a positive number, got "-1"
//
// Values are read with the grammar of sim/xml/values.hpp: finite numbers only, exact counts for
// vectors, "true"/"false"/"1"/"0" for booleans. A value holding an unexpanded xacro expression
// ("$(…)", "${…}") is refused with a message that says to run xacro first.
#pragma once

#include <tinyxml2.h>

#include <Eigen/Geometry>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impetus::xml {

/// One element of a parsed Document (a view: the Document must outlive it).
class Element {
 public:
  Element(const tinyxml2::XMLElement* element, const std::string* file) : element_(element), file_(file) {}

  std::string_view tag() const { return element_->Name(); }
  int line() const { return element_->GetLineNum(); }
  const std::string& file() const { return *file_; }
  const tinyxml2::XMLElement* raw_element() const { return element_; }
  /// `<tag name="…">` (the name only when the element has one), for messages.
  std::string describe() const;

  // --- attributes; every reader refuses a malformed value -------------------------------------
  bool has(const char* attribute) const { return element_->Attribute(attribute) != nullptr; }
  /// The raw value, unchecked; nullptr when absent (for lenient reading of parts we do not use).
  const char* attribute(const char* name) const { return element_->Attribute(name); }
  /// Every attribute (name, value) in document order; values refused if they hold unexpanded xacro.
  std::vector<std::pair<std::string, std::string>> attributes() const;
  std::string text(const char* attribute) const;                      // required
  std::string text_or(const char* attribute, const std::string& fallback) const;
  double real(const char* attribute) const;                           // required, finite
  double real_or(const char* attribute, double fallback) const;
  double positive(const char* attribute) const;                       // required, > 0
  double positive_or(const char* attribute, double fallback) const;
  double non_negative_or(const char* attribute, double fallback) const;  // ≥ 0
  Eigen::Vector3d vector3(const char* attribute) const;               // required "x y z"
  Eigen::Vector3d vector3_or(const char* attribute, const Eigen::Vector3d& fallback) const;
  bool boolean_or(const char* attribute, bool fallback) const;
  /// URDF <origin>-style pose from this element's xyz and rpy attributes (both default to 0):
  /// X = [R(rpy) xyz] with R the fixed-axis roll-pitch-yaw rotation (values.hpp).
  Eigen::Isometry3d pose() const;

  // --- children ---------------------------------------------------------------------------------
  std::vector<Element> children() const;                              // every child element
  std::vector<Element> children(const char* tag) const;               // those with that tag
  std::optional<Element> child(const char* tag) const;                // the first with that tag
  std::optional<Element> unique_child(const char* tag) const;         // refuses a repeated one
  Element required_child(const char* tag) const;                      // exactly one

  /// Refuses any attribute or child element not listed, and non-blank text inside the element.
  void allow_only(std::initializer_list<std::string_view> attributes,
                  std::initializer_list<std::string_view> child_tags) const;
  /// Refuses any attribute not listed, and non-blank text; children are the caller's to check.
  void allow_attributes(std::initializer_list<std::string_view> attributes) const;

  [[noreturn]] void fail(const std::string& message) const;
  /// "attribute NAME: expected EXPECTED, got "ACTUAL"" (or "is missing").
  [[noreturn]] void fail_value(const char* attribute, const std::string& expected) const;

 private:
  /// The raw value; refuses a missing attribute and unexpanded xacro.
  std::string_view raw(const char* attribute) const;

  const tinyxml2::XMLElement* element_;
  const std::string* file_;
};

/// A parsed XML file. Refuses unreadable files and malformed XML with the line tinyxml2 reports.
class Document {
 public:
  static Document parse_file(const std::string& path);
  /// `file` names the text in messages (and is what relative paths in it are resolved against).
  static Document parse_string(const std::string& text, const std::string& file);

  /// The root element, which must have the tag `expected_tag`.
  Element root(const char* expected_tag) const;
  const std::string& file() const { return *file_; }

 private:
  Document(std::unique_ptr<tinyxml2::XMLDocument> document, std::unique_ptr<std::string> file)
      : document_(std::move(document)), file_(std::move(file)) {}
  std::unique_ptr<tinyxml2::XMLDocument> document_;
  std::unique_ptr<std::string> file_;  // stable address for the Elements' messages
};

}  // namespace impetus::xml
