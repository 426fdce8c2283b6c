// The batch subcommands of impetus: batch, compare, models-compare (batch/ does the work).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace impetus {

class BatchCommands {
 public:
  explicit BatchCommands(CLI::App& app);
  ~BatchCommands();
  /// True when one of them was given on the command line.
  bool parsed() const;
  /// Runs it; the exit status (README "Batch runs").
  int run() const;

 private:
  struct Options;
  std::unique_ptr<Options> o_;
};

}  // namespace impetus
