// Fuzz target for the preempt request decoder (ExtenderPreemptionArgs): any input must decode or
// give an error, never crash; what decodes must encode and decode again to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/api/extender/types.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = koord::api::parseJson(text);
  if (!parsed.ok()) {
    return 0;
  }
  koord::api::extender::ExtenderPreemptionArgs args;
  if (!koord::api::extender::fromJson(*parsed, args, "").isOk()) {
    return 0;
  }
  const koord::api::Json encoded = koord::api::extender::toJson(args);
  koord::api::extender::ExtenderPreemptionArgs again;
  if (!koord::api::extender::fromJson(encoded, again, "").isOk() || !(again == args)) {
    std::abort();  // the encoder writes what the decoder reads
  }
  (void)encoded.dump(-1, ' ', false, koord::api::Json::error_handler_t::replace);
  return 0;
}
