#include "manager/descheduler/framework/node_fit.hpp"

#include <cctype>
#include <set>
#include <utility>
#include <vector>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::manager::descheduler::framework {

namespace nodefit_detail {

using api::core::Node;
using api::core::Pod;
using resource::ResourceList;

// Pods bound to `node` that hold resources (Succeeded and Failed ones do not).
std::vector<PodPtr> activePodsOn(const ClusterSnapshot& snapshot, const std::string& node) {
  std::vector<PodPtr> out;
  for (const auto& pod : snapshot.podsOnNode(node)) {
    if (!api::core::isPodTerminal(*pod))
      out.push_back(pod);
  }
  return out;
}

// The required anti-affinity terms' match against the node's pods (podMatchesInterPodAntiAffinity).
Result<bool> matchesAntiAffinity(const Pod& pod, const Node& node,
                                 const ClusterSnapshot& snapshot) {
  if (!pod.spec.affinity || pod.spec.affinity->podAntiAffinity.is_null())
    return false;
  const auto& anti = pod.spec.affinity->podAntiAffinity;
  if (!anti.is_object())
    return false;
  auto required = anti.find("requiredDuringSchedulingIgnoredDuringExecution");
  if (required == anti.end() || !required->is_array())
    return false;
  const auto pods = activePodsOn(snapshot, node.metadata.name);
  for (const auto& term : *required) {
    if (!term.is_object())
      continue;
    std::set<std::string> namespaces;
    if (auto ns = term.find("namespaces"); ns != term.end() && ns->is_array()) {
      for (const auto& n : *ns) {
        if (n.is_string())
          namespaces.insert(n.get<std::string>());
      }
    }
    if (namespaces.empty())
      namespaces.insert(pod.metadata.namespace_);
    // A missing labelSelector selects nothing.
    auto selector_json = term.find("labelSelector");
    if (selector_json == term.end() || selector_json->is_null())
      continue;
    api::core::LabelSelector selector;
    KOORD_RETURN_IF_ERROR(api::core::fromJson(*selector_json, selector, "labelSelector"));
    std::string topology_key;
    if (auto key = term.find("topologyKey"); key != term.end() && key->is_string()) {
      topology_key = key->get<std::string>();
    }
    for (const auto& other : pods) {
      if (other->metadata.name == pod.metadata.name ||
          namespaces.count(other->metadata.namespace_) == 0) {
        continue;
      }
      KOORD_ASSIGN_OR_RETURN(bool matches,
                             api::core::matchesLabelSelector(selector, other->metadata.labels));
      if (matches && node.metadata.labels.count(topology_key) > 0)
        return true;
    }
  }
  return false;
}

bool isBasic(const std::string& name) {
  return name == "cpu" || name == "memory" || name == "pods";
}

// fitsRequest: "" when the pod's requests fit the node's free allocatable, else the reason.
std::string fitsRequest(const Pod& pod, const Node& node, const ClusterSnapshot& snapshot) {
  auto requests = api::core::podRequests(pod);
  if (!requests.ok())
    return requests.status().message();
  std::vector<std::string> names = {"pods"};
  for (const auto& [name, quantity] : *requests) {
    if (name != "pods")
      names.push_back(name);
  }
  const auto pods = activePodsOn(snapshot, node.metadata.name);
  ResourceList used;
  for (const auto& other : pods) {
    auto other_requests = api::core::podRequests(*other);
    if (!other_requests.ok())
      continue;
    auto sum = resource::add(used, *other_requests);
    if (sum.ok())
      used = std::move(*sum);
  }
  const auto& allocatable = node.status.allocatable;
  int64_t pods_available_milli = 0;
  for (const auto& name : names) {
    int64_t available_milli = 0;
    if (name == "cpu") {
      available_milli =
          resource::get(allocatable, name).milliValue() - resource::get(used, name).milliValue();
    } else if (name == "pods") {
      available_milli =
          (resource::get(allocatable, name).value() - static_cast<int64_t>(pods.size())) * 1000;
    } else if (isBasic(name) || allocatable.count(name) > 0) {
      available_milli =
          (resource::get(allocatable, name).value() - resource::get(used, name).value()) * 1000;
    }
    if (name == "pods")
      pods_available_milli = available_milli;
    if (resource::get(*requests, name).milliValue() > available_milli) {
      return "insufficient " + name;
    }
  }
  return pods_available_milli <= 0 ? "insufficient pods" : "";
}

bool podFitsNodes(const Pod& pod, const NodeList& nodes, const ClusterSnapshot& snapshot,
                  bool skip_own) {
  for (const auto& node : nodes) {
    if (skip_own && pod.spec.nodeName == node->metadata.name)
      continue;
    if (!nodeFitFailure(pod, *node, snapshot))
      return true;
  }
  return false;
}

bool isSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b]))
    ++b;
  while (e > b && isSpace(s[e - 1]))
    --e;
  return std::string(s.substr(b, e - b));
}

// Splits on commas outside parentheses.
std::vector<std::string> splitRequirements(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      parts.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return parts;
}

