// Fuzz target for the watch stream decoder: any input, cut into chunks at positions taken from
// the input itself, must give the same events as feeding it whole, or fail in both cases; a
// failed decoder emits nothing more; every emitted event is well formed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "koord/k8s/watch_decoder.hpp"

namespace {

struct Decoded {
  std::vector<koord::k8s::WatchEvent> events;
  bool ok = true;
};

Decoded decodeInChunks(std::string_view text, size_t step) {
  koord::k8s::WatchDecoder decoder(4096);
  Decoded out;
  auto sink = [&](koord::k8s::WatchEvent&& e) {
    if (!out.ok || !e.object.is_object()) {
      std::abort();  // nothing is emitted after a failure; objects are always JSON objects
    }
    (void)e.isGone();
    (void)e.errorStatus("/fuzz");
    out.events.push_back(std::move(e));
  };
  for (size_t pos = 0; pos < text.size(); pos += step) {
    if (!decoder.feed(text.substr(pos, step), sink).isOk()) {
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
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Decoded whole = decodeInChunks(text, text.size() + 1);
  const size_t step = size == 0 ? 1 : 1 + data[0] % 17;
  const Decoded chunked = decodeInChunks(text, step);
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
