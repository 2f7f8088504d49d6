#include "koord/k8s/reflector.hpp"

#include <random>
#include <utility>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/protobuf_watch_decoder.hpp"

namespace koord::k8s {

Reflector::Reflector(Client& client, ReflectorOptions options, ReflectorHandler& handler)
    : client_(client), options_(std::move(options)), handler_(handler) {
  if (options_.clock == nullptr) {
    own_clock_ = std::make_unique<RealClock>();
    clock_ = own_clock_.get();
  } else {
    clock_ = options_.clock;
  }
  if (options_.page_size <= 0) {
    options_.page_size = ReflectorOptions{}.page_size;
  }
}

Reflector::~Reflector() {
  stop();
}

void Reflector::stop() {
  {
    std::lock_guard lock(mu_);
    stop_.store(true);
  }
  cv_.notify_all();
}

std::string Reflector::lastResourceVersion() const {
  std::lock_guard lock(mu_);
  return rv_;
}

ReflectorStats Reflector::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void Reflector::setResourceVersion(const std::string& rv) {
  std::lock_guard lock(mu_);
  rv_ = rv;
}

std::string Reflector::path() const {
  std::string p = options_.gvr.group.empty() ? options_.gvr.version
                                             : options_.gvr.group + "/" + options_.gvr.version;
  if (!options_.ns.empty()) {
    p += "/namespaces/" + options_.ns;
  }
  return p + "/" + options_.gvr.resource;
}

void Reflector::markFailing() {
  if (stats_.failing_since == Clock::TimePoint{}) {
    stats_.failing_since = clock_->now();
  }
}

bool Reflector::waitBackoff(Backoff& backoff) {
  const Clock::TimePoint deadline = clock_->now() + backoff.next();
  std::unique_lock lock(mu_);
  return !clock_->waitUntil(lock, cv_, deadline, [this] { return stop_.load(); });
}

void Reflector::run() {
  Backoff backoff(options_.backoff);
  bool need_list = true;
  bool gone = false;
  while (!stopped()) {
    if (need_list) {
      Status listed = listOnce();
      if (!listed.isOk()) {
        if (stopped()) {
          return;
        }
        options_.logger.warn("failed to list; retrying", {{"resource", path()}, {"error", listed}});
        {
          std::lock_guard lock(mu_);
          ++stats_.errors;
          markFailing();
        }
        if (!waitBackoff(backoff)) {
          return;
        }
        continue;
      }
      {
        std::lock_guard lock(mu_);
        ++stats_.lists;
        stats_.failing_since = Clock::TimePoint{};
        if (gone) {
          ++stats_.gone_relists;
        }
      }
      need_list = false;
      gone = false;
    }
    Status failure;
    const uint64_t events_before = stats().events;
    const Next next = watchOnce(failure);
    if (stopped()) {
      return;
    }
    if (stats().events != events_before) {
      backoff.reset();
    }
    if (failure.isOk()) {  // the server ended the watch: it worked
      std::lock_guard lock(mu_);
      stats_.failing_since = Clock::TimePoint{};
    }
    switch (next) {
      case Next::kRelistGone:
        options_.logger.info("watch version expired; listing again",
                             {{"resource", path()}, {"error", failure}});
        need_list = true;
        gone = true;
        break;
      case Next::kRelist:
        need_list = true;
        break;
      case Next::kWatch:
        break;
    }
    if (!failure.isOk() && next != Next::kRelistGone) {
      options_.logger.warn("watch failed; restarting from the last version",
                           {{"resource", path()}, {"error", failure}});
      {
        std::lock_guard lock(mu_);
        ++stats_.errors;
        markFailing();
      }
      if (!waitBackoff(backoff)) {
        return;
      }
    }
  }
}

Status Reflector::listOnce() {
  handler_.listStarted();
  ListOptions list_options;
  list_options.labelSelector = options_.label_selector;
  list_options.fieldSelector = options_.field_selector;
  list_options.limit = options_.page_size;
  std::string rv;
  size_t index = 0;
  do {
    Result<ObjectList> page = client_.list(options_.gvr, options_.ns, list_options);
    if (!page.ok()) {
      handler_.listAborted();
      return page.status();
    }
    if (stopped()) {
      handler_.listAborted();
      return Status::cancelled("failed to list '" + path() + "': stopped");
    }
    for (Json& item : page->items) {
      Status handled = handler_.listItem(std::move(item));
      if (!handled.isOk()) {
        options_.logger.error("failed to handle listed object",
                              {{"resource", path()}, {"index", index}, {"error", handled}});
        std::lock_guard lock(mu_);
        ++stats_.handler_errors;
      }
      ++index;
    }
    page->items.clear();
    list_options.continue_ = page->metadata.continue_;
    rv = page->metadata.resourceVersion;
  } while (!list_options.continue_.empty());
  handler_.listDone(rv);
  setResourceVersion(rv);
  return Status::ok();
}

Reflector::Next Reflector::watchOnce(Status& failure) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const auto min_timeout = std::max<int64_t>(options_.min_watch_timeout.count(), 1);
  std::uniform_int_distribution<int64_t> timeout_dist(min_timeout, 2 * min_timeout - 1);

