// Shared by the Lemke-based ID variants (id_solver.hpp).
#include "control/inverse_dynamics/id_solver.hpp"

#include <string>

namespace impetus {

void set_lemke_statistics(const LemkeResult& result, SolverStatistics& stats, int& fallbacks) {
  stats.iterations += result.pivots;
  stats.attempts = result.attempts;
  stats.regularization = result.relative_regularization;
  stats.residual = result.residual;
  if (!result.solved()) {
    stats.status = SolveStatus::Failed;
    stats.message = std::string("Lemke: ") + to_string(result.status);
  } else if (result.attempts > 1) {
    stats.status = SolveStatus::Fallback;
    stats.message = "Lemke needed Tikhonov regularisation";
    ++fallbacks;
  }
}

}  // namespace impetus
