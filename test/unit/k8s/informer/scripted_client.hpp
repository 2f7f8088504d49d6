// ScriptedClient: a Client whose list() and watch() replies are scripted by the test, for
// reflector and informer tests. list() pops the next scripted page (or error); watch() plays the
// next scripted stream (chunks, then a final status). When a watch script is exhausted, watch()
// blocks like a quiet, healthy stream until the caller's stop flag is set. Every list and watch
// request's options are recorded. Other Client methods return kUnimplemented.
//
// Thread safety: all methods are thread-safe; tests script before or while the informer runs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "koord/k8s/client.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::k8s::testing {

class ScriptedClient final : public Client {
 public:
  struct WatchScript {
    std::vector<std::string> chunks;
    Status end;  // what watch() returns after the chunks (ok: the server ended the stream)
  };

  void addListPage(ObjectList page) {
    std::lock_guard lock(mu_);
    lists_.push_back(std::move(page));
  }
  void addListError(Status error) {
    std::lock_guard lock(mu_);
    lists_.push_back(std::move(error));
  }
  void addWatch(WatchScript script) {
    {
      std::lock_guard lock(mu_);
      watches_.push_back(std::move(script));
    }
    cv_.notify_all();
  }

  // Requests seen so far.
  std::vector<ListOptions> listRequests() const {
    std::lock_guard lock(mu_);
    return list_requests_;
  }
  std::vector<ListOptions> watchRequests() const {
    std::lock_guard lock(mu_);
    return watch_requests_;
  }

  // Blocks until a watch() is parked with its script exhausted after at least `n` watch
  // requests, or 10 s pass; true when it got there.
  bool waitIdle(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10),
                        [&] { return idle_ && watch_requests_.size() >= n; });
  }

  Result<ObjectList> list(const GroupVersionResource& /*gvr*/, const std::string& /*ns*/,
                          const ListOptions& options) override {
    std::lock_guard lock(mu_);
    list_requests_.push_back(options);
    if (lists_.empty()) {
      return Status::unavailable("failed to list: no scripted reply");
    }
    Result<ObjectList> next = std::move(lists_.front());
    lists_.pop_front();
    return next;
  }

  Status watch(const GroupVersionResource& /*gvr*/, const std::string& /*ns*/,
               const ListOptions& options, const std::function<bool(std::string_view)>& on_chunk,
               const StreamOptions& stream_options) override {
    std::unique_lock lock(mu_);
    watch_requests_.push_back(options);
    if (!watches_.empty()) {
      WatchScript script = std::move(watches_.front());
      watches_.pop_front();
      lock.unlock();
      for (const std::string& chunk : script.chunks) {
        if (!on_chunk(chunk)) {
          return Status::ok();
        }
      }
      return script.end;
    }
    idle_ = true;
    cv_.notify_all();
    while (stream_options.stop == nullptr || !stream_options.stop->load()) {
      cv_.wait_for(lock, std::chrono::milliseconds(5));
      if (!watches_.empty()) {
        // A new script arrived: end this quiet stream so the reflector watches again.
        idle_ = false;
        return Status::ok();
      }
    }
    idle_ = false;
    return Status::cancelled("failed to watch: stopped");
  }

  Result<Json> get(const GroupVersionResource&, const std::string&, const std::string&) override {
    return unimplemented();
  }
  Result<Json> create(const GroupVersionResource&, const std::string&, const Json&) override {
    return unimplemented();
  }
  Result<Json> update(const GroupVersionResource&, const std::string&, const Json&) override {
    return unimplemented();
  }
  Result<Json> updateStatus(const GroupVersionResource&, const std::string&, const Json&) override {
    return unimplemented();
  }
  Status remove(const GroupVersionResource&, const std::string&, const std::string&,
                const api::core::DeleteOptions&) override {
    return unimplemented();
  }
  Result<Json> patch(const GroupVersionResource&, const std::string&, const std::string&, PatchType,
                     const std::string&, const PatchOptions&) override {
    return unimplemented();
  }
  Status bind(const std::string&, const std::string&, const std::string&,
              const std::string&) override {
    return unimplemented();
  }
  Status evict(const std::string&, const std::string&, const api::core::DeleteOptions&) override {
    return unimplemented();
  }
  Result<Json> createEvent(const std::string&, const api::core::Event&) override {
    return unimplemented();
  }

 private:
  static Status unimplemented() { return Status::unimplemented("not scripted"); }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Result<ObjectList>> lists_;
  std::deque<WatchScript> watches_;
  std::vector<ListOptions> list_requests_;
  std::vector<ListOptions> watch_requests_;
  bool idle_ = false;
};

}  // namespace koord::k8s::testing
