// Smaller core objects the components write or read: Binding, Event, Lease
// (coordination.k8s.io/v1), ConfigMap, Eviction and DeleteOptions (policy/v1, meta/v1), and
// ApiStatus (meta/v1 Status, the body of API errors). Conventions: meta.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"

namespace koord::api::core {

// POSTed to pods/<name>/binding.
struct Binding {
  std::string apiVersion;  // "v1"
  std::string kind;        // "Binding"
  ObjectMeta metadata;
  ObjectReference target;  // kind "Node", name <node>
  Json extra;

  bool operator==(const Binding&) const = default;
};

struct EventSource {
  std::string component;
  std::string host;
  Json extra;

  bool operator==(const EventSource&) const = default;
};

// core/v1 Event.
struct Event {
  std::string apiVersion;
  std::string kind;
  ObjectMeta metadata;
  ObjectReference involvedObject;
  std::string reason;
  std::string message;
  EventSource source;
  std::string firstTimestamp;
  std::string lastTimestamp;
  int32_t count = 0;
  std::string type;  // Normal, Warning
  std::string action;
  std::string reportingComponent;
  std::string reportingInstance;
  Json extra;  // eventTime, series, related, ...

  bool operator==(const Event&) const = default;
};

struct LeaseSpec {
  std::optional<std::string> holderIdentity;
  std::optional<int32_t> leaseDurationSeconds;
  std::optional<std::string> acquireTime;  // MicroTime text, e.g. 2024-01-02T03:04:05.000000Z
  std::optional<std::string> renewTime;    // MicroTime text
  std::optional<int32_t> leaseTransitions;
  Json extra;

  bool operator==(const LeaseSpec&) const = default;
};

// coordination.k8s.io/v1 Lease.
struct Lease {
  std::string apiVersion;
  std::string kind;
  ObjectMeta metadata;
  LeaseSpec spec;
  Json extra;

  bool operator==(const Lease&) const = default;
};

struct ConfigMap {
  std::string apiVersion;
  std::string kind;
  ObjectMeta metadata;
  StringMap data;
  StringMap binaryData;  // values are the base64 text as sent
  Json extra;            // immutable, ...

  bool operator==(const ConfigMap&) const = default;
};

struct Preconditions {
  std::optional<std::string> uid;
  std::optional<std::string> resourceVersion;
  Json extra;

  bool operator==(const Preconditions&) const = default;
};

// meta/v1 DeleteOptions.
struct DeleteOptions {
  std::string apiVersion;
  std::string kind;
  std::optional<int64_t> gracePeriodSeconds;
  std::optional<Preconditions> preconditions;
  std::string propagationPolicy;  // "" (unset), Orphan, Background, Foreground
  std::vector<std::string> dryRun;
  Json extra;

  bool operator==(const DeleteOptions&) const = default;
};

// policy/v1 Eviction, POSTed to pods/<name>/eviction.
struct Eviction {
  std::string apiVersion;  // "policy/v1"
  std::string kind;        // "Eviction"
  ObjectMeta metadata;
  std::optional<DeleteOptions> deleteOptions;
  Json extra;

  bool operator==(const Eviction&) const = default;
};

struct StatusCause {
  std::string reason;
  std::string message;
  std::string field;
  Json extra;

  bool operator==(const StatusCause&) const = default;
};

struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;
  std::string uid;
  std::vector<StatusCause> causes;
  int32_t retryAfterSeconds = 0;
  Json extra;

  bool operator==(const StatusDetails&) const = default;
};

// meta/v1 Status (named ApiStatus so it does not clash with koord::Status).
struct ApiStatus {
  std::string apiVersion;
  std::string kind;
  ListMeta metadata;
  std::string status;  // Success, Failure
  std::string message;
  std::string reason;  // NotFound, AlreadyExists, Conflict, ...
  std::optional<StatusDetails> details;
  int32_t code = 0;
  Json extra;

  bool operator==(const ApiStatus&) const = default;
};

Status fromJson(const Json& j, Binding& out, const std::string& path);
Status fromJson(const Json& j, EventSource& out, const std::string& path);
Status fromJson(const Json& j, Event& out, const std::string& path);
Status fromJson(const Json& j, LeaseSpec& out, const std::string& path);
Status fromJson(const Json& j, Lease& out, const std::string& path);
Status fromJson(const Json& j, ConfigMap& out, const std::string& path);
Status fromJson(const Json& j, Preconditions& out, const std::string& path);
Status fromJson(const Json& j, DeleteOptions& out, const std::string& path);
Status fromJson(const Json& j, Eviction& out, const std::string& path);
Status fromJson(const Json& j, StatusCause& out, const std::string& path);
Status fromJson(const Json& j, StatusDetails& out, const std::string& path);
Status fromJson(const Json& j, ApiStatus& out, const std::string& path);

Json toJson(const Binding& v);
Json toJson(const EventSource& v);
Json toJson(const Event& v);
Json toJson(const LeaseSpec& v);
Json toJson(const Lease& v);
Json toJson(const ConfigMap& v);
Json toJson(const Preconditions& v);
Json toJson(const DeleteOptions& v);
Json toJson(const Eviction& v);
Json toJson(const StatusCause& v);
Json toJson(const StatusDetails& v);
Json toJson(const ApiStatus& v);

// A Binding of namespace/name (and uid, when not empty) to `node_name`, as a scheduler POSTs it.
[[nodiscard]] Binding makeBinding(const std::string& namespace_name, const std::string& pod_name,
                                  const std::string& pod_uid, const std::string& node_name);

}  // namespace koord::api::core
