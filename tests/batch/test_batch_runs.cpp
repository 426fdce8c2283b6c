// `impetus batch` as a user runs it: failures recorded without stopping the batch; a batch killed
// with SIGKILL and resumed completes every run once, with the results of an uninterrupted batch;
// GNU parallel through --emit parallel gives the results of --jobs 2.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "batch_fixture.hpp"

namespace impetus::test {
namespace {

namespace fs = std::filesystem;

std::string status_of(const fs::path& run) {
  return nlohmann::json::parse(read_file(run / "run.json"))["status"];
}

/// The run folders of a batch folder (hidden entries are bookkeeping).
std::vector<fs::path> run_folders(const fs::path& out) {
  std::vector<fs::path> runs;
  for (const auto& e : fs::directory_iterator(out))
    if (e.is_directory() && e.path().filename().string()[0] != '.') runs.push_back(e.path());
  std::sort(runs.begin(), runs.end());
  return runs;
}

TEST(BatchRuns, ADivergingRunAndATimedOutRunAreRecordedAndTheRestCompletes) {
  TempDir dir("batch_fail");
  dir.write("box.xml", box_scene(0.3));
  // Thrown up at 1.7e308 m/s and pulled up by as much: the velocity overflows to infinity within
  // 60 steps (the largest double is 1.8e308), and the run stops as "diverged".
  std::string diverge = box_scene(0.3, 0.0, "0 0 1.7e308");
  diverge.replace(diverge.find("linear=\"0.000000 0 0\""), 22, "linear=\"0 0 1.7e308\"");
  dir.write("diverge.xml", diverge);
  const std::string manifest = dir.write("m.toml", R"(
[[include]]
scenes = ["box.xml", "diverge.xml"]
duration = 0.1
[[include]]
scenes = ["box.xml"]
duration = 1000                # 1e6 steps: far beyond the limit
[limits]
wall_time_s = 1.5
)");
  const fs::path out = fs::path(dir.path()) / "out";
  const Output o = run_impetus("batch " + manifest + " --out " + out.string() + " --jobs 2");
  EXPECT_EQ(o.status, 3) << o.text;  // some run is not ok
  EXPECT_EQ(status_of(out / "box-T0.1"), "ok");
  EXPECT_EQ(status_of(out / "diverge-T0.1"), "diverged");
  EXPECT_EQ(status_of(out / "box-T1000"), "timeout");
  // What the timed-out run recorded before it was killed is kept.
  EXPECT_TRUE(fs::exists(out / "box-T1000" / "trajectory.csv"));
  EXPECT_NE(o.text.find("box-T1000: timeout"), std::string::npos) << o.text;
  EXPECT_TRUE(fs::is_empty(out / ".partial"));
}

TEST(BatchRuns, AKilledBatchResumedCompletesEveryRunOnceWithTheSameResults) {
  TempDir dir("batch_resume");
  dir.write("box.xml", box_scene(0.3));
  // Ten runs of ~0.3 s each (max_dissipation, 0.3 s simulated), two at a time.
  const std::string manifest = dir.write("m.toml", R"(
scenes = ["box.xml"]
models = "max_dissipation"
duration = 0.3
params = { "body[box]/velocity/@linear" = ["0.5 0 0", "0.6 0 0", "0.7 0 0", "0.8 0 0", "0.9 0 0",
                                          "1 0 0", "1.1 0 0", "1.2 0 0", "1.3 0 0", "1.4 0 0"] }
)");
  const fs::path killed = fs::path(dir.path()) / "killed", whole = fs::path(dir.path()) / "whole";

  const pid_t pid = fork();
  if (pid == 0) {
    const std::string program = std::string(IMPETUS_BINARY_DIR) + "/impetus";
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    execl(program.c_str(), program.c_str(), "batch", manifest.c_str(), "--out", killed.c_str(), "--jobs", "2", nullptr);
    _exit(127);
  }
  // Kill it once a run has completed (or after 20 s, whatever it has done).
  const auto start = std::chrono::steady_clock::now();
  while (read_file(killed / "batch.log").empty() && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the batch ended before it was killed: make its runs longer";

  // Whatever is there is complete: a run folder has its run.json and summary.
  const std::vector<fs::path> before = run_folders(killed);
  std::map<fs::path, std::string> records;
  for (const fs::path& r : before) {
    EXPECT_TRUE(fs::exists(r / "run.json")) << r;
    EXPECT_TRUE(fs::exists(r / "summary.json")) << r;
    records[r.filename()] = read_file(r / "run.json");
  }
  EXPECT_LT(before.size(), 10u) << "every run completed before the kill: the test saw no interruption";

  // Without --resume a folder holding runs is refused; with it, the rest is run.
  EXPECT_EQ(run_impetus("batch " + manifest + " --out " + killed.string()).status, 1);
  const Output resumed = run_impetus("batch " + manifest + " --out " + killed.string() + " --jobs 2 --resume");
  EXPECT_EQ(resumed.status, 0) << resumed.text;
  const Output uninterrupted = run_impetus("batch " + manifest + " --out " + whole.string() + " --jobs 2");
  EXPECT_EQ(uninterrupted.status, 0) << uninterrupted.text;

  const std::vector<fs::path> after = run_folders(killed), reference = run_folders(whole);
  ASSERT_EQ(after.size(), 10u);
  ASSERT_EQ(reference.size(), 10u);
  // Runs complete before the kill were not run again: their records are untouched, and the log
  // names every run exactly once.
  for (const auto& [name, record] : records) EXPECT_EQ(read_file(killed / name / "run.json"), record) << name;
  const std::string log = read_file(killed / "batch.log");
  for (const fs::path& r : after) {
    const std::string line = r.filename().string() + " ok\n";
    const std::size_t first = log.find(line);
    EXPECT_NE(first, std::string::npos) << r;
    EXPECT_EQ(log.find(line, first + 1), std::string::npos) << r << " completed twice";
  }
  // The same results, to the bit, as the uninterrupted batch.
  for (std::size_t k = 0; k < after.size(); ++k) {
    EXPECT_EQ(after[k].filename(), reference[k].filename());
    EXPECT_EQ(read_file(after[k] / "trajectory.csv"), read_file(reference[k] / "trajectory.csv")) << after[k];
    EXPECT_EQ(read_file(after[k] / "contacts.csv"), read_file(reference[k] / "contacts.csv")) << after[k];
  }
  EXPECT_EQ(run_impetus("compare " + whole.string() + " " + killed.string()).status, 0);
}

TEST(BatchRuns, GnuParallelThroughEmitParallelGivesTheResultsOfJobs2) {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0) GTEST_SKIP() << "GNU parallel is not installed";
  TempDir dir("batch_parallel");
  dir.write("box.xml", box_scene(0.3));
  const std::string manifest = dir.write("m.toml", "scenes = [\"box.xml\", \"" + scenes_dir() + "/pendulum.xml\"]\n"
                                                   "models = [\"stewart_trinkle\", \"no_slip\"]\nduration = 0.1\n");
  const fs::path jobs = fs::path(dir.path()) / "jobs", par = fs::path(dir.path()) / "par";
  ASSERT_EQ(run_impetus("batch " + manifest + " --out " + jobs.string() + " --jobs 2").status, 0);
  const Output emitted = run_impetus("batch " + manifest + " --out " + par.string() + " --emit parallel --jobs 2");
  ASSERT_EQ(emitted.status, 0) << emitted.text;
  EXPECT_NE(emitted.text.find("--joblog"), std::string::npos);
  EXPECT_NE(emitted.text.find("--resume-failed"), std::string::npos);
  const std::string script = dir.write("run.sh", emitted.text);
  ASSERT_EQ(std::system(("sh " + script + " >/dev/null 2>&1").c_str()), 0);
  // Run again: the joblog says every task succeeded, so nothing runs.
  const std::string log = read_file(par / "batch.log");
  ASSERT_EQ(std::system(("sh " + script + " >/dev/null 2>&1").c_str()), 0);
  EXPECT_EQ(read_file(par / "batch.log"), log);
  const std::vector<fs::path> a = run_folders(jobs), b = run_folders(par);
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].filename(), b[k].filename());
    EXPECT_EQ(read_file(a[k] / "trajectory.csv"), read_file(b[k] / "trajectory.csv")) << a[k];
  }
}

