// Reading one contact model's options — the attributes of the scene's <physics><MODEL …/> element,
// as strings — into its options struct, typed and range-checked (STYLE.md 7).
//
// Every model parses the same way, so every error reads the same way: an OptionError naming the
// model, the option, what was expected and what was given (the scene loader adds file and line).
#pragma once

#include <string>
#include <vector>

#include "contact/contact_model.hpp"

namespace impetus {

class OptionReader {
 public:
  /// `options` must outlive the reader.
  OptionReader(std::string model, const ModelOptions& options);

  /// An integer in [min, max]; `fallback` when the option is absent.
  int integer(const std::string& key, int fallback, int min, int max);
  /// A finite real in [min, max]; `fallback` when the option is absent.
  double real(const std::string& key, double fallback, double min, double max);
  /// Throws for an option no integer()/real() call asked for (an unknown option), listing the known.
  void finish() const;

  /// Throws OptionError("contact model 'MODEL': option KEY=\"VALUE\": MESSAGE").
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

 private:
  const std::string* find(const std::string& key);

  std::string model_;
  const ModelOptions& options_;
  std::vector<std::string> known_;
};

}  // namespace impetus
