#include "manager/descheduler/plugins/node_rules/args_util.hpp"

#include <algorithm>

#include "koord/api/core/selectors.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

Status ArgsReader::checkKeys(std::initializer_list<std::string_view> known) const {
  if (args_.is_null())
    return Status::ok();
  if (!args_.is_object())
    return invalid("expected an object");
  for (const auto& [key, value] : args_.items()) {
    if (key == "apiVersion" || key == "kind")
      continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Status::invalidArgument(path(key) + ": unknown field");
    }
  }
  return Status::ok();
}

Status ArgsReader::readNamespaces(std::string_view key,
                                  std::optional<config::Namespaces>& out) const {
  if (!args_.is_object())
    return Status::ok();
  auto it = args_.find(std::string(key));
  if (it == args_.end() || it->is_null())
    return Status::ok();
  const std::string at = path(key);
  if (!it->is_object())
    return Status::invalidArgument(at + ": expected an object");
  config::Namespaces namespaces;
  for (const auto& [sub, value] : it->items()) {
    std::vector<std::string>* target = nullptr;
    if (sub == "include") {
      target = &namespaces.include;
    } else if (sub == "exclude") {
      target = &namespaces.exclude;
    } else {
      return Status::invalidArgument(at + "." + sub + ": unknown field");
    }
    if (value.is_null())
      continue;
    KOORD_RETURN_IF_ERROR(api::fromJson(value, *target, at + "." + sub));
  }
  out = std::move(namespaces);
  return Status::ok();
}

Status validateNamespacesAndSelector(const ArgsReader& reader,
                                     const std::optional<config::Namespaces>& namespaces,
                                     const std::optional<api::core::LabelSelector>& selector) {
  if (namespaces && !namespaces->include.empty() && !namespaces->exclude.empty()) {
    return reader.invalid("only one of Include/Exclude namespaces can be set");
  }
  if (selector) {
    Status status = api::core::validateLabelSelector(*selector);
    if (!status.isOk()) {
      return reader.invalid("failed to get label selectors from strategy's params: " +
                            status.message());
    }
  }
  return Status::ok();
}

bool passesPodFilter(const api::core::Pod& pod, const std::optional<config::Namespaces>& namespaces,
                     const std::optional<api::core::LabelSelector>& selector,
                     const framework::Evictor& evictor) {
  if (namespaces) {
    const auto& ns = pod.metadata.namespace_;
    const auto& inc = namespaces->include;
    const auto& exc = namespaces->exclude;
    if (!inc.empty() && std::find(inc.begin(), inc.end(), ns) == inc.end())
      return false;
    if (!exc.empty() && std::find(exc.begin(), exc.end(), ns) != exc.end())
      return false;
  }
  if (selector) {
    auto matches = api::core::matchesLabelSelector(*selector, pod.metadata.labels);
    if (!matches.ok() || !*matches)
      return false;
  }
  return evictor.filter(pod) && evictor.preEvictionFilter(pod);
}

}  // namespace koord::manager::descheduler::plugins::node_rules
