// Contact-problem dumps: the ContactProblems of one step, every island, in one binary file, with the
// contact model and options that solved them, so that they can be solved again (`impetus solve`), timed
// on their own, or attached to a bug report. `impetus run … --dump-problems DIR` writes one file per step.
//
// Format, version 2 (contact/dump/binary_io.hpp for the primitives; little-endian, doubles bit for bit):
//   header   "IMPCPDMP" (8 bytes), u32 version, u32 0x01020304 (byte order),
//            string model, u32 option count, (string key, string value)…, i64 step, f64 t,
//            u32 problem count, then the problems
//   problem  f64 dt; i64 nv; systems (i64 count; per system i64 offset, i64 size, dense M incl. dt·damping);
//            v, v*; i64 nc; N, S, T (sparse rows); φ, μ, μ_v; keys (i64 count; i64 geom_a, geom_b, feature);
//            i64 nl; L; φ_L; guesses p_N, p_S, p_T, p_L; then the hull–plane part (contact/hull_plane.hpp,
//            empty without it): q; q_offsets; body–plane pairs; replaced_by;
//            f64 touch_margin (version 2; a version-1 file, without it, reads as ∞)
//   strings are a u32 length and bytes; dense blocks i64 rows, i64 cols, then column-major f64; sparse rows
//   i64 rows, cols, nonzeros, then (i64 row, i64 col, f64 value) row by row.
// The reader refuses any version but 1 and 2, a wrong magic or byte order, and a truncated or
// inconsistent file, naming the file and the byte offset.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "contact/contact_model.hpp"
#include "contact/dump/binary_io.hpp"
#include "contact/hull_plane.hpp"

namespace impetus {

inline constexpr std::uint32_t kProblemDumpVersion = 2;

/// A ContactProblem read from a dump, with the storage its pointers refer to (M, its factor, the hulls).
/// Not movable: `problem` points into the object itself.
class DumpedProblem {
 public:
  DumpedProblem() = default;
  DumpedProblem(const DumpedProblem&) = delete;
  DumpedProblem& operator=(const DumpedProblem&) = delete;

  ContactProblem problem;
  std::deque<Eigen::MatrixXd> M;                    // per system, what SystemBlock::M points to
  std::deque<Eigen::LLT<Eigen::MatrixXd>> M_llt;    // per system, factored again from M on reading
  std::deque<BodyHull> hulls;                       // per body–plane pair
};

/// One dump file: one step of a run.
struct ProblemDump {
  std::string model;                                // the contact model that solved the step
  ModelOptions options;                             // its options, as the scene gave them
  long step = 0;                                    // step number (1 is the first step)
  double t = 0;                                     // simulated time at the start of the step (s)
  std::vector<std::unique_ptr<DumpedProblem>> problems;   // one per island, in island order
};

/// Writes the step's problems (first `count` of `problems`) to `path`; throws DumpError when it cannot.
void write_problem_dump(const std::string& path, const std::string& model, const ModelOptions& options, long step,
                        double t, const std::vector<ContactProblem>& problems, std::size_t count);

/// Reads a file written by write_problem_dump; throws dump::DumpError naming file and byte offset.
ProblemDump read_problem_dump(const std::string& path);

/// The name of step `step`'s file in a dump folder: step_00000042.icp (sorted by name = by step).
std::string problem_dump_file_name(long step);

}  // namespace impetus
