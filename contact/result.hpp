// What a contact model returns: v⁺, the impulses, and the truth about how the solve went.
#pragma once

#include <Eigen/Dense>
#include <any>
#include <string>
#include <vector>

#include "contact/typed_slot.hpp"

namespace impetus {

enum class SolveStatus {
  Solved,      // the model's own solver met its certificate
  Fallback,    // the primary solver failed; a fallback produced the result (counted)
  Failed,      // no method met the certificate; v⁺ is the best available (counted)
};

/// Statistics of one solve. Times in seconds.
struct SolverStatistics {
  SolveStatus status = SolveStatus::Solved;
  int iterations = 0;          // pivots (pivoting methods) or Newton / interior-point iterations
  int attempts = 1;            // e.g. Lemke retries with growing Tikhonov regularisation
  double regularization = 0;   // the regularisation that produced the result (0: none)
  double residual = 0;         // the model's certificate residual at the result
  std::string message;         // why it failed or fell back; empty when Solved
};

/// One contact as a run reports it (contacts.csv): a point row of the problem, or a point the model chose
/// itself (the equivalent contact point of a body–plane pair).
struct ContactReport {
  int body_a = -1, body_b = -1;           // link indices (BodyPlanePair::body); −1: the ground / static half-space
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();   // the point (m, world)
  Eigen::Vector3d n_W = Eigen::Vector3d::UnitZ();  // normal, pointing from B to A
  double gap = 0;                         // m, ≥ 0 separated
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();   // (normal, along t1, along t2) in N·s
};

struct ContactResult {
  Eigen::VectorXd v_plus;                 // (nv) velocity at the end of the step
  Eigen::VectorXd p_N, p_S, p_T;          // (nc) impulses (N·s): normal, along t1, along t2
  Eigen::VectorXd p_L;                    // (nl) joint-limit impulses

  // --- what a geometrically implicit model decides beyond v⁺; empty for every other model ---
  Eigen::VectorXd q_plus;                 // the island's configuration at t + dt, system after system, each in
                                          // its tree's layout of State::q; only the coordinates of
                                          // q_plus_systems are the model's
  std::vector<int> q_plus_systems;        // systems whose q⁺ the model decided: integration takes theirs from
                                          // q_plus, the integrator's rule q ⊕ dt·v⁺ gives the others'
  std::vector<ContactReport> contacts;    // points the model chose, reported in place of the rows they stand
                                          // for (the assembly marks those rows: StepData::replaced)
  /// The model's answer to ContactProblem::extension, as the type its ProblemNeeds name (hull_plane_pairs:
  /// HullPlaneResult, contact/hull_plane.hpp), which the assembly reads for the next step's warm starts.
  TypedSlot extension;

  SolverStatistics stats;
  /// The model's own account of this solve (MaxDissipationReport, NoSlipReport, ViscousReport; empty for a
  /// model that keeps none), for tests, benchmarks and `impetus solve`: read it with report_as<R>().
  std::any report;

  /// The report as the model's type R; throws std::bad_any_cast when the model keeps no R.
  template <class R>
  const R& report_as() const {
    return std::any_cast<const R&>(report);
  }
  /// The model's slot for its report: made on first use, reused after (no allocation once warm).
  template <class R>
  R& report_slot() {
    if (R* r = std::any_cast<R>(&report)) return *r;
    return report.emplace<R>();
  }

  /// No geometrically implicit part (q_plus, q_plus_systems, contacts, extension empty): for a model that
  /// answers no extension.
  void clear_implicit() {
    q_plus.resize(0);
    q_plus_systems.clear();
    contacts.clear();
    extension.reset();
  }
};

}  // namespace impetus
