// The impetus program run as a user runs it, from a shell: its exit status and everything it printed.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

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

/// A 0.5 m box resting on the ground under stewart_trinkle, μ = 0.5, dt = 1 ms, for `duration` seconds.
inline std::string resting_box_scene(const std::string& name, const std::string& duration) {
  return R"(<scene name=")" + name + R"(">
  <physics dt="0.001" duration=")" + duration + R"(" contact_model="stewart_trinkle" mu="0.5"/>
  <ground/>
  <body name="box" mass="1">
    <origin xyz="0 0 0.25" rpy="0 0 0"/>
    <collision><geometry><box size="0.5 0.5 0.5"/></geometry></collision>
  </body>
</scene>
)";
}

}  // namespace impetus::test
