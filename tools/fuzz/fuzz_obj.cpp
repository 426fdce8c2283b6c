// libFuzzer target: the .obj mesh reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh obj.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::mesh(".obj", data, size);
  return 0;
}
