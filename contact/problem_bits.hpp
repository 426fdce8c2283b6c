// The bits of a contact problem, kept so that the next step can ask whether its problem is the same.
//
// A model's answer is a function of its ContactProblem alone: of the fields a problem dump holds
// (contact/dump/problem_dump.cpp, whose test solves a dump again to the same v⁺ bit for bit), never of a
// workspace's history (the islands' answers do not depend on the thread count). So an island whose problem
// is, to the bit, the one a ContactResult answered has that result for its answer: Stepper::solve_island keeps
// it instead of solving again (a body at rest: the same v, v*, M and rows step after step).
//
// Compared, as raw bytes in a fixed order after every size: dt; nv, nc, nl; each system's offset, size and M;
// v, v*; N, S, T and L (rows, columns, row starts, column indices, values); φ, μ, μ_viscous, the keys, the
// touch margin; φ_L; the four guesses. A problem with an extension (ECP's hull–plane part) or a sparse matrix
// not in compressed form is never the same as a kept one.
#pragma once

#include <vector>

#include "contact/problem.hpp"

namespace impetus {

class ProblemBits {
 public:
  /// Whether `problem` is, to the bit, the one last kept.
  bool same(const ContactProblem& problem) const;
  /// Keeps `problem`'s bits (grow-only storage: no allocation once warm); a problem that can never be the
  /// same (see above) keeps nothing.
  void keep(const ContactProblem& problem);
  /// Keeps nothing: same() is false until the next keep().
  void forget() { kept_ = false; }
  /// Whether a problem is kept: same() is then true of it for as long as it is not written.
  bool kept() const { return kept_; }

 private:
  std::vector<char> bytes_;
  bool kept_ = false;
};

}  // namespace impetus
