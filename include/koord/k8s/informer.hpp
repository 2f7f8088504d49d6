// Informer<T>: a Reflector feeding a Store<T> (store.hpp) on its own thread, with event handlers
// and hasSynced(), like client-go's SharedIndexInformer.
//
// Objects are decoded once, on the way in, by the informer's Decoder (the place to trim what the
// process does not need: see transforms.hpp), and handed out as std::shared_ptr<const T>: handlers
// and readers share them and must not mutate them.
//
// Handler semantics:
// - onAdd for an object new to the cache, onUpdate(old, new) for a changed one, onDelete for one
//   that went away (with its last known state);
// - after a relist (the first list, or one after 410 Gone) only differences are delivered: an
//   object whose resourceVersion did not change gets no onUpdate, so nothing is delivered twice;
// - handlers run on the informer's thread, one at a time, in the order the cache changed; the
//   store already holds the new state when they run. A handler must not block for long and must
//   not call addHandlers() (it would deadlock);
// - handlers added after the informer synced first receive onAdd for every cached object.
//
// Thread safety: every public method is thread-safe. stop() joins the thread; the destructor
// stops.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/common/thread_name.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/reflector.hpp"
#include "koord/k8s/store.hpp"

namespace koord::k8s {

template <class T>
struct ResourceEventHandlers {
  std::function<void(const std::shared_ptr<const T>&)> onAdd;
  std::function<void(const std::shared_ptr<const T>& old_obj,
                     const std::shared_ptr<const T>& new_obj)>
      onUpdate;
  std::function<void(const std::shared_ptr<const T>&)> onDelete;
};

// The type-independent face of an informer (what SharedInformerFactory starts and waits on).
class InformerBase {
 public:
  virtual ~InformerBase() = default;
  // Starts the list-and-watch thread; idempotent.
  virtual void start() = 0;
  // Stops the thread and joins it; idempotent. A stopped informer cannot be started again.
  virtual void stop() = 0;
  // True once the first list was stored (and stays true).
  [[nodiscard]] virtual bool hasSynced() const = 0;
  // Waits until hasSynced() or `timeout` passes; returns hasSynced().
  virtual bool waitForSync(Clock::Duration timeout) const = 0;
  [[nodiscard]] virtual ReflectorStats stats() const = 0;
  [[nodiscard]] virtual std::string lastResourceVersion() const = 0;
};

template <class T>
class Informer final : public InformerBase, private ReflectorHandler {
 public:
  using ObjectPtr = std::shared_ptr<const T>;
  // Turns an API object (managedFields already dropped) into the cached value.
  using Decoder = std::function<Result<T>(Json&&)>;

  // Turns an enveloped protobuf object (a protobuf watch's event, protobuf_object.hpp) into the
  // cached value; must give what Decoder gives for decodeProtobufObject's JSON of it.
  using ProtobufDecoder = std::function<Result<T>(std::string_view)>;

  static Result<T> defaultDecode(Json&& object) { return decodeObject<T>(std::move(object)); }

  // `client` must outlive the informer. options.clock (nullptr: a real clock) also times
  // waitForSync().
  Informer(
      Client& client, ReflectorOptions options, Decoder decoder = &Informer::defaultDecode,
      typename Store<T>::KeyFunc key_func =
          [](const T& obj) { return metaNamespaceKey(obj.metadata); })
      : store_(std::move(key_func)),
        decoder_(decoder ? std::move(decoder) : Decoder(&Informer::defaultDecode)),
        thread_name_("watch-" + options.gvr.resource),
        own_clock_(options.clock == nullptr ? std::make_unique<RealClock>() : nullptr),
        clock_(options.clock == nullptr ? own_clock_.get() : options.clock),
        reflector_(client, std::move(options), *this) {}

  ~Informer() override { stop(); }
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  // With a watch in protobuf (ReflectorOptions::watch_format), decodes its events with `decoder`
  // instead of going through JSON (protobuf_pod.hpp); lists stay JSON. Call before start().
  void setProtobufDecoder(ProtobufDecoder decoder) { protobuf_decoder_ = std::move(decoder); }

  // The cache: get/list/byIndex. Add indexers before start() (addIndexer also works later).
  [[nodiscard]] Store<T>& store() { return store_; }
  [[nodiscard]] const Store<T>& store() const { return store_; }

  void addHandlers(ResourceEventHandlers<T> handlers) {
    std::lock_guard dispatch(dispatch_mu_);
    if (synced_flag_ && handlers.onAdd) {
      for (const ObjectPtr& obj : store_.list()) {
        handlers.onAdd(obj);
      }
    }
    handlers_.push_back(std::move(handlers));
  }

  void start() override {
    std::lock_guard lock(thread_mu_);
    if (started_) {
      return;
    }
    started_ = true;
    thread_ = std::thread([this] {
      nameThisThread(thread_name_);
      reflector_.run();
    });
  }

  void stop() override {
    std::lock_guard lock(thread_mu_);
    reflector_.stop();
    if (thread_.joinable()) {
      thread_.join();
    }
    started_ = true;
  }

