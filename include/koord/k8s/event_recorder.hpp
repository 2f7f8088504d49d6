// EventRecorder: writes core/v1 Events about API objects, like client-go's record package.
//
// event() never blocks on I/O: it stamps the event with the time, applies the spam filter and puts
// it on a bounded queue that one worker thread writes to the API server.
// - Aggregation: an event identical to one already written (same source, involved object, type,
//   reason and message) within `aggregation_window` of the last occurrence is not written again:
//   the existing Event's count is incremented and lastTimestamp moved, with a merge patch. When
//   that patch gets NotFound (the Event expired or was deleted) it is created again.
// - Spam filter: one token bucket per (source, involved object), `spam_burst` tokens refilled one
//   per `spam_refill_interval` (client-go: 25, one per 5 minutes); an event without a token is
//   dropped and counted. Repeats of an aggregated event take tokens too.
// - Names are "<involved name>.<16 hex digits>" (the wall-clock UnixNano, as client-go); the Event
//   goes to the involved object's namespace ("default" for cluster-scoped objects).
// - A failed write is logged and counted, not retried.
//
// Thread safety: every method may be called from any thread. The recorder must not outlive the
// Client or Clock it was given.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include "koord/api/core/meta.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/status.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"

namespace koord::k8s {

// Wall-clock time (the same alias as in leader_election.hpp).
using WallClock = std::function<std::chrono::system_clock::time_point()>;

enum class EventType { kNormal, kWarning };

// "Normal" or "Warning".
[[nodiscard]] std::string_view eventTypeName(EventType type);

// "2006-01-02T15:04:05Z" (UTC, seconds): the text of a metav1.Time.
[[nodiscard]] std::string formatTime(std::chrono::system_clock::time_point t);

struct EventRecorderOptions {
  // Events waiting for the worker; an event() beyond this is dropped and counted.
  size_t queue_capacity = 1000;
  std::chrono::milliseconds aggregation_window{std::chrono::minutes(10)};
  int spam_burst = 25;
  std::chrono::milliseconds spam_refill_interval{std::chrono::minutes(5)};
  // How many aggregation records and spam buckets are kept (least recently used evicted first).
  size_t cache_size = 4096;
  // Wall clock for timestamps and names; empty: std::chrono::system_clock::now.
  WallClock wall_clock;
  log::Logger logger;
};

// Counters since construction (each event() lands in exactly one of queued or a dropped_ field).
struct EventRecorderStats {
  uint64_t queued = 0;
  uint64_t dropped_queue_full = 0;
  uint64_t dropped_spam = 0;
  uint64_t dropped_shut_down = 0;  // event() after shutdown()
  uint64_t created = 0;            // Events created (POST)
  uint64_t patched = 0;            // repeats folded into an existing Event (PATCH)
  uint64_t write_failures = 0;     // writes that failed (the occurrence is lost)
  uint64_t discarded = 0;          // queued events not written because shutdown's deadline passed
};

class EventRecorder {
 public:
  // `component` and `host` become the Event's source. Starts the worker thread; no I/O.
  EventRecorder(Client& client, std::string component, std::string host, const Clock& clock,
                EventRecorderOptions options = {});
  // shutdown() with a zero deadline: what is still queued is discarded.
  ~EventRecorder();
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  // Records an occurrence about `involved` (its kind, namespace, name and uid should be set).
  // Never blocks on the API server.
  void event(const api::core::ObjectReference& involved, EventType type, std::string reason,
             std::string message);

  // Stops accepting events, waits until everything queued is written or `deadline` passes on the
  // clock, then stops the worker (a write in flight is waited for). ok when all was written;
  // kDeadlineExceeded naming how many events were discarded otherwise. Idempotent: a later call
  // returns ok at once.
  [[nodiscard]] Status shutdown(Clock::Duration deadline);

  [[nodiscard]] EventRecorderStats stats() const;

 private:
  struct Pending {
    api::core::ObjectReference involved;
    EventType type;
    std::string reason;
    std::string message;
    Clock::TimePoint at;
    std::chrono::system_clock::time_point wall;
  };
  // What was written for one aggregation key.
  struct Written {
    std::string ns;
    std::string name;
    std::string first_timestamp;
    int32_t count = 0;
    Clock::TimePoint last_seen{};
  };
  struct Bucket {
    double tokens = 0;
    Clock::TimePoint last{};
  };
  // A string-keyed map that keeps at most `capacity` entries, evicting the least recently used.
  template <typename V>
  class LruMap {
   public:
    explicit LruMap(size_t capacity) : capacity_(capacity) {}
    // The entry for `key` (default-constructed when new), marked most recently used; `created`
    // tells whether it was new.
    V& touch(const std::string& key, bool& created);
    void erase(const std::string& key);

   private:
    size_t capacity_;
    std::list<std::pair<std::string, V>> order_;  // most recent first
    std::unordered_map<std::string, typename std::list<std::pair<std::string, V>>::iterator> index_;
  };

  void work();
  void write(const Pending& pending);
  bool allowBySpamFilter(const api::core::ObjectReference& involved, Clock::TimePoint now);
  std::string nextName(const std::string& involved_name, std::chrono::system_clock::time_point t);

  Client& client_;
  std::string component_;
  std::string host_;
  const Clock& clock_;
  EventRecorderOptions options_;

  mutable std::mutex mu_;
  std::condition_variable cv_;       // the worker waits for work or stop
  std::condition_variable idle_cv_;  // shutdown() waits for an empty queue
  std::deque<Pending> queue_;        // guarded by mu_
  bool busy_ = false;                // guarded by mu_: the worker is writing one
  bool accepting_ = true;            // guarded by mu_
  bool stop_ = false;                // guarded by mu_
  EventRecorderStats stats_;         // guarded by mu_
  LruMap<Bucket> buckets_;           // guarded by mu_
  LruMap<Written> written_;          // worker thread only
  int64_t last_name_nanos_ = 0;      // worker thread only
  std::thread worker_;
};

}  // namespace koord::k8s
