// libFuzzer target: the scene reader (tools/fuzz/entries.hpp). Run with tools/fuzz.sh scene.
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impetus::fuzz::scene(data, size);
  return 0;
}
