#include "contact/model_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
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
  return it == options_.end() ? nullptr : &it->second;
}

void OptionReader::fail(const std::string& key, const std::string& message) const {
  auto it = options_.find(key);
  const std::string value = it == options_.end() ? std::string() : it->second;
  throw OptionError("contact model '" + model_ + "': option " + key + "=\"" + value + "\": " + message);
}

int OptionReader::integer(const std::string& key, int fallback, int min, int max) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  const std::string t = trim(*text);
  int value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  const std::string expected = "expected an integer in [" + to_text(min) + ", " + to_text(max) + "]";
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) fail(key, expected);
  if (value < min || value > max) fail(key, expected);
  return value;
}

double OptionReader::real(const std::string& key, double fallback, double min, double max) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  const std::string t = trim(*text);
  double value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  const std::string expected = "expected a number in [" + to_text(min) + ", " + to_text(max) + "]";
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value)) fail(key, expected);
  if (value < min || value > max) fail(key, expected);
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
