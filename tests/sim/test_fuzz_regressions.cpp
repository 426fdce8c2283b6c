// Every input in tests/fuzz/TARGET/ (hand-made hostile inputs, and each input a fuzzer once failed on)
// replayed through the fuzz target's entry (tools/fuzz/entries.hpp): it must end in a refusal or a
// load, never a crash or another exception; under the sanitizers of the fuzz build the same inputs
// also check memory. A binary STL claiming 10⁹ triangles must be refused without allocating them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/fuzz/entries.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;

const fs::path kInputs = IMPETUS_SOURCE_DIR "/tests/fuzz";

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void replay(const std::string& target, const std::string& input) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(input.data());
  if (target == "scene") fuzz::scene(data, input.size());
  else if (target == "urdf") fuzz::urdf(data, input.size());
  else fuzz::mesh(("." + target).c_str(), data, input.size());
}

TEST(FuzzRegressions, EveryRecordedInputIsRefusedOrLoadedWithoutCrashing) {
  int replayed = 0;
  for (const std::string target : {"scene", "urdf", "stl", "obj", "dae", "glb"}) {
    if (!fs::is_directory(kInputs / target)) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(kInputs / target)) {
      SCOPED_TRACE(file.path().string());
      EXPECT_NO_THROW(replay(target, bytes_of(file.path())));
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0) << "no inputs under " << kInputs;
}

TEST(FuzzRegressions, AGlbClaimingA4GbChunkIsRefusedBeforeAssimpAllocatesIt) {
  const std::string input = bytes_of(kInputs / "glb" / "huge_chunk.glb");
  try {
    parse_mesh(input, ".glb", "huge_chunk.glb");
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_NE(e.message().find("GLB chunk at byte 12 claims 4294967280 bytes"), std::string::npos) << e.what();
  }
}

TEST(FuzzRegressions, AMeshClaimingABillionTrianglesIsRefused) {
  const std::string input = bytes_of(kInputs / "stl" / "billion_triangles.stl");
  try {
    parse_mesh(input, ".stl", "billion_triangles.stl");
    FAIL() << "expected a refusal";
  } catch (const LoadError& e) {
    EXPECT_NE(e.message().find("1000000000 triangles need 50000000084 bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace impetus
