// Fuzz target for the protobuf watch decoder (koord-extender's pod watch): the property of
// watch_stream_check.hpp, and every emitted object goes through the pod cache's decoder, which
// accepts or refuses it without crashing.
#include <cstddef>
#include <cstdint>

#include "koord/k8s/protobuf_watch_decoder.hpp"
#include "koord/k8s/transforms.hpp"
#include "watch_stream_check.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The step comes from the last byte: the first ones are the frame length.
  const size_t step = size == 0 ? 1 : 1 + data[size - 1] % 17;
  koord::fuzz::WatchStreamCheck<koord::k8s::ProtobufWatchDecoder>::run(
      data, size, step, [](const koord::k8s::WatchEvent& e) {
        (void)koord::k8s::decodePodForCache(koord::k8s::Json(e.object));
      });
  return 0;
}
