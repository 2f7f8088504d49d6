#include "extender/objects/kind_sources.hpp"

#include <utility>

#include "koord/k8s/client.hpp"

namespace koord::extender::objects {

namespace {

// A lister over an informer's cache (the informer is kept alive by the lister).
template <class T>
class InformerLister final : public framework::Lister<T> {
 public:
  explicit InformerLister(std::shared_ptr<k8s::Informer<T>> informer)
      : informer_(std::move(informer)) {}
  [[nodiscard]] std::shared_ptr<const T> get(const std::string& key) const override {
    return informer_->store().get(key);
  }
  [[nodiscard]] std::vector<std::shared_ptr<const T>> list() const override {
    return informer_->store().list();
  }
  [[nodiscard]] uint64_t changes() const override { return informer_->store().changes(); }

 private:
  std::shared_ptr<k8s::Informer<T>> informer_;
};

template <class T>
KindSource sourceOf(const k8s::GroupVersionResource& gvr) {
  KindSource source;
  source.kind = std::string(framework::KindOf<T>::kName);
  source.gvr = gvr;
  source.watch = [gvr](k8s::SharedInformerFactory& factory,
                       framework::ObjectStore& store) -> Result<std::function<bool()>> {
    KOORD_ASSIGN_OR_RETURN(std::shared_ptr<k8s::Informer<T>> informer, factory.informerFor<T>(gvr));
    store.set<T>(std::make_shared<const InformerLister<T>>(informer));
    return std::function<bool()>([informer] { return informer->hasSynced(); });
  };
  source.decode = [](const api::Json& object) -> Result<std::shared_ptr<const void>> {
    KOORD_ASSIGN_OR_RETURN(T decoded, k8s::decodeObject<T>(object));
    return std::shared_ptr<const void>(std::make_shared<const T>(std::move(decoded)));
  };
  source.publish = [](const std::vector<std::shared_ptr<const void>>& objects,
                      framework::ObjectStore& store) {
    std::vector<std::shared_ptr<const T>> typed;
    typed.reserve(objects.size());
    for (const auto& object : objects)
      typed.push_back(std::static_pointer_cast<const T>(object));
    store.set<T>(std::make_shared<const framework::FixedLister<T>>(std::move(typed)));
  };
  return source;
}

}  // namespace

std::vector<KindSource> kindSources() {
  return {
      sourceOf<api::scheduling::Reservation>(k8s::kReservations),
      sourceOf<api::scheduling::Device>(k8s::kDevices),
      sourceOf<api::topology::NodeResourceTopology>(k8s::kNodeResourceTopologies),
      sourceOf<api::slo::NodeMetric>(k8s::kNodeMetrics),
      sourceOf<api::sigs::ElasticQuota>(k8s::kElasticQuotas),
      sourceOf<api::sigs::PodGroup>(k8s::kPodGroups),
  };
}

std::optional<KindSource> findKindSource(std::string_view kind) {
  for (KindSource& source : kindSources()) {
    if (source.kind == kind)
      return std::move(source);
  }
  return std::nullopt;
}

Result<std::function<bool()>> watchKinds(const std::vector<std::string>& kinds,
                                         k8s::SharedInformerFactory& factory,
                                         framework::ObjectStore& store) {
  std::vector<std::function<bool()>> synced;
  for (const std::string& kind : kinds) {
    std::optional<KindSource> source = findKindSource(kind);
    if (!source)
      return Status::invalidArgument("failed to watch kind '" + kind +
                                     "': koord-extender has no informer for it");
    Result<std::function<bool()>> one = source->watch(factory, store);
    if (!one.ok())
      return one.status().withPrefix("failed to watch kind '" + kind + "'");
    synced.push_back(std::move(*one));
  }
  return std::function<bool()>([synced = std::move(synced)] {
    for (const auto& one : synced) {
      if (!one())
        return false;
    }
    return true;
  });
}

}  // namespace koord::extender::objects
