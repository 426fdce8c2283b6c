#include "batch/emit.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace impetus::batch {

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

std::string hh_mm_ss(double seconds) {
  const long s = static_cast<long>(std::ceil(seconds));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%02ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buffer;
}

std::string task_command(const EmitTarget& t, const std::string& index) {
  return shell_quote(t.impetus) + " batch " + shell_quote(t.manifest.string()) + " --out " +
         shell_quote(t.out.string()) + " --index " + index;
}

}  // namespace

std::string emit_slurm(const Manifest& manifest, const EmitTarget& t) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# impetus batch " << manifest.name << ": " << t.runs << " runs, one array task each.\n"
    << "# Submit with: sbatch THIS_FILE   (a task that ran to completion is skipped when run again)\n"
    << "#SBATCH --job-name=impetus-" << manifest.name << "\n"
    << "#SBATCH --array=0-" << (t.runs == 0 ? 0 : t.runs - 1);
  if (manifest.slurm_max_parallel > 0) s << "%" << manifest.slurm_max_parallel;
  s << "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --time=" << hh_mm_ss(manifest.limits.wall_time_s + kSlurmTimeMargin) << "\n"
    << "#SBATCH --mem=" << static_cast<long>(std::ceil(manifest.limits.memory_mb)) << "M\n"
    << "#SBATCH --output=" << (t.out / ".slurm" / "%A_%a.out").string() << "\n";
  for (const std::string& option : manifest.slurm_options) s << "#SBATCH " << option << "\n";
  s << "mkdir -p " << shell_quote((t.out / ".slurm").string()) << "\n"
    << "exec " << task_command(t, "\"$SLURM_ARRAY_TASK_ID\"") << "\n";
  return s.str();
}

std::string emit_parallel(const Manifest& manifest, const EmitTarget& t) {
  const int jobs = t.jobs > 0 ? t.jobs : manifest.parallel_jobs;
  std::ostringstream s;
  s << "parallel";
  if (jobs > 0) s << " --jobs " << jobs;
  s << " --joblog " << shell_quote((t.out / "parallel.joblog").string()) << " --resume-failed "
    << task_command(t, "{}") << " ::: $(seq 0 " << (t.runs == 0 ? 0 : static_cast<long>(t.runs) - 1) << ")\n";
  return s.str();
}

}  // namespace impetus::batch
