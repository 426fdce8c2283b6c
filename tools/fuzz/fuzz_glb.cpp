// libFuzzer target: the .glb mesh reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh glb.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::mesh(".glb", data, size);
  return 0;
}
