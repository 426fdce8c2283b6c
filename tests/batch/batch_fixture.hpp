// Shared by the batch tests: the impetus program run as a user runs it, and scratch folders.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../sim/temp_dir.hpp"

namespace impetus::test {

struct Output {
  int status;        // exit status; 128 + signal when killed
  std::string text;  // stdout and stderr
};

inline Output run_impetus(const std::string& args) {
  const std::string command = std::string(IMPETUS_BINARY_DIR) + "/impetus " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string text;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) text.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), text};
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string scenes_dir() { return std::string(IMPETUS_SOURCE_DIR) + "/scenes"; }

/// A one-box scene whose μ and initial velocity a test chooses (a sliding box stops after v0/(μg)).
inline std::string box_scene(double mu, double v0 = 1.0, const std::string& gravity = "0 0 -9.81") {
  return R"(<scene name="box">
  <physics dt="0.001" duration="0.2" gravity=")" + gravity + R"(" contact_model="stewart_trinkle" mu=")" +
         std::to_string(mu) + R"("/>
  <ground/>
  <body name="box" mass="1">
    <origin xyz="0 0 0.25" rpy="0 0 0"/>
    <velocity linear=")" + std::to_string(v0) + R"( 0 0" angular="0 0 0"/>
    <collision><geometry><box size="0.5 0.5 0.5"/></geometry></collision>
  </body>
</scene>
)";
}

}  // namespace impetus::test
