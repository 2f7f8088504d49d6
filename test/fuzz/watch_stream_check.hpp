// The property both watch decoders' fuzz targets check (WatchDecoder for JSON,
// ProtobufWatchDecoder for protobuf): any input, cut into chunks at positions taken from the
// input itself, gives the same events as when fed whole, or fails in both cases; a failed decoder
// emits nothing more; every emitted object is a JSON object. Aborts (the fuzzer's crash) on a
// violation. `on_event` is called for each event emitted, for checks of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "koord/k8s/watch_decoder.hpp"

namespace koord::fuzz {

template <class Decoder>
struct WatchStreamCheck {
  struct Decoded {
    std::vector<k8s::WatchEvent> events;
    bool ok = true;
  };

  template <class OnEvent>
  static Decoded decodeInChunks(std::string_view bytes, size_t step, OnEvent& on_event) {
    Decoder decoder(4096);
    Decoded out;
    auto sink = [&](k8s::WatchEvent&& e) {
      if (!out.ok || !e.object.is_object()) {
        std::abort();
      }
      (void)e.isGone();
      (void)e.errorStatus("/fuzz");
      on_event(e);
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

  template <class OnEvent>
  static void run(const uint8_t* data, size_t size, size_t step, OnEvent on_event) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const Decoded whole = decodeInChunks(bytes, bytes.size() + 1, on_event);
    const Decoded chunked = decodeInChunks(bytes, step, on_event);
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
  }
};

}  // namespace koord::fuzz
