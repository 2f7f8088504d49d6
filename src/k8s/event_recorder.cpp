#include "koord/k8s/event_recorder.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "koord/api/core/objects.hpp"
#include "koord/common/thread_name.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::k8s {

namespace {

constexpr char kSep = '\x1f';

std::string sourceObjectKey(const std::string& component, const std::string& host,
                            const api::core::ObjectReference& ref) {
  std::string key;
  for (const std::string* part :
       {&component, &host, &ref.kind, &ref.namespace_, &ref.name, &ref.uid, &ref.apiVersion}) {
    key += *part;
    key += kSep;
  }
  return key;
}

}  // namespace

std::string_view eventTypeName(EventType type) {
  return type == EventType::kWarning ? "Warning" : "Normal";
}

std::string formatTime(std::chrono::system_clock::time_point t) {
  const std::time_t tt =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char out[32];
  const size_t n = std::strftime(out, sizeof(out), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string(out, n);
}

template <typename V>
V& EventRecorder::LruMap<V>::touch(const std::string& key, bool& created) {
  auto it = index_.find(key);
  if (it != index_.end()) {
    order_.splice(order_.begin(), order_, it->second);
    created = false;
    return it->second->second;
  }
  created = true;
  order_.emplace_front(key, V{});
  index_[key] = order_.begin();
  while (order_.size() > capacity_ && order_.size() > 1) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  return order_.front().second;
}

template <typename V>
void EventRecorder::LruMap<V>::erase(const std::string& key) {
  auto it = index_.find(key);
  if (it != index_.end()) {
    order_.erase(it->second);
    index_.erase(it);
  }
}

EventRecorder::EventRecorder(Client& client, std::string component, std::string host,
                             const Clock& clock, EventRecorderOptions options)
    : client_(client),
      component_(std::move(component)),
      host_(std::move(host)),
      clock_(clock),
      options_(std::move(options)),
      buckets_(std::max<size_t>(options_.cache_size, 1)),
      written_(std::max<size_t>(options_.cache_size, 1)) {
  if (!options_.wall_clock) {
    options_.wall_clock = [] { return std::chrono::system_clock::now(); };
  }
  options_.logger = options_.logger.withFields({{"component", component_}});
  worker_ = std::thread([this] {
    nameThisThread("koord-events");
    work();
  });
}

EventRecorder::~EventRecorder() {
  (void)shutdown(Clock::Duration::zero());
}

void EventRecorder::event(const api::core::ObjectReference& involved, EventType type,
                          std::string reason, std::string message) {
  const Clock::TimePoint now = clock_.now();
  const auto wall = options_.wall_clock();
  uint64_t dropped_full = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!accepting_) {
      ++stats_.dropped_shut_down;
      return;
    }
    if (queue_.size() >= options_.queue_capacity) {
      dropped_full = ++stats_.dropped_queue_full;
    } else if (!allowBySpamFilter(involved, now)) {
      ++stats_.dropped_spam;
      return;
    } else {
      queue_.push_back(Pending{involved, type, std::move(reason), std::move(message), now, wall});
      ++stats_.queued;
    }
  }
  if (dropped_full == 0) {
    cv_.notify_one();
  } else if (dropped_full == 1 || dropped_full % 1000 == 0) {
    options_.logger.warn("event queue full, dropping events",
                         {{"dropped_total", dropped_full},
                          {"queue_capacity", static_cast<uint64_t>(options_.queue_capacity)}});
  }
}

bool EventRecorder::allowBySpamFilter(const api::core::ObjectReference& involved,
                                      Clock::TimePoint now) {
  bool created = false;
  Bucket& bucket = buckets_.touch(sourceObjectKey(component_, host_, involved), created);
  const double burst = static_cast<double>(std::max(options_.spam_burst, 0));
  if (created) {
    bucket.tokens = burst;
  } else if (options_.spam_refill_interval > std::chrono::milliseconds::zero() &&
             now > bucket.last) {
    const double refill = std::chrono::duration<double>(now - bucket.last).count() /
                          std::chrono::duration<double>(options_.spam_refill_interval).count();
    bucket.tokens = std::min(burst, bucket.tokens + refill);
  }
  bucket.last = std::max(bucket.last, now);
  if (bucket.tokens < 1.0) {
    return false;
  }
  bucket.tokens -= 1.0;
  return true;
}