Result<api::core::LabelSelectorRequirement> parseRequirement(const std::string& part) {
  auto bad = [&part]() {
    return Status::invalidArgument("unable to parse requirement \"" + part + "\"");
  };
  api::core::LabelSelectorRequirement req;
  if (part.empty())
    return bad();
  if (part[0] == '!') {
    req.key = trim(part.substr(1));
    req.operator_ = "DoesNotExist";
    return req.key.empty() ? Result<api::core::LabelSelectorRequirement>(bad()) : req;
  }
  if (size_t pos = part.find("!="); pos != std::string::npos) {
    req = {trim(part.substr(0, pos)), "NotIn", {trim(part.substr(pos + 2))}, {}};
  } else if (pos = part.find("=="); pos != std::string::npos) {
    req = {trim(part.substr(0, pos)), "In", {trim(part.substr(pos + 2))}, {}};
  } else if (pos = part.find('='); pos != std::string::npos) {
    req = {trim(part.substr(0, pos)), "In", {trim(part.substr(pos + 1))}, {}};
  } else if (size_t open = part.find('('); open != std::string::npos) {
    if (part.back() != ')')
      return bad();
    std::string head = trim(part.substr(0, open));
    size_t space = head.find_last_of(" \t");
    if (space == std::string::npos)
      return bad();
    std::string op = trim(head.substr(space + 1));
    req.key = trim(head.substr(0, space));
    if (op == "in") {
      req.operator_ = "In";
    } else if (op == "notin") {
      req.operator_ = "NotIn";
    } else {
      return bad();
    }
    for (auto& value : splitRequirements(part.substr(open + 1, part.size() - open - 2))) {
      req.values.push_back(std::move(value));
    }
  } else {
    req.key = part;
    req.operator_ = "Exists";
  }
  if (req.key.empty() || req.key.find_first_of(" \t<>!") != std::string::npos)
    return bad();
  return req;
}

}  // namespace nodefit_detail

namespace nfd = nodefit_detail;

std::optional<std::string> nodeFitFailure(const api::core::Pod& pod, const api::core::Node& node,
                                          const ClusterSnapshot& snapshot) {
  if (node.spec.unschedulable)
    return "node is not schedulable";
  auto matches = api::core::matchesRequiredNodeAffinity(pod, node);
  if (!matches.ok())
    return matches.status().message();
  if (!*matches)
    return "pod node selector does not match the node label";
  auto taint = api::core::findUntoleratedTaint(
      node.spec.taints, pod.spec.tolerations, [](const api::core::Taint& t) {
        return t.effect == api::core::kTaintEffectNoSchedule ||
               t.effect == api::core::kTaintEffectNoExecute;
      });
  if (taint)
    return "pod does not tolerate taints on the node";
  auto anti = nfd::matchesAntiAffinity(pod, node, snapshot);
  if (!anti.ok())
    return anti.status().message();
  if (*anti)
    return "pod matches inter-pod anti-affinity rule of other pod on node";
  if (pod.spec.nodeName.empty() || pod.spec.nodeName != node.metadata.name) {
    std::string failure = nfd::fitsRequest(pod, node, snapshot);
    if (!failure.empty())
      return failure;
  }
  return std::nullopt;
}

bool podFitsNode(const api::core::Pod& pod, const api::core::Node& node,
                 const ClusterSnapshot& snapshot, std::string* reason) {
  auto failure = nodeFitFailure(pod, node, snapshot);
  if (failure && reason != nullptr)
    *reason = *failure;
  return !failure;
}

bool podFitsAnyNode(const api::core::Pod& pod, const NodeList& nodes,
                    const ClusterSnapshot& snapshot) {
  return nfd::podFitsNodes(pod, nodes, snapshot, false);
}

bool podFitsAnyOtherNode(const api::core::Pod& pod, const NodeList& nodes,
                         const ClusterSnapshot& snapshot) {
  return nfd::podFitsNodes(pod, nodes, snapshot, true);
}

PodFitsAnyOtherNode makePodFitsAnyOtherNode(const ClusterSnapshot& snapshot) {
  const ClusterSnapshot* bound = &snapshot;
  return [bound](const api::core::Pod& pod, const NodeList& nodes) {
    return podFitsAnyOtherNode(pod, nodes, *bound);
  };
}

PodFitsAnyOtherNode makePodFitsAnyOtherNode(const Handle& handle) {
  const Handle* bound = &handle;
  return [bound](const api::core::Pod& pod, const NodeList& nodes) {
    return bound->snapshot != nullptr && podFitsAnyOtherNode(pod, nodes, *bound->snapshot);
  };
}

Result<api::core::LabelSelector> parseNodeSelectorText(std::string_view text) {
  api::core::LabelSelector selector;
  if (nfd::trim(text).empty())
    return selector;
  for (const auto& part : nfd::splitRequirements(text)) {
    KOORD_ASSIGN_OR_RETURN(auto requirement, nfd::parseRequirement(part));
    selector.matchExpressions.push_back(std::move(requirement));
  }
  KOORD_RETURN_IF_ERROR(api::core::validateLabelSelector(selector));
  return selector;
}

bool isNodeReady(const api::core::Node& node) {
  for (const auto& condition : node.status.conditions) {
    if (condition.type == "Ready" && condition.status != "True")
      return false;
  }
  return true;
}

Result<NodeList> readyNodes(const ClusterSnapshot& snapshot, std::string_view selector_text) {
  KOORD_ASSIGN_OR_RETURN(auto selector, parseNodeSelectorText(selector_text));
  NodeList out;
  for (const auto& node : snapshot.nodes()) {
    KOORD_ASSIGN_OR_RETURN(bool matches,
                           api::core::matchesLabelSelector(selector, node->metadata.labels));
    if (matches && isNodeReady(*node))
      out.push_back(node);
  }
  return out;
}

}  // namespace koord::manager::descheduler::framework
