// Restart points: the State with the stepper's memory (Stepper::memory: the contact stage's warm starts,
// the control stage's held and lagged τ, ∫e, sensed impulses and ID warm starts) is all a step depends on
// beyond the world, so a run resumed from one continues bit for bit as the uninterrupted run, under every
// contact model and controller.
//
// The file is text, one record a line, each starting with its name; every number is printed with 17
// significant digits, which a double reads back to the same bits:
//   impetus restart point 2                     (2: with id_qp_*'s basis lines; a version-1 file, without them, is read
//                                               and its id_qp_* controllers' first call runs cold)
//   t T
//   q NQ q_1 … q_NQ
//   v NV v_1 … v_NV
//   impulses K                                  then K lines: contact GEOM_A GEOM_B FEATURE p_N p_S p_T
//   body_plane B                                then B lines: body LINK a1_x a1_y a1_z p_n p_t p_o p_r σ M l_1 … l_M
//   control STEP applied_before K slots S       then K contact lines, then per controller:
//     slot HAS_TAU held NA τ… integral NA ∫e… pending P prediction C
//                                               then P lines: pending STEP τ_1 … τ_NA
//                                               and C lines: prediction GEOM_A GEOM_B FEATURE p_N
//                                               then basis K (id_qp_*: its kept settled call, id_qp.hpp
//                                               QP19; K = 0 without), K lines: basis GEOM_A GEOM_B FEATURE IN_A,
//                                               and lcp N x_1 … x_N ([z; y] of its (QP6))
#pragma once

#include <string>

#include "sim/stepper.hpp"
#include "sim/world.hpp"

namespace impetus {

struct RestartPoint {
  State state;
  StepperMemory memory;
};

/// Writes `point` to `path` (aside first, then renamed: a crash mid-write keeps the last one whole).
/// Throws std::runtime_error naming the file when it cannot be written.
void write_restart_point(const std::string& path, const RestartPoint& point);

/// Reads a restart point of a scene with `model`. Throws LoadError (file, line, what is wrong) when the
/// file is not a restart point or is one of another scene (sizes of q, v or the controllers differ).
RestartPoint read_restart_point(const std::string& path, const WorldModel& model);

}  // namespace impetus
