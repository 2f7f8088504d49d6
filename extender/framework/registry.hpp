// Registry: plugin name -> factory. Built-in plugins are listed in one function,
// extender/plugins/builtin.hpp builtinPlugins(); no self-registration.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::framework {

// Makes a plugin from its `args` (the config's JSON object for it; null when none given, which
// means every default). Validates every field and reports all problems at once
// (kInvalidArgument, one per line, each naming its field path); unknown fields are errors.
using PluginFactory =
    std::function<Result<std::unique_ptr<Plugin>>(const api::Json& args, const Handle& handle)>;

class Registry {
 public:
  // kAlreadyExists when `name` is taken.
  [[nodiscard]] Status add(std::string name, PluginFactory factory);
  // Swaps the factory of a registered name (a caller that needs a plugin built differently, e.g.
  // the simulator's clock); kNotFound when `name` is not registered, kInvalidArgument without a
  // factory.
  [[nodiscard]] Status replace(const std::string& name, PluginFactory factory);
  // nullptr when unknown.
  [[nodiscard]] const PluginFactory* find(const std::string& name) const;
  // Registered names, sorted.
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  std::map<std::string, PluginFactory> factories_;
};

}  // namespace koord::extender::framework