TEST(BatchRuns, ListAndEmitSlurm) {
  TempDir dir("batch_list");
  dir.write("box.xml", box_scene(0.3));
  const std::string manifest = dir.write("m.toml", R"(
scenes = ["box.xml"]
models = ["stewart_trinkle", "viscous"]
[limits]
wall_time_s = 90
memory_mb = 1000
[slurm]
max_parallel = 3
options = ["--partition=short"]
)");
  const Output list = run_impetus("batch " + manifest + " --list");
  EXPECT_EQ(list.status, 0);
  EXPECT_EQ(list.text, "box-stewart_trinkle  scene=box.xml model=stewart_trinkle\nbox-viscous  scene=box.xml model=viscous\n");
  const Output slurm = run_impetus("batch " + manifest + " --out " + dir.path() + "/o --emit slurm");
  EXPECT_EQ(slurm.status, 0);
  EXPECT_NE(slurm.text.find("#SBATCH --array=0-1%3\n"), std::string::npos) << slurm.text;
  EXPECT_NE(slurm.text.find("#SBATCH --time=00:02:30\n"), std::string::npos) << slurm.text;  // 90 s + 60 s margin
  EXPECT_NE(slurm.text.find("#SBATCH --mem=1000M\n"), std::string::npos) << slurm.text;
  EXPECT_NE(slurm.text.find("#SBATCH --partition=short\n"), std::string::npos) << slurm.text;
  EXPECT_NE(slurm.text.find("--index \"$SLURM_ARRAY_TASK_ID\""), std::string::npos) << slurm.text;
  // One index runs exactly one run, and again is a no-op that reports the recorded status.
  const Output one = run_impetus("batch " + manifest + " --out " + dir.path() + "/o --index 1");
  EXPECT_EQ(one.status, 0) << one.text;
  EXPECT_TRUE(fs::exists(fs::path(dir.path()) / "o" / "box-viscous" / "run.json"));
  EXPECT_FALSE(fs::exists(fs::path(dir.path()) / "o" / "box-stewart_trinkle"));
  EXPECT_EQ(run_impetus("batch " + manifest + " --out " + dir.path() + "/o --index 1").status, 0);
  EXPECT_EQ(read_file(fs::path(dir.path()) / "o" / "batch.log"), "box-viscous ok\n");
  EXPECT_EQ(run_impetus("batch " + manifest + " --out " + dir.path() + "/o --index 2").status, 1);
}

}  // namespace
}  // namespace impetus::test
