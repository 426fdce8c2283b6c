#include "contact/model_options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace impetus {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

template <class T>
std::string to_text(T x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

}  // namespace

OptionReader::OptionReader(std::string model, const ModelOptions& options)
    : model_(std::move(model)), options_(options) {}

const std::string* OptionReader::find(const std::string& key) {
  known_.push_back(key);
  auto it = options_.find(key);
  if (it == options_.end()) return nullptr;
  text_ = trim(it->second);
  return &text_;
}

void OptionReader::fail(const std::string& key, const std::string& message) const {
  auto it = options_.find(key);
  const std::string value = it == options_.end() ? std::string() : it->second;
  throw OptionError("contact model '" + model_ + "': option " + key + "=\"" + value + "\": " + message);
}

bool OptionReader::boolean(const std::string& key, bool fallback) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  if (*text == "true" || *text == "1") return true;
  if (*text == "false" || *text == "0") return false;
  fail(key, "expected true or false (or 1 or 0)");
}

int OptionReader::integer(const std::string& key, int fallback, int min, int max) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  const char* s = text->c_str();
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(s, &end, 10);
  const std::string expected = "expected an integer in [" + to_text(min) + ", " + to_text(max) + "]";
  if (text->empty() || end != s + text->size() || errno == ERANGE) fail(key, expected);
  if (value < min || value > max) fail(key, expected);
  return static_cast<int>(value);
}

double OptionReader::real(const std::string& key, double fallback, double min, double max, Lower lower) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  const char* s = text->c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(s, &end);
  const std::string expected = std::string("expected a number in ") + (lower == Lower::Open ? "(" : "[") +
                               to_text(min) + ", " + to_text(max) + "]";
  // ERANGE also flags underflow to a denormal or zero, which is a number all the same; overflow is ±∞.
  if (text->empty() || end != s + text->size() || std::isnan(value)) fail(key, expected);
  if (value < min || value > max || (lower == Lower::Open && value == min)) fail(key, expected);
  return value;
}

void OptionReader::finish() const {
  for (const auto& [key, value] : options_) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string list;
    for (const std::string& k : known_) list += (list.empty() ? "" : ", ") + k;
    throw OptionError("contact model '" + model_ + "': unknown option '" + key + "'" +
                      (list.empty() ? std::string(" (it takes no options)") : " (known: " + list + ")"));
  }
}

}  // namespace impetus
