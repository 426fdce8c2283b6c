// User-input errors (STYLE.md 13, tier 1): every refusal of a scene, URDF, mesh or CLI value names the
// file, the line and what is wrong, and is printed as "FILE:LINE: error: MESSAGE".
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

}  // namespace impetus
