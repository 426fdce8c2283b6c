// User-input errors (STYLE.md 13, tier 1): every refusal of a scene, URDF, mesh or CLI value names the
// file, the line and what is wrong, and is printed as "FILE:LINE: error: MESSAGE". What a loader
// repaired instead of refusing is a LoadWarning, printed as "FILE:LINE: warning: MESSAGE" and kept in
// summary.json's `warnings`.
#pragma once

#include <stdexcept>
#include <string>

namespace impetus {

class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, int line, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(line) + ": error: " + message),
        file_(std::move(file)), line_(line), message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }          // 0 when the file as a whole is at fault
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

/// A repair or doubt of a loader: the input was accepted, changed as `message` says.
struct LoadWarning {
  std::string file;
  int line = 0;
  std::string message;                        // what is wrong and what was done
  std::string text() const { return file + ":" + std::to_string(line) + ": warning: " + message; }
};

}  // namespace impetus
