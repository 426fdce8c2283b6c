// libFuzzer target: the .dae mesh reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh dae.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::mesh(".dae", data, size);
  return 0;
}
