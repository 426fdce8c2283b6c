// Stage 5, assembly, as the stepper runs it: the islands and the rows every model receives
// (sim/assembly.hpp), then what the model's ProblemNeeds (contact/contact_model.hpp) ask for — the
// hull–plane pairs of sim/assembly_ecp.hpp — in each problem's extension; and, after stage 6, what the
// step's solutions leave to the next step's warm starts, by contact identity (WarmStartMemory).
#pragma once

#include <optional>

#include "contact/contact_model.hpp"
#include "sim/assembly_ecp.hpp"
#include "sim/step_data.hpp"

namespace impetus {

class AssemblyStage {
 public:
  /// `model` must outlive the stage.
  AssemblyStage(const WorldModel& model, const ProblemNeeds& needs);

  /// Fills data.islands, data.problems (one per island: problems.size() == islands.size()), data.t1/t2
  /// and data.replaced, warm-started from `memory`. Needs stages 1–4 in `data`.
  void assemble(const State& state, double dt, const WarmStartMemory& memory, StepData& data) const;
  /// Keeps what the step's results (and data.impulse) leave to the next step's warm starts (data.warm_keys:
  /// scratch).
  void remember(StepData& data, WarmStartMemory& memory) const;

  /// The hull–plane part, present only when the needs ask for it.
  const EcpAssembly* hull_plane() const { return hull_plane_ ? &*hull_plane_ : nullptr; }

 private:
  const WorldModel& model_;
  std::optional<EcpAssembly> hull_plane_;   // needs.hull_plane_pairs
};

}  // namespace impetus
