// The body–plane pairs of stage 5 (assembly) for a model whose ProblemNeeds ask for hull_plane_pairs (the
// ECP model, seed 003; contact/ecp/ecp_model.hpp): the geometry it needs, in the island problems.
//
// An ECP body is a free rigid body (a one-link tree on a floating joint) whose collision geometry is
// polyhedral (boxes and meshes, any number of them, convex or not): the model represents it by the convex
// hull of all its geometry's vertices, Conv(F), computed once here (collision/convex_hull.hpp, in the body
// frame L). Every other body keeps the point contacts of the collision stage; so do the ECP bodies' contacts
// with anything but the ground (seed 003's argument, "separation of Conv(F) from G ⇔ separation of F
// from G", holds only against a half-space).
//
// Each step, within the assembly stage (sim/assembly_stage.hpp), after assemble_contact_problems (sim/assembly.hpp):
//   - an ECP body takes part when the lowest point of its hull is within reach of the ground plane:
//         min_j n·x_j − d  ≤  margin + kReachSteps·dt·(speed bound of its hull points),
//     or when the collision stage reports it touching the ground. Its island gains a BodyPlanePair; a body
//     in no island gets an island of its own (the ECP is geometrically implicit: it needs no contact point
//     from FCL to stop the body at the plane);
//   - the ground contact rows of that body are marked HullPlaneProblem::replaced_by (the model gives them
//     no impulse: the ECP carries the load) and StepData::replaced (the ECP is reported in their place);
//   - HullPlaneProblem::q and q_offsets describe the island's configuration (system i's coordinates are
//     its tree's, in State::q order), and each pair is warm-started from the previous step's solution of
//     the same body (the stepper's WarmStartMemory, sim/step_data.hpp, which restart points save).
// The model returns each pair's body's q⁺ in ContactResult::q_plus (q_plus_systems names them), which the
// stepper's integration takes over q ⊕ dt·v⁺: the configuration at which (E4)–(E6) hold; and each pair's
// solution in its HullPlaneResult, which remember() keeps by body for the next step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "contact/hull_plane.hpp"
#include "contact/problem.hpp"
#include "sim/step_data.hpp"

namespace impetus {

/// A hull point moving at the speed bound s reaches the plane within the step when its height is below
/// margin + kReachSteps·dt·s; 2 leaves room for the speed the step itself adds.
constexpr double kReachSteps = 2.0;

/// Why a body is, or is not, represented by its hull.
struct EcpBodyInfo {
  int link = -1;
  std::shared_ptr<const BodyHull> hull;   // null when the body is not an ECP body
  std::string reason;                     // why not (for `impetus check` and tests); empty for ECP bodies
};

/// The convex hull of a body's polyhedral collision geometry, in its link frame L. Returns the info with
/// a null hull and the reason when the link is not a free one-link body, has a sphere, cylinder or capsule,
/// has no geometry, or its vertices span no volume.
EcpBodyInfo make_ecp_body(const WorldModel& model, int link);

class EcpAssembly {
 public:
  /// Builds the hulls of every ECP body of `model` (which must outlive this object).
  explicit EcpAssembly(const WorldModel& model);

  /// Adds the pairs (and islands with their problems for bodies in none) to every problem's
  /// HullPlaneProblem (ContactProblem::extension) and marks the rows they replace in data.replaced; call
  /// right after assemble_contact_problems(model, state, dt, previous, data). `previous`: the last step's
  /// solutions by body, the warm starts.
  void assemble(const State& state, double dt, const std::unordered_map<int, BodyPlaneWarmStart>& previous,
                StepData& data) const;
  /// The pairs' solutions of this step (each result's HullPlaneResult) by body: the next step's warm starts.
  void remember(const std::vector<ContactResult>& results, std::unordered_map<int, BodyPlaneWarmStart>& memory) const;

  /// Per link (index of MultibodyModel::links).
  const std::vector<EcpBodyInfo>& bodies() const { return bodies_; }

 private:
  const WorldModel& model_;
  std::vector<EcpBodyInfo> bodies_;   // one per link
  std::vector<double> reach_radius_;  // per link: largest distance of a hull vertex from the centre of mass (m)
  // assemble()'s buffers, kept so that a settled scene's steps allocate nothing: the (link, island) pairs
  // taking part, and the last step's pairs, whose l_guess storage the next step's pairs reuse.
  mutable std::vector<std::pair<int, int>> members_;
  mutable std::vector<BodyPlanePair> spare_pairs_;
};

}  // namespace impetus