  ListOptions watch_options;
  watch_options.labelSelector = options_.label_selector;
  watch_options.fieldSelector = options_.field_selector;
  watch_options.resourceVersion = lastResourceVersion();
  watch_options.allowWatchBookmarks = true;
  watch_options.timeoutSeconds = timeout_dist(rng);
  {
    std::lock_guard lock(mu_);
    ++stats_.watches;
  }

  const bool protobuf = options_.watch_format == WatchFormat::kProtobuf;
  WatchDecoder json_decoder(options_.max_event_bytes);
  ProtobufWatchDecoder protobuf_decoder(options_.max_event_bytes, handler_.readsProtobuf()
                                                                      ? ProtobufObjects::kRaw
                                                                      : ProtobufObjects::kJson);
  const Clock::TimePoint started = clock_->now();
  bool saw_anything = false;
  Next next = Next::kWatch;
  Status event_failure;
  const auto emit = [&](WatchEvent&& event) {
    if (next != Next::kWatch || !event_failure.isOk()) {
      return;  // the stream is being abandoned; later events are seen again after the restart
    }
    saw_anything = true;
    // A bookmark (kube-apiserver sends one about every minute) or an event clears
    // stats_.failing_since below: the watch works.
    switch (event.type) {
      case WatchEventType::kBookmark: {
        if (!event.resource_version.empty()) {
          setResourceVersion(event.resource_version);
        }
        std::lock_guard lock(mu_);
        ++stats_.bookmarks;
        stats_.failing_since = Clock::TimePoint{};
        return;
      }
      case WatchEventType::kError:
        event_failure = event.errorStatus(path());
        next = event.isGone() ? Next::kRelistGone : Next::kWatch;
        return;
      case WatchEventType::kAdded:
      case WatchEventType::kModified:
      case WatchEventType::kDeleted:
        break;
    }
    const std::string rv = event.resource_version;
    Status handled = event.protobuf_object.empty()
                         ? handler_.watchEvent(event.type, std::move(event.object), rv)
                         : handler_.watchEventProtobuf(event.type, event.protobuf_object, rv);
    std::lock_guard lock(mu_);
    ++stats_.events;
    stats_.failing_since = Clock::TimePoint{};
    if (!handled.isOk()) {
      ++stats_.handler_errors;
      options_.logger.error("failed to handle watch event",
                            {{"resource", path()}, {"error", handled}});
    }
    if (!rv.empty()) {
      rv_ = rv;
    }
  };

  Status decode_failure;
  StreamOptions stream_options;
  stream_options.stop = &stop_;
  if (protobuf) {
    stream_options.accept = kProtobufWatchContentType;
  }
  Status streamed = client_.watch(
      options_.gvr, options_.ns, watch_options,
      [&](std::string_view chunk) {
        Status fed = protobuf ? protobuf_decoder.feed(chunk, emit) : json_decoder.feed(chunk, emit);
        if (!fed.isOk()) {
          decode_failure = fed;
          return false;
        }
        return next == Next::kWatch && event_failure.isOk();
      },
      stream_options);

  if (!event_failure.isOk()) {
    failure = event_failure;
    return next;
  }
  if (!decode_failure.isOk()) {
    failure = decode_failure;
    return Next::kWatch;
  }
  if (!streamed.isOk()) {
    if (isGone(streamed)) {
      failure = streamed;
      return Next::kRelistGone;
    }
    failure = streamed;
    return Next::kWatch;
  }
  Status finished = protobuf ? protobuf_decoder.finish() : json_decoder.finish();
  if (!finished.isOk()) {
    failure = finished;
  } else if (!saw_anything && clock_->now() - started < std::chrono::seconds(1)) {
    // A server that ends every watch at once would otherwise be asked again in a tight loop.
    failure = Status::unavailable("failed to watch '" + path() +
                                  "': the server ended the watch at once without any event");
  }
  return Next::kWatch;
}

}  // namespace koord::k8s
