// SharedInformerFactory: one informer per watched resource in a process, like client-go's
// SharedInformerFactory. Every part of a program (the extender's plugins, the agent's states
// informer) asks the factory for the informer it needs; asking twice for the same resource and
// scope returns the same informer, so each resource is listed and watched once.
//
// Thread safety: every method is thread-safe. The factory owns its informers; shutdown() (and the
// destructor) stops them all.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/informer.hpp"

namespace koord::k8s {

// What part of a resource an informer watches.
struct InformerScope {
  std::string ns;  // "" for every namespace
  std::string label_selector;
  std::string field_selector;

  // clang-tidy 14 reads the defaulted <=>'s comparison with literal 0 as a null pointer.
  auto operator<=>(const InformerScope&) const = default;  // NOLINT(modernize-use-nullptr)
};

struct SharedInformerFactoryOptions {
  int64_t page_size = ReflectorOptions{}.page_size;
  std::chrono::seconds min_watch_timeout{300};
  const Clock* clock = nullptr;  // nullptr: real time
  log::Logger logger;
};

class SharedInformerFactory {
 public:
  // `client` must outlive the factory.
  explicit SharedInformerFactory(Client& client, SharedInformerFactoryOptions options = {})
      : client_(client), options_(std::move(options)) {}
  ~SharedInformerFactory() { shutdown(); }
  SharedInformerFactory(const SharedInformerFactory&) = delete;
  SharedInformerFactory& operator=(const SharedInformerFactory&) = delete;

  // The informer for `gvr` in `scope`, created on first use (not started: call start()). The
  // first caller's decoder and watch format (ReflectorOptions::watch_format) are the ones used.
  // kAlreadyExists when the resource and scope were registered with another T.
  template <class T>
  [[nodiscard]] Result<std::shared_ptr<Informer<T>>> informerFor(
      const GroupVersionResource& gvr, const InformerScope& scope = {},
      typename Informer<T>::Decoder decoder = &Informer<T>::defaultDecode,
      WatchFormat watch_format = WatchFormat::kJson) {
    std::lock_guard lock(mu_);
    auto key = std::make_tuple(gvr.group, gvr.version, gvr.resource, scope);
    auto it = informers_.find(key);
    if (it != informers_.end()) {
      auto typed = std::dynamic_pointer_cast<Informer<T>>(it->second);
      if (typed == nullptr) {
        return Status::alreadyExists("failed to get informer for '" + gvr.resource +
                                     "': already registered with another type");
      }
      return typed;
    }
    ReflectorOptions reflector_options;
    reflector_options.gvr = gvr;
    reflector_options.ns = scope.ns;
    reflector_options.label_selector = scope.label_selector;
    reflector_options.field_selector = scope.field_selector;
    reflector_options.page_size = options_.page_size;
    reflector_options.min_watch_timeout = options_.min_watch_timeout;
    reflector_options.clock = options_.clock;
    reflector_options.logger = options_.logger;
    reflector_options.watch_format = watch_format;
    auto informer =
        std::make_shared<Informer<T>>(client_, std::move(reflector_options), std::move(decoder));
    informers_.emplace(std::move(key), informer);
    order_.push_back(informer);
    return informer;
  }

  // Starts every informer not started yet (call again after adding informers).
  void start() {
    for (const auto& informer : snapshot()) {
      informer->start();
    }
  }

  // Waits until every informer has synced or `timeout` passes (one deadline for all); true when
  // all have.
  bool waitForCacheSync(Clock::Duration timeout) {
    RealClock real;
    const Clock& clock =
        options_.clock == nullptr ? static_cast<const Clock&>(real) : *options_.clock;
    const Clock::TimePoint deadline = clock.now() + timeout;
    for (const auto& informer : snapshot()) {
      const Clock::Duration left = deadline - clock.now();
      if (!informer->waitForSync(left > Clock::Duration::zero() ? left : Clock::Duration::zero())) {
        return false;
      }
    }
    return true;
  }

  // True when every informer has synced.
  [[nodiscard]] bool hasSynced() const {
    for (const auto& informer : snapshot()) {
      if (!informer->hasSynced()) {
        return false;
      }
    }
    return true;
  }

  // The longest time any informer's lists and watches have been failing without a success in
  // between (zero when none fails): how stale the oldest part of the cache may be.
  [[nodiscard]] Clock::Duration failingFor() const {
    RealClock real;
    const Clock& clock =
        options_.clock == nullptr ? static_cast<const Clock&>(real) : *options_.clock;
    const Clock::TimePoint now = clock.now();
    Clock::Duration longest = Clock::Duration::zero();
    for (const auto& informer : snapshot()) {
      const Clock::TimePoint since = informer->stats().failing_since;
      if (since != Clock::TimePoint{} && now - since > longest) {
        longest = now - since;
      }
    }
    return longest;
  }

  // Stops every informer (joins their threads); idempotent.
  void shutdown() {
    for (const auto& informer : snapshot()) {
      informer->stop();
    }
  }

  [[nodiscard]] size_t size() const {
    std::lock_guard lock(mu_);
    return order_.size();
  }

 private:
  using Key = std::tuple<std::string, std::string, std::string, InformerScope>;

  std::vector<std::shared_ptr<InformerBase>> snapshot() const {
    std::lock_guard lock(mu_);
    return order_;
  }

  Client& client_;
  SharedInformerFactoryOptions options_;
  mutable std::mutex mu_;
  std::map<Key, std::shared_ptr<InformerBase>> informers_;
  std::vector<std::shared_ptr<InformerBase>> order_;  // registration order
};

}  // namespace koord::k8s
