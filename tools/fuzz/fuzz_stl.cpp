// libFuzzer target: the .stl mesh reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh stl.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::mesh(".stl", data, size);
  return 0;
}