  [[nodiscard]] bool hasSynced() const override {
    std::lock_guard lock(sync_mu_);
    return synced_;
  }

  bool waitForSync(Clock::Duration timeout) const override {
    std::unique_lock lock(sync_mu_);
    return clock_->waitUntil(lock, sync_cv_, clock_->now() + timeout, [this] { return synced_; });
  }

  [[nodiscard]] ReflectorStats stats() const override { return reflector_.stats(); }
  [[nodiscard]] std::string lastResourceVersion() const override {
    return reflector_.lastResourceVersion();
  }

 private:
  // ReflectorHandler (called on the informer's thread only).
  void listStarted() override { pending_.clear(); }

  Status listItem(Json&& item) override {
    KOORD_ASSIGN_OR_RETURN(T decoded, decoder_(std::move(item)));
    pending_.push_back(std::make_shared<const T>(std::move(decoded)));
    return Status::ok();
  }

  void listAborted() override {
    pending_.clear();
    pending_.shrink_to_fit();
  }

  void listDone(const std::string& resource_version) override {
    std::lock_guard dispatch(dispatch_mu_);
    auto replaced = store_.replace(std::move(pending_), resource_version);
    pending_ = {};
    if (replaced.ok()) {
      for (const ObjectPtr& obj : replaced->added) {
        fireAdd(obj);
      }
      for (const auto& [old_obj, new_obj] : replaced->updated) {
        if (old_obj->metadata.resourceVersion != new_obj->metadata.resourceVersion) {
          fireUpdate(old_obj, new_obj);
        }
      }
      for (const ObjectPtr& obj : replaced->deleted) {
        fireDelete(obj);
      }
    }
    // A list the store refused (duplicate keys: a server bug) still counts as the sync point;
    // the store keeps its previous content and the next events repair it.
    {
      std::lock_guard lock(sync_mu_);
      synced_ = true;
    }
    synced_flag_ = true;
    sync_cv_.notify_all();
  }

  Status watchEvent(WatchEventType type, Json&& object, const std::string& /*rv*/) override {
    KOORD_ASSIGN_OR_RETURN(T decoded, decoder_(std::move(object)));
    return apply(type, std::move(decoded));
  }

  [[nodiscard]] bool readsProtobuf() const override { return protobuf_decoder_ != nullptr; }

  Status watchEventProtobuf(WatchEventType type, std::string_view envelope,
                            const std::string& /*rv*/) override {
    KOORD_ASSIGN_OR_RETURN(T decoded, protobuf_decoder_(envelope));
    return apply(type, std::move(decoded));
  }

  // Stores one watch event's object and tells the handlers.
  Status apply(WatchEventType type, T&& decoded) {
    auto obj = std::make_shared<const T>(std::move(decoded));
    std::lock_guard dispatch(dispatch_mu_);
    if (type == WatchEventType::kDeleted) {
      KOORD_ASSIGN_OR_RETURN(ObjectPtr old, store_.remove(*obj));
      if (old != nullptr) {
        fireDelete(obj);
      }
      return Status::ok();
    }
    KOORD_ASSIGN_OR_RETURN(ObjectPtr old, store_.update(obj));
    if (old == nullptr) {
      fireAdd(obj);
    } else if (old->metadata.resourceVersion != obj->metadata.resourceVersion) {
      fireUpdate(old, obj);
    }
    return Status::ok();
  }

  void fireAdd(const ObjectPtr& obj) {
    for (auto& h : handlers_) {
      if (h.onAdd) {
        h.onAdd(obj);
      }
    }
  }
  void fireUpdate(const ObjectPtr& old_obj, const ObjectPtr& new_obj) {
    for (auto& h : handlers_) {
      if (h.onUpdate) {
        h.onUpdate(old_obj, new_obj);
      }
    }
  }
  void fireDelete(const ObjectPtr& obj) {
    for (auto& h : handlers_) {
      if (h.onDelete) {
        h.onDelete(obj);
      }
    }
  }

  Store<T> store_;
  Decoder decoder_;
  ProtobufDecoder protobuf_decoder_;  // set before start(); read on the informer's thread
  std::string thread_name_;           // "watch-<resource>", cut to 15 bytes by the kernel
  std::unique_ptr<Clock> own_clock_;
  const Clock* clock_;
  std::vector<ObjectPtr> pending_;  // the list being read (informer thread only)

  std::mutex dispatch_mu_;  // orders store changes, handler calls and addHandlers()
  std::vector<ResourceEventHandlers<T>> handlers_;
  bool synced_flag_ = false;  // guarded by dispatch_mu_

  mutable std::mutex sync_mu_;
  mutable std::condition_variable sync_cv_;
  bool synced_ = false;

  std::mutex thread_mu_;
  bool started_ = false;
  std::thread thread_;

  Reflector reflector_;  // last: built after (and destroyed before) what its handler uses
};

}  // namespace koord::k8s
