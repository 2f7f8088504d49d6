// How each kind of framework/kinds.hpp reaches a plugin's ObjectStore: in `koord-extender serve`
// through an informer (list and watch, shared with anyone else watching the kind), in
// `koord-extender simulate` from the objects of the YAML files. One entry per kind; plugins declare
// the kinds they read in their registry entry (extender/plugins/builtin.cpp), and
// plugins::kindsRead() collects them.
//
// Thread safety: kindSources() builds a new list per call; the functions in it may be called from
// any thread, as the informer factory and ObjectStore::set() allow (both at start-up).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/object_store.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/shared_informer_factory.hpp"

namespace koord::extender::objects {

struct KindSource {
  std::string kind;               // "Device"
  k8s::GroupVersionResource gvr;  // what serve lists and watches (and the chart's RBAC grants)
  // serve: creates (or shares) the kind's informer in `factory` (started with the factory) and
  // sets a lister over its cache in `store`; returns whether the informer has synced.
  std::function<Result<std::function<bool()>>(k8s::SharedInformerFactory& factory,
                                              framework::ObjectStore& store)>
      watch;
  // simulate: one object of the kind from its JSON (the caller checked apiVersion and kind).
  // kInvalidArgument "<field path>: <cause>" when it does not decode.
  std::function<Result<std::shared_ptr<const void>>(const api::Json& object)> decode;
  // simulate: sets a lister over `objects` (each made by `decode`) in `store`.
  std::function<void(const std::vector<std::shared_ptr<const void>>& objects,
                     framework::ObjectStore& store)>
      publish;
};

// Reservation, Device, NodeResourceTopology, NodeMetric, ElasticQuota, PodGroup.
[[nodiscard]] std::vector<KindSource> kindSources();

// The entry for `kind`; nullopt when the kind is not one of them.
[[nodiscard]] std::optional<KindSource> findKindSource(std::string_view kind);

// serve: watches every kind of `kinds` into `store`. The result is true once every informer has
// synced (true at once for no kinds). kInvalidArgument for a kind kindSources() does not know.
[[nodiscard]] Result<std::function<bool()>> watchKinds(const std::vector<std::string>& kinds,
                                                       k8s::SharedInformerFactory& factory,
                                                       framework::ObjectStore& store);

}  // namespace koord::extender::objects
