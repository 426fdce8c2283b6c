// libFuzzer target: the urdf reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh urdf.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::urdf(data, size);
  return 0;
}
