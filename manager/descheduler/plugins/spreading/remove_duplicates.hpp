// RemoveDuplicates (Balance), as the community descheduler v0.36 does it: pods of the same owner
// (namespace, owner kind and name) running the same container images are duplicates; where a node
// holds more of them than the upper average over the nodes they could run on, the surplus goes.
//
// Contract:
// - Pods listed per node: not Succeeded/Failed, in args.namespaces, passing evictor.filter() and
//   evictor.preEvictionFilter() (both asked while listing, as the community plugin does). Pods
//   without owner references, or with an owner of a kind in args.excludeOwnerKinds, are ignored.
// - A pod is a duplicate when an earlier pod on the same node has the same sorted list of
//   "<namespace>/<kind>/<name>/<image>" keys; the first such pod is the original and stays.
// - Target nodes: the union, over the duplicates, of the given nodes whose NoSchedule/NoExecute
//   taints they tolerate and whose labels match their node selector and required affinity (a
//   pod's set counts only with more than one node). Fewer than two: nothing is evicted.
// - upperAvg = ceil(pods of the owner key / target nodes); on a node with n duplicates beyond the
//   original, duplicates from index upperAvg-1 on are evicted (n+1 > upperAvg). Owner keys are
//   visited in key order, nodes in the order given. Eviction stops on a node once the evictor
//   refuses and nodeLimitExceeded() says so.
// - EvictOptions: plugin "RemoveDuplicates", no reason (the community gives none).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/spreading/args_common.hpp"

namespace koord::manager::descheduler::plugins::spreading {

inline constexpr std::string_view kRemoveDuplicatesName = "RemoveDuplicates";

struct RemoveDuplicatesArgs {
  std::optional<NamespaceScope> namespaces;
  std::vector<std::string> exclude_owner_kinds;
};

// Strict decode plus ValidateRemoveDuplicatesArgs; errors name "RemoveDuplicatesArgs.<field>".
[[nodiscard]] Result<RemoveDuplicatesArgs> decodeRemoveDuplicatesArgs(const nlohmann::json& args);

class RemoveDuplicates : public framework::BalancePlugin {
 public:
  RemoveDuplicates(RemoveDuplicatesArgs args, framework::Handle& handle)
      : args_(std::move(args)), handle_(handle) {}

  [[nodiscard]] std::string_view name() const override { return kRemoveDuplicatesName; }
  Status balance(const framework::NodeList& nodes) override;

 private:
  RemoveDuplicatesArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createRemoveDuplicates(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::plugins::spreading
