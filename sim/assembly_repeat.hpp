// An island's problem assembled again only where it can differ (stage 5, issue 16).
//
// A resting body's island brings the same problem step after step: the same trees, unmoved, the same contact
// points to the bit, the same v, v*, M and warm start. Its rows (N, S, T of sim/assembly.hpp, φ, μ, keys, the
// system blocks) are functions of the contact points and of the link frames the trees' kinematics passes write,
// so while neither changes, those of problems[k] stand as they are: what is left to write is v, v* and the
// guesses. When these and M (M_eff unwritten: sim/free_velocity.cpp) are also the bits problems[k] holds, the
// problem is the last step's to the bit (data.problem_repeats[k]), and the contact stage asks its kept answer
// whether it has one (ProblemBits::kept) instead of comparing ~1 KB of it (Stepper::solve_island).
//
// Held only for islands without soft contacts, joint-limit rows or mimic joints (whose rows and blocks have
// inputs besides these), and island by island: island k is compared with island k of the last step.
#pragma once

#include "sim/step_data.hpp"

namespace impetus {

/// Whether island k's rows are those problems[k] holds: its source held, the same trees with the same kinematics
/// passes, the same contact indices and points (bitwise), none soft, no joint-limit row, and the same dt.
bool rows_repeat(const WorldModel& model, const StepData& data, int k, double dt);

/// Keeps what island k's rows were just assembled of (nothing, for an island rows_repeat never holds).
void hold_rows_source(const WorldModel& model, StepData& data, int k);

/// Writes island k's v and v* into problems[k] (whose rows repeat) and returns whether they, and its trees'
/// M_eff, are the bits it held.
bool refresh_velocities(const WorldModel& model, const State& state, StepData& data, int k);

}  // namespace impetus
