// Fuzz target for the JSON watch stream decoder: see watch_stream_check.hpp for the property.
#include <cstddef>
#include <cstdint>

#include "koord/k8s/watch_decoder.hpp"
#include "watch_stream_check.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const size_t step = size == 0 ? 1 : 1 + data[0] % 17;
  koord::fuzz::WatchStreamCheck<koord::k8s::WatchDecoder>::run(
      data, size, step, [](const koord::k8s::WatchEvent&) {});
  return 0;
}
