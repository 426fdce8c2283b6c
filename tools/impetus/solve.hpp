// impetus solve DUMP [--model M] [--repeat K]: solves the contact problems of a dump again
// (contact/dump/problem_dump.hpp) and reports, per problem, its size, status, iterations and time.
#pragma once

#include <ostream>
#include <string>

namespace impetus {

struct SolveCommandOptions {
  std::string dump;          // a dump file, or a folder of them (`run --dump-problems DIR`)
  std::string model;         // empty: the model each dump was written under, with its options
  int repeat = 1;            // solves per problem; the time reported is the fastest
};

/// Returns the exit status: 0 when every problem was solved by its model's own solver, 3 when any fell back
/// or failed. Throws dump::DumpError for a file it cannot read.
int solve_command(const SolveCommandOptions& options, std::ostream& out);

}  // namespace impetus