Status EventRecorder::shutdown(Clock::Duration deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!accepting_) {
    return Status::ok();
  }
  accepting_ = false;
  clock_.waitUntil(lock, idle_cv_, clock_.now() + deadline,
                   [this] { return queue_.empty() && !busy_; });
  const size_t discarded = queue_.size();
  stats_.discarded += discarded;
  queue_.clear();
  stop_ = true;
  lock.unlock();
  cv_.notify_all();
  worker_.join();
  if (discarded > 0) {
    options_.logger.warn("event recorder shut down before its queue was written",
                         {{"discarded", static_cast<uint64_t>(discarded)}});
    return Status::deadlineExceeded("failed to flush 'events': " + std::to_string(discarded) +
                                    " queued events discarded at the shutdown deadline");
  }
  return Status::ok();
}

EventRecorderStats EventRecorder::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void EventRecorder::work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) {
      return;
    }
    Pending pending = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    write(pending);
    lock.lock();
    busy_ = false;
    if (queue_.empty()) {
      idle_cv_.notify_all();
    }
  }
}

std::string EventRecorder::nextName(const std::string& involved_name,
                                    std::chrono::system_clock::time_point t) {
  int64_t nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  nanos = std::max(nanos, last_name_nanos_ + 1);
  last_name_nanos_ = nanos;
  char hex[24];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(nanos));  // NOLINT(google-runtime-int)
  return involved_name + "." + hex;
}

void EventRecorder::write(const Pending& pending) {
  const api::core::ObjectReference& ref = pending.involved;
  const std::string type(eventTypeName(pending.type));
  std::string key = sourceObjectKey(component_, host_, ref);
  for (const std::string* part : {&ref.fieldPath, &type, &pending.reason, &pending.message}) {
    key += *part;
    key += kSep;
  }
  const std::string timestamp = formatTime(pending.wall);

  bool is_new = false;
  Written& written = written_.touch(key, is_new);
  const bool repeat = !is_new && written.count > 0 &&
                      pending.at - written.last_seen <=
                          std::chrono::duration_cast<Clock::Duration>(options_.aggregation_window);

  api::core::Event event;
  event.apiVersion = "v1";
  event.kind = "Event";
  event.involvedObject = ref;
  event.reason = pending.reason;
  event.message = pending.message;
  event.source.component = component_;
  event.source.host = host_;
  event.type = type;
  event.lastTimestamp = timestamp;

  if (repeat) {
    const int32_t count = written.count + 1;
    const Json body = {
        {"count", count}, {"lastTimestamp", timestamp}, {"message", pending.message}};
    auto patched = client_.patch(kEvents, written.ns, written.name, PatchType::kMerge, body.dump(),
                                 PatchOptions{});
    if (patched.ok()) {
      written.count = count;
      written.last_seen = pending.at;
      std::lock_guard<std::mutex> lock(mu_);
      ++stats_.patched;
      return;
    }
    if (!isNotFound(patched.status())) {
      options_.logger.warn("failed to patch event", {{"event", written.ns + "/" + written.name},
                                                     {"error", patched.status()}});
      std::lock_guard<std::mutex> lock(mu_);
      ++stats_.write_failures;
      return;
    }
    // The Event is gone (expired or deleted): write it again under the same name and count.
    event.metadata.name = written.name;
    event.metadata.namespace_ = written.ns;
    event.firstTimestamp = written.first_timestamp;
    event.count = count;
  } else {
    written = Written{};
    written.ns = ref.namespace_.empty() ? "default" : ref.namespace_;
    written.name = nextName(ref.name, pending.wall);
    written.first_timestamp = timestamp;
    event.metadata.name = written.name;
    event.metadata.namespace_ = written.ns;
    event.firstTimestamp = timestamp;
    event.count = 1;
  }

  auto created = client_.createEvent(written.ns, event);
  if (!created.ok()) {
    options_.logger.warn("failed to create event",
                         {{"event", written.ns + "/" + written.name}, {"error", created.status()}});
    written_.erase(key);
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.write_failures;
    return;
  }
  written.count = event.count;
  written.last_seen = pending.at;
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.created;
}

}  // namespace koord::k8s
