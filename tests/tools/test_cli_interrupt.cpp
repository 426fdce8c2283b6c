// A run stopped from outside (SIGTERM from `timeout` or a scheduler, SIGINT from Ctrl-C) ends at the
// next step boundary with status "interrupted", its figures over the steps it did, and every row flushed.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/tools/run_impetus.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// Long enough that no machine finishes it before the signal (a box resting on the ground for 10⁵ steps).
const std::string kLong = impetus::test::resting_box_scene("cli_long", "100");

constexpr long kTotalSteps = 100000;
constexpr double kDt = 0.001;

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

pid_t spawn_impetus(const std::vector<std::string>& args) {
  std::vector<std::string> all{std::string(IMPETUS_BINARY_DIR) + "/impetus"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

/// Waits until the run has recorded `rows` stats rows (header and the initial row besides).
bool wait_for_rows(const fs::path& stats, std::size_t rows) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(stats) && lines_of(stats).size() >= rows + 2) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(CliInterrupt, SigtermEndsTheRunAtAStepBoundaryWithStatusInterrupted) {
  const fs::path dir = fs::temp_directory_path() / ("impetus-cli-interrupt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path scene = dir / "long.xml", out = dir / "out";
  std::ofstream(scene) << kLong;
  const pid_t pid = spawn_impetus({"run", scene.string(), "--out", out.string()});
  ASSERT_GT(pid, 0);
  const bool started = wait_for_rows(out / "stats.csv", 5);
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(started) << "the run recorded nothing within 60 s";
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);

  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  EXPECT_EQ(summary["status"], "interrupted");
  const long steps = summary["steps"];
  EXPECT_GE(steps, 5 * 10);             // at least the 5 rows seen, 10 steps apart (record_dt 0.01)
  EXPECT_LT(steps, kTotalSteps);
  EXPECT_NEAR(double(summary["sim_time"]), steps * kDt, 1e-9 * steps * kDt + 1e-12);
  // The step it stopped after is the last recorded row, in every file.
  const auto trajectory = lines_of(out / "trajectory.csv");
  const auto stats = lines_of(out / "stats.csv");
  ASSERT_GE(trajectory.size(), 3u);
  for (const auto* rows : {&trajectory, &stats}) {
    const double t_last = std::stod(rows->back().substr(0, rows->back().find(',')));
    EXPECT_NEAR(t_last, steps * kDt, 1e-9 * steps * kDt);
  }
  fs::remove_all(dir);
}

}  // namespace
