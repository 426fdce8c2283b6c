// Shared by the batch tests: the impetus program run as a user runs it, and scratch folders.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../sim/temp_dir.hpp"
#include "tests/tools/run_impetus.hpp"

namespace impetus::test {

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
