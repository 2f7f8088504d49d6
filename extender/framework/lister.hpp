// Lister<T>: a plugin's read-only view of the objects of one kind beyond Nodes and Pods (Devices,
// NodeResourceTopologies, NodeMetrics, ElasticQuotas, PodGroups, Reservations): an informer's cache
// in `koord-extender serve`, the objects of the YAML files in `koord-extender simulate`. A plugin
// gets one from Handle::objects() for each kind its registry entry declares
// (extender/plugins/builtin.cpp); ObjectStore explains how.
//
// Thread safety: get() and list() may be called concurrently; the objects are immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace koord::extender::framework {

template <class T>
class Lister {
 public:
  virtual ~Lister() = default;
  // By key: "namespace/name", or "name" for a cluster-scoped kind; nullptr when absent.
  [[nodiscard]] virtual std::shared_ptr<const T> get(const std::string& key) const = 0;
  // Every object, in no particular order.
  [[nodiscard]] virtual std::vector<std::shared_ptr<const T>> list() const = 0;
  // A count that moves whenever an object is added, replaced or removed, so that a plugin keeping
  // a summary over list() scans again only when it has moved (read it before list()). A lister
  // whose objects never change keeps 0.
  [[nodiscard]] virtual uint64_t changes() const { return 0; }
};

// A fixed set of objects (the simulator's input, tests). The key of an object is
// "metadata.namespace/metadata.name", or metadata.name when it has no namespace.
template <class T>
class FixedLister final : public Lister<T> {
 public:
  explicit FixedLister(std::vector<std::shared_ptr<const T>> objects)
      : objects_(std::move(objects)) {}
  [[nodiscard]] std::shared_ptr<const T> get(const std::string& key) const override {
    for (const auto& object : objects_) {
      const auto& meta = object->metadata;
      if (meta.namespace_.empty() ? meta.name == key : meta.namespace_ + "/" + meta.name == key)
        return object;
    }
    return nullptr;
  }
  [[nodiscard]] std::vector<std::shared_ptr<const T>> list() const override { return objects_; }

 private:
  std::vector<std::shared_ptr<const T>> objects_;
};

}  // namespace koord::extender::framework
