// Reading one contact model's options — the attributes of the scene's <physics><MODEL …/> element,
// as strings — into its options struct, typed and range-checked (STYLE.md 7).
//
// One reader for every model, so that every model accepts the same spellings and every error reads
// the same way: an OptionError naming the model, the option, what was expected and what was given
// (the scene loader adds file and line). Each model's options struct has one entry point,
//   static XOptions XOptions::parse(const ModelOptions&)
// which reads every field through an OptionReader and ends with finish() (unknown options refused).
//
// Spellings (surrounding blanks are ignored):
//   boolean  true, false, 1, 0
//   integer  decimal, optional sign
//   real     decimal or exponent form (1e-6), optional sign; `inf` only where the range allows it
//   choice   one of the names the model lists (an enum)
#pragma once

#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "contact/contact_model.hpp"

namespace impetus {

class OptionReader {
 public:
  /// `options` must outlive the reader.
  OptionReader(std::string model, const ModelOptions& options);

  /// Whether the lower bound of a range belongs to it: [min, max] or (min, max].
  enum class Lower { Closed, Open };

  /// true/false (or 1/0); `fallback` when the option is absent.
  bool boolean(const std::string& key, bool fallback);
  /// An integer in [min, max]; `fallback` when the option is absent.
  int integer(const std::string& key, int fallback, int min, int max);
  /// A real in [min, max] (or (min, max]); `fallback` when the option is absent. Not a number is
  /// refused; ±∞ only when it lies in the range (max = +∞ admits `inf`).
  double real(const std::string& key, double fallback, double min, double max, Lower lower = Lower::Closed);
  /// One of `names`, each spelled as in the scene and mapped to its enum value; `fallback` when absent.
  template <class Enum>
  Enum choice(const std::string& key, Enum fallback, std::initializer_list<std::pair<const char*, Enum>> names);

  /// Throws for an option no call above asked for (an unknown option), listing the known ones.
  void finish() const;

  /// Throws OptionError("contact model 'MODEL': option KEY=\"VALUE\": MESSAGE").
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

 private:
  /// The option's text without surrounding blanks, or nullptr when absent; records `key` as known.
  const std::string* find(const std::string& key);

  std::string model_;
  const ModelOptions& options_;
  std::vector<std::string> known_;
  std::string text_;   // the trimmed text of the option last found
};

template <class Enum>
Enum OptionReader::choice(const std::string& key, Enum fallback,
                          std::initializer_list<std::pair<const char*, Enum>> names) {
  const std::string* text = find(key);
  if (text == nullptr) return fallback;
  std::string list;
  for (const auto& [name, value] : names) {
    if (*text == name) return value;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  fail(key, "expected one of " + list);
}

}  // namespace impetus
