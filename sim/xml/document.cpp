#include "sim/xml/document.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "base/load_error.hpp"
#include "sim/xml/values.hpp"

namespace impetus::xml {
namespace {

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string join(std::initializer_list<std::string_view> names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out.empty() ? "none" : out;
}

bool is_blank(const char* text) {
  for (; text && *text; ++text)
    if (!std::isspace(static_cast<unsigned char>(*text))) return false;
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Element

std::string Element::describe() const {
  std::string out = "<" + std::string(tag());
  if (const char* name = element_->Attribute("name")) out += " name=" + quoted(name);
  return out + ">";
}

void Element::fail(const std::string& message) const {
  throw LoadError(file(), line(), describe() + ": " + message);
}

void Element::fail_value(const char* attribute, const std::string& expected) const {
  const char* actual = element_->Attribute(attribute);
  if (!actual) fail("attribute " + std::string(attribute) + " is missing (expected " + expected + ")");
  fail("attribute " + std::string(attribute) + ": expected " + expected + ", got " + quoted(actual));
}

std::string_view Element::raw(const char* attribute) const {
  const char* value = element_->Attribute(attribute);
  if (!value) fail("attribute " + std::string(attribute) + " is missing");
  if (is_xacro_expression(value))
    fail("attribute " + std::string(attribute) + " holds the unexpanded xacro expression " + quoted(value) +
         "; xacro macros are not expanded here: run xacro first (xacro FILE.urdf.xacro > FILE.urdf)");
  return value;
}

std::vector<std::pair<std::string, std::string>> Element::attributes() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const tinyxml2::XMLAttribute* a = element_->FirstAttribute(); a; a = a->Next())
    out.emplace_back(a->Name(), std::string(raw(a->Name())));
  return out;
}

std::string Element::text(const char* attribute) const { return std::string(raw(attribute)); }

std::string Element::text_or(const char* attribute, const std::string& fallback) const {
  return has(attribute) ? text(attribute) : fallback;
}

double Element::real(const char* attribute) const {
  const std::optional<double> value = parse_real(raw(attribute));
  if (!value) fail_value(attribute, "a finite number");
  return *value;
}

double Element::real_or(const char* attribute, double fallback) const {
  return has(attribute) ? real(attribute) : fallback;
}

double Element::positive(const char* attribute) const {
  const std::optional<double> value = parse_real(raw(attribute));
  if (!value || *value <= 0) fail_value(attribute, "a positive number");
  return *value;
}

double Element::positive_or(const char* attribute, double fallback) const {
  return has(attribute) ? positive(attribute) : fallback;
}

double Element::non_negative_or(const char* attribute, double fallback) const {
  if (!has(attribute)) return fallback;
  const std::optional<double> value = parse_real(raw(attribute));
  if (!value || *value < 0) fail_value(attribute, "a non-negative number");
  return *value;
}

Eigen::Vector3d Element::vector3(const char* attribute) const {
  const std::optional<std::vector<double>> values = parse_reals(raw(attribute));
  if (!values || values->size() != 3) fail_value(attribute, "3 finite numbers \"x y z\"");
  return {(*values)[0], (*values)[1], (*values)[2]};
}

Eigen::Vector3d Element::vector3_or(const char* attribute, const Eigen::Vector3d& fallback) const {
  return has(attribute) ? vector3(attribute) : fallback;
}

bool Element::boolean_or(const char* attribute, bool fallback) const {
  if (!has(attribute)) return fallback;
  const std::string_view value = raw(attribute);
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  fail_value(attribute, "true or false");
}

Eigen::Isometry3d Element::pose() const {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = rotation_from_rpy(vector3_or("rpy", Eigen::Vector3d::Zero()));
  X.translation() = vector3_or("xyz", Eigen::Vector3d::Zero());
  return X;
}

std::vector<Element> Element::children() const {
  std::vector<Element> out;
  for (const tinyxml2::XMLElement* c = element_->FirstChildElement(); c; c = c->NextSiblingElement())
    out.emplace_back(c, file_);
  return out;
}

std::vector<Element> Element::children(const char* child_tag) const {
  std::vector<Element> out;
  for (const tinyxml2::XMLElement* c = element_->FirstChildElement(child_tag); c;
       c = c->NextSiblingElement(child_tag))
    out.emplace_back(c, file_);
  return out;
}

std::optional<Element> Element::child(const char* child_tag) const {
  if (const tinyxml2::XMLElement* c = element_->FirstChildElement(child_tag)) return Element(c, file_);
  return std::nullopt;
}

std::optional<Element> Element::unique_child(const char* child_tag) const {
  const tinyxml2::XMLElement* first = element_->FirstChildElement(child_tag);
  if (!first) return std::nullopt;
  if (const tinyxml2::XMLElement* second = first->NextSiblingElement(child_tag))
    Element(second, file_).fail("repeated; " + describe() + " takes at most one <" + child_tag + "> (first at line " +
                                std::to_string(first->GetLineNum()) + ")");
  return Element(first, file_);
}

Element Element::required_child(const char* child_tag) const {
  const std::optional<Element> c = unique_child(child_tag);
  if (!c) fail("missing child element <" + std::string(child_tag) + ">");
  return *c;
}

void Element::allow_attributes(std::initializer_list<std::string_view> attributes) const {
  for (const tinyxml2::XMLAttribute* a = element_->FirstAttribute(); a; a = a->Next())
    if (std::find(attributes.begin(), attributes.end(), std::string_view(a->Name())) == attributes.end())
      fail("unknown attribute " + std::string(a->Name()) + " (known: " + join(attributes) + ")");
  for (const tinyxml2::XMLNode* n = element_->FirstChild(); n; n = n->NextSibling())
    if (const tinyxml2::XMLText* t = n->ToText(); t && !is_blank(t->Value()))
      throw LoadError(file(), t->GetLineNum(),
                      describe() + ": unexpected text " + quoted(t->Value()) + " (values go in attributes)");
}

void Element::allow_only(std::initializer_list<std::string_view> attributes,
                         std::initializer_list<std::string_view> child_tags) const {
  allow_attributes(attributes);
  for (const tinyxml2::XMLElement* c = element_->FirstChildElement(); c; c = c->NextSiblingElement())
    if (std::find(child_tags.begin(), child_tags.end(), std::string_view(c->Name())) == child_tags.end())
      Element(c, file_).fail("unknown element inside " + describe() + " (known: " + join(child_tags) + ")");
}

// ---------------------------------------------------------------------------------------------------
// Document

namespace {

[[noreturn]] void throw_parse_error(const tinyxml2::XMLDocument& document, const std::string& file) {
  // "XML_ERROR_MISMATCHED_ELEMENT" → "mismatched element"; tinyxml2's own text ends with the detail
  // after "Line number=N: ".
  std::string kind = tinyxml2::XMLDocument::ErrorIDToName(document.ErrorID());
  if (kind.starts_with("XML_ERROR_")) kind = kind.substr(10);
  for (char& c : kind) c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string detail = document.ErrorStr() ? document.ErrorStr() : "";
  if (const std::size_t colon = detail.find(": ", detail.find("Line number=")); colon != std::string::npos)
    detail = detail.substr(colon + 2);
  else
    detail.clear();
  throw LoadError(file, document.ErrorLineNum(), "malformed XML: " + kind + (detail.empty() ? "" : " (" + detail + ")"));
}

}  // namespace

Document Document::parse_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw LoadError(path, 0, "file not found");
  if (std::filesystem::is_directory(path, error)) throw LoadError(path, 0, "is a directory, not a file");
  auto document = std::make_unique<tinyxml2::XMLDocument>();
  if (document->LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) {
    if (document->ErrorID() == tinyxml2::XML_ERROR_FILE_COULD_NOT_BE_OPENED ||
        document->ErrorID() == tinyxml2::XML_ERROR_FILE_READ_ERROR)
      throw LoadError(path, 0, "cannot read the file");
    throw_parse_error(*document, path);
  }
  return Document(std::move(document), std::make_unique<std::string>(path));
}

Document Document::parse_string(const std::string& text, const std::string& file) {
  auto document = std::make_unique<tinyxml2::XMLDocument>();
  if (document->Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) throw_parse_error(*document, file);
  return Document(std::move(document), std::make_unique<std::string>(file));
}

Element Document::root(const char* expected_tag) const {
  const tinyxml2::XMLElement* root = document_->RootElement();
  if (!root) throw LoadError(file(), 0, std::string("no root element; expected <") + expected_tag + ">");
  if (std::string_view(root->Name()) != expected_tag)
    throw LoadError(file(), root->GetLineNum(),
                    std::string("root element is <") + root->Name() + ">, expected <" + expected_tag + ">");
  return Element(root, file_.get());
}

}  // namespace impetus::xml
