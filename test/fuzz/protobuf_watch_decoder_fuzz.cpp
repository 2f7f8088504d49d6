// Fuzz target for the protobuf watch decoder (koord-extender's pod watch): any input, cut into
// chunks at positions taken from the input itself, must give the same events as feeding it
// whole, or fail in both cases; a failed decoder emits nothing more; every emitted event's
// object is a JSON object that the pod cache's decoder accepts or refuses without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "koord/k8s/protobuf_watch_decoder.hpp"
#include "koord/k8s/transforms.hpp"

namespace {

struct Decoded {
  std::vector<koord::k8s::WatchEvent> events;
  bool ok = true;
};

Decoded decodeInChunks(std::string_view bytes, size_t step) {
  koord::k8s::ProtobufWatchDecoder decoder(4096);
  Decoded out;
  auto sink = [&](koord::k8s::WatchEvent&& e) {
    if (!out.ok || !e.object.is_object()) {
      std::abort();  // nothing is emitted after a failure; objects are always JSON objects
    }
    (void)e.isGone();
    (void)e.errorStatus("/fuzz");
    (void)koord::k8s::decodePodForCache(koord::k8s::Json(e.object));
    out.events.push_back(std::move(e));
  };
  for (size_t pos = 0; pos < bytes.size(); pos += step) {
    if (!decoder.feed(bytes.substr(pos, step), sink).isOk()) {
      out.ok = false;
    }
  }
  if (!decoder.finish().isOk()) {
    out.ok = false;
  }
  return out;
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Decoded whole = decodeInChunks(bytes, bytes.size() + 1);
  const size_t step = size == 0 ? 1 : 1 + data[size - 1] % 17;
  const Decoded chunked = decodeInChunks(bytes, step);
  if (whole.ok != chunked.ok || whole.events.size() != chunked.events.size()) {
    std::abort();  // chunk boundaries must not change the outcome
  }
  for (size_t i = 0; i < whole.events.size(); ++i) {
    if (whole.events[i].type != chunked.events[i].type ||
        whole.events[i].object != chunked.events[i].object ||
        whole.events[i].resource_version != chunked.events[i].resource_version) {
      std::abort();
    }
  }
  return 0;
}
