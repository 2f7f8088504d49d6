// ArgsDecoder: strict decoding of one plugin's args object (the config's JSON for it), shared by
// the built-in plugins and the simulator's basic plugins. Unlike api::ObjectDecoder it does not
// stop at the first problem: every bad value and every unknown field is collected, and finish()
// reports them all at once, one per line, each naming its field path ("args.resources[1]").
//
// Not thread-safe; used once inside a plugin factory.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/common/status.hpp"

namespace koord::extender::plugins::common {

class ArgsDecoder {
 public:
  // `args` must outlive the decoder; null reads as an empty object (every default).
  ArgsDecoder(const api::Json& args, std::string plugin);

  // Each reader leaves `out` unchanged when the key is absent or null.
  ArgsDecoder& optionalBool(std::string_view key, bool& out);
  ArgsDecoder& optionalString(std::string_view key, std::string& out);
  // A list of strings; `present` (when given) is set to whether the key was there.
  ArgsDecoder& optionalStringList(std::string_view key, std::vector<std::string>& out,
                                  bool* present = nullptr);

  // A nested object (for the caller to read field by field); nullptr when absent or null, or when
  // it is not an object (an error is recorded).
  const api::Json* optionalObject(std::string_view key);

  // Records a validation error for a field: `field` is a path below "args" ("resources[1]").
  void addError(std::string_view field, std::string_view message);

  // ok, or kInvalidArgument whose message has one line per problem (unknown fields included):
  //   failed to decode args of plugin '<plugin>': args.<field>: <cause>
  [[nodiscard]] Status finish() const;

 private:
  const api::Json* lookup(std::string_view key);

  const api::Json& args_;
  std::string plugin_;
  std::set<std::string, std::less<>> consumed_;
  std::vector<std::string> errors_;
};

}  // namespace koord::extender::plugins::common
