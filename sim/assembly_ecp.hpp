// Stage 4b: the geometry of the ECP model (seed 003; contact/ecp/ecp_model.hpp) in the island problems,
// and stage 6b: the configuration the model solved for, in the state.
//
// An ECP body is a free rigid body (a one-link tree on a floating joint) whose collision geometry is
// polyhedral (boxes and meshes, any number of them, convex or not): the model represents it by the convex
// hull of all its geometry's vertices, Conv(F), computed once here (collision/convex_hull.hpp, in the body
// frame L). Every other body keeps the point contacts of the collision stage; so do the ECP bodies' contacts
// with anything but the ground (seed 003's argument, "separation of Conv(F) from G ⇔ separation of F
// from G", holds only against a half-space).
//
// Each step, after assemble_contact_problems (sim/assembly.hpp):
//   - an ECP body takes part when the lowest point of its hull is within reach of the ground plane:
//         min_j n·x_j − d  ≤  margin + kReachSteps·dt·(speed bound of its hull points),
//     or when the collision stage reports it touching the ground. Its island gains a BodyPlanePair; a body
//     in no island gets an island of its own (the ECP is geometrically implicit: it needs no contact point
//     from FCL to stop the body at the plane);
//   - the ground contact rows of that body are marked ContactProblem::replaced_by (the model gives them
//     no impulse: the ECP carries the load);
//   - ContactProblem::q and q_offsets describe the island's configuration (system i's coordinates are
//     its tree's, in State::q order), and each pair is warm-started from the previous step's solution of
//     the same body (StepData::results still holds it when this runs).
// After integration, use_implicit_configuration() writes each ECP body's q⁺ from ContactResult::q_plus
// (layout of ContactProblem::q) over the integrator's q ⊕ dt·v⁺: the configuration at which (E4)–(E6)
// hold. (The two agree to round-off: the model forms q⁺ by the integrator's rule.)
#pragma once

#include <memory>
#include <string>
#include <vector>

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

  /// Stage 4b; call right after assemble_contact_problems(model, state, dt, previous, data).
  void assemble(const State& state, StepData& data) const;

  /// Stage 6b; call right after integrate(model.multibody, state.q, data.v_plus, dt, q_plus): each ECP
  /// body's coordinates of q_plus become those of its island's ContactResult::q_plus.
  void use_implicit_configuration(const StepData& data, Eigen::VectorXd& q_plus) const;

  /// Per link (index of MultibodyModel::links).
  const std::vector<EcpBodyInfo>& bodies() const { return bodies_; }

 private:
  const WorldModel& model_;
  std::vector<EcpBodyInfo> bodies_;   // one per link
  std::vector<double> reach_radius_;  // per link: largest distance of a hull vertex from the centre of mass (m)
};

}  // namespace impetus
