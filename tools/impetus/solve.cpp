#include "solve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "contact/dump/problem_dump.hpp"
#include "contact/factory.hpp"

namespace impetus {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> dump_files(const std::string& path) {
  if (!fs::is_directory(path)) return {path};
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(path))
    if (e.is_regular_file() && e.path().extension() == ".icp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());  // step_00000001.icp, …: step order
  if (files.empty()) throw dump::DumpError(path + ": no .icp dump files in this folder");
  return files;
}

const char* status_name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Solved: return "solved";
    case SolveStatus::Fallback: return "fallback";
    case SolveStatus::Failed: return "failed";
  }
  return "?";
}

}  // namespace

int solve_command(const SolveCommandOptions& options, std::ostream& out) {
  if (!options.model.empty() && !is_contact_model(options.model))
    throw std::invalid_argument("--model: unknown contact model '" + options.model + "' (see `impetus models`)");
  // One model and workspace per (name, options) met in the dumps, built once: solving warms the workspace's
  // buffers as a run does.
  struct Solver {
    std::unique_ptr<ContactModel> model;
    std::unique_ptr<ContactWorkspace> workspace;
  };
  std::map<std::pair<std::string, ModelOptions>, Solver> models;
  long problems = 0, solved = 0, fallbacks = 0, failures = 0;
  double total_time = 0;
  char line[256];
  out << "# step t island nv nc nl status iterations time_s (fastest of " << options.repeat << ")\n";
  for (const std::string& file : dump_files(options.dump)) {
    const ProblemDump dump = read_problem_dump(file);
    const std::string name = options.model.empty() ? dump.model : options.model;
    const ModelOptions model_options = name == dump.model ? dump.options : ModelOptions{};
    Solver& solver = models[{name, model_options}];
    if (!solver.model) {
      solver.model = make_contact_model(name, model_options);
      solver.workspace = solver.model->make_workspace();
    }
    ContactResult result;
    for (std::size_t k = 0; k < dump.problems.size(); ++k) {
      const ContactProblem& problem = dump.problems[k]->problem;
      double best = 0;
      for (int r = 0; r < options.repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        solver.model->solve(problem, result, *solver.workspace);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = r == 0 ? t : std::min(best, t);
      }
      ++problems;
      total_time += best;
      switch (result.stats.status) {
        case SolveStatus::Solved: ++solved; break;
        case SolveStatus::Fallback: ++fallbacks; break;
        case SolveStatus::Failed: ++failures; break;
      }
      std::snprintf(line, sizeof line, "%ld %.9g %zu %d %d %d %s %d %.3e", dump.step, dump.t, k, problem.nv, problem.nc,
                    problem.nl, status_name(result.stats.status), result.stats.iterations, best);
      out << line;
      if (!result.stats.message.empty()) out << "  # " << result.stats.message;
      out << '\n';
    }
  }
  std::snprintf(line, sizeof line, "# %ld problems: %ld solved, %ld fallbacks, %ld failures; %.6g s solving", problems,
                solved, fallbacks, failures, total_time);
  out << line << '\n';
  return fallbacks + failures == 0 ? 0 : 3;
}

}  // namespace impetus
