#include "extender/framework/registry.hpp"

#include <utility>

namespace koord::extender::framework {

Status Registry::replace(const std::string& name, PluginFactory factory) {
  if (!factory) {
    return Status::invalidArgument("failed to replace plugin '" + name + "': no factory");
  }
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    return Status::notFound("failed to replace plugin '" + name + "': it is not registered");
  }
  it->second = std::move(factory);
  return Status::ok();
}

Status Registry::add(std::string name, PluginFactory factory) {
  if (name.empty()) {
    return Status::invalidArgument("failed to register plugin '': the name is empty");
  }
  if (!factory) {
    return Status::invalidArgument("failed to register plugin '" + name + "': no factory");
  }
  if (factories_.count(name) != 0) {
    return Status::alreadyExists("failed to register plugin '" + name +
                                 "': the name is already registered");
  }
  factories_.emplace(std::move(name), std::move(factory));
  return Status::ok();
}

const PluginFactory* Registry::find(const std::string& name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  out.reserve(factories_.size());
  for (const auto& [name, factory] : factories_) {
    out.push_back(name);
  }
  return out;
}

}  // namespace koord::extender::framework
