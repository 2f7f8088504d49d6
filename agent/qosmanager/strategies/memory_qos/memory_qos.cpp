#include "agent/qosmanager/strategies/memory_qos/memory_qos.hpp"

#include <unistd.h>

#include <utility>
#include <vector>

#include "agent/qosmanager/framework/strategy_metrics.hpp"
#include "agent/qosmanager/strategies/memory_qos/memory_qos_config.hpp"
#include "agent/qosmanager/strategies/memory_qos/memory_qos_formula.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {

namespace {

using resourceexecutor::CgroupResource;
using resourceexecutor::ResourceUpdate;

constexpr std::string_view kUnsupportedReason =
    "cgroup v1: memory.min, memory.low and memory.high exist on cgroup v2 (or Anolis kernels) "
    "only; nothing is written";

// The bytes of `name` in `list` (the deprecated name as a fallback); nullopt when absent.
std::optional<int64_t> quantity(const resource::ResourceList& list, std::string_view name,
                                std::string_view deprecated = {}) {
  for (std::string_view key : {name, deprecated}) {
    if (key.empty()) {
      continue;
    }
    auto it = list.find(key);
    if (it != list.end()) {
      return it->second.value();
    }
  }
  return std::nullopt;
}

api::Json profileJson(const MemoryQosProfile& profile) {
  return api::Json{{"minLimitPercent", profile.min_limit_percent},
                   {"lowLimitPercent", profile.low_limit_percent},
                   {"throttlingPercent", profile.throttling_percent}};
}

api::Json highJson(const std::optional<int64_t>& high) {
  if (!high.has_value()) {
    return nullptr;
  }
  return *high == kMemoryMax ? api::Json("max") : api::Json(*high);
}

int64_t systemPageSize() {
  const long size = ::sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<int64_t>(size) : 4096;
}

}  // namespace

MemoryQos::MemoryQos(Clock::Duration interval, log::Logger logger,
                     metrics::MetricsRegistry* registry, int64_t page_size)
    : interval_(interval),
      logger_(std::move(logger)),
      page_size_(page_size > 0 ? page_size : systemPageSize()) {
  supported_ = framework::strategyGauge(
      registry, logger_, "koord_agent_memory_qos_supported",
      "Whether the node's cgroups offer memory.min, memory.low and memory.high "
      "(1: cgroup v2), so that memory QoS can be applied.");
  containers_ = framework::strategyGauge(
      registry, logger_, "koord_agent_memory_qos_containers",
      "Containers given memory.min, memory.low and memory.high by the last "
      "memory QoS run.");
}

bool MemoryQos::enabled(const api::slo::NodeSLO* node_slo) const {
  return node_slo != nullptr && node_slo->spec.resourceQOSStrategy.has_value();
}

Status MemoryQos::run(const framework::StrategyContext& context) {
  const std::shared_ptr<const api::slo::NodeSLO> node_slo = context.states.nodeSLO();
  if (node_slo == nullptr || !node_slo->spec.resourceQOSStrategy.has_value()) {
    last_ = api::Json{{"supported", context.node.cgroup_version == system::CgroupVersion::kV2},
                      {"reason", "the NodeSLO has no resourceQOSStrategy: nothing to do"},
                      {"status", "OK"}};
    return Status::ok();
  }
  if (context.node.cgroup_version != system::CgroupVersion::kV2) {
    supported_.set(0);
    containers_.set(0);
    if (!logged_unsupported_) {
      logger_.warn("memory QoS is not supported on this node", {{"reason", kUnsupportedReason}});
      logged_unsupported_ = true;
    }
    last_ = api::Json{{"supported", false}, {"reason", kUnsupportedReason}, {"status", "OK"}};
    return Status::ok();
  }
  supported_.set(1);

  Result<MemoryQosConfig> config = memoryQosConfigFrom(*node_slo->spec.resourceQOSStrategy);
  if (!config.ok()) {
    last_ = api::Json{{"supported", true}, {"status", config.status().toString()}};
    return config.status();
  }

  int64_t node_allocatable = 0;
  if (const std::shared_ptr<const api::core::Node> node = context.states.node()) {
    node_allocatable = quantity(node->status.allocatable, api::kResourceMemory).value_or(0);
  }

  std::vector<ResourceUpdate> pod_updates;
  std::vector<ResourceUpdate> container_updates;
  api::Json pods_json = api::Json::array();
  api::Json problems = api::Json::array();
  MemoryProtection all;  // the kubepods folder: every pod
  MemoryProtection burstable;
  MemoryProtection besteffort;
  int burstable_pods = 0;
  int besteffort_pods = 0;
  int all_pods = 0;
  int64_t containers = 0;
  bool missing_allocatable = false;

  for (const resourceexecutor::PodCgroup& cgroups : context.pods.pods()) {
    if (cgroups.terminal()) {
      continue;
    }
    const api::core::Pod& pod = *cgroups.pod;
    const std::string who = pod.metadata.namespace_ + "/" + pod.metadata.name;
    const api::QoSClass qos = api::qosClassWithDefault(pod.metadata.labels, pod.status.qosClass);
    const ClassMemoryQos* node_class = config->forClass(qos);
    if (node_class == nullptr) {
      problems.push_back(who + ": no Koordinator QoS class (status.qosClass '" +
                         pod.status.qosClass + "'); left alone");
      continue;
    }
    Result<std::optional<PodMemoryQosOverride>> annotation =
        parsePodMemoryQos(pod.metadata.annotations);
    if (!annotation.ok()) {
      problems.push_back(who + ": " + annotation.status().message() +
                         "; the node's settings apply");
    }
    const PodMemoryQos settings = resolvePodMemoryQos(
        *node_class, qos, annotation.ok() ? *annotation : std::optional<PodMemoryQosOverride>());
    const std::string reason = "memory_qos: " + std::string(api::toString(qos)) + " pod " + who +
                               ", policy " + settings.policy;
    // Raw label, as koordlet's GetPodQoSClassRaw: only labelled BE pods use batch-memory.
    const bool batch = api::qosClassOf(pod.metadata.labels) == api::QoSClass::kBE;

    MemoryProtection pod_sum;
    api::Json containers_json = api::Json::array();
    for (const api::core::Container& container : pod.spec.containers) {
      const auto& requests = container.resources.requests;
      const auto& limits = container.resources.limits;
      const int64_t request =
          batch ? quantity(requests, api::kResourceBatchMemory, api::kDeprecatedResourceBatchMemory)
                      .value_or(0)
                : quantity(requests, api::kResourceMemory).value_or(0);
      const int64_t limit =
          batch ? quantity(limits, api::kResourceBatchMemory, api::kDeprecatedResourceBatchMemory)
                      .value_or(0)
                : quantity(limits, api::kResourceMemory).value_or(0);
      const MemoryQosValues values =
          containerMemoryQos(request, limit, node_allocatable, settings.profile, page_size_);
      pod_sum.add(values.min, values.low);
      if (!values.high.has_value()) {
        missing_allocatable = true;
      }

      bool written = false;
      const resourceexecutor::ContainerCgroup* started = cgroups.container(container.name);
      if (started != nullptr && !started->dir.ok()) {
        problems.push_back(who + ": " + started->dir.status().message());
      } else if (started != nullptr && cgroups.dir.ok()) {
        const std::filesystem::path& dir = *started->dir;
        container_updates.push_back(
            {CgroupResource::kMemoryMin, dir, std::to_string(values.min), reason});
        container_updates.push_back(
            {CgroupResource::kMemoryLow, dir, std::to_string(values.low), reason});
        if (values.high.has_value()) {
          container_updates.push_back(
              {CgroupResource::kMemoryHigh, dir, std::to_string(*values.high), reason});
        }
        written = true;
        ++containers;
      }
      containers_json.push_back(api::Json{{"name", container.name},
                                          {"request", request},
                                          {"limit", limit},
                                          {"min", values.min},
                                          {"low", values.low},
                                          {"high", highJson(values.high)},
                                          {"written", written}});
    }

    if (cgroups.dir.ok()) {
      pod_updates.push_back(
          {CgroupResource::kMemoryMin, *cgroups.dir, std::to_string(pod_sum.min), reason});
      pod_updates.push_back(
          {CgroupResource::kMemoryLow, *cgroups.dir, std::to_string(pod_sum.low), reason});
    } else {
      problems.push_back(who + ": " + cgroups.dir.status().message());
    }
    Result<api::core::QosClass> kube_qos = resourceexecutor::parseKubeQosClass(pod.status.qosClass);
    if (kube_qos.ok()) {
      all.add(pod_sum.min, pod_sum.low);
      ++all_pods;
      if (*kube_qos == api::core::QosClass::kBurstable) {
        burstable.add(pod_sum.min, pod_sum.low);
        ++burstable_pods;
      } else if (*kube_qos == api::core::QosClass::kBestEffort) {
        besteffort.add(pod_sum.min, pod_sum.low);
        ++besteffort_pods;
      }
    }
    api::Json pod_json = profileJson(settings.profile);
    pod_json["pod"] = who;
    pod_json["qos"] = std::string(api::toString(qos));
    pod_json["kube_qos"] = pod.status.qosClass;
    pod_json["policy"] = settings.policy;
    pod_json["min"] = pod_sum.min;
    pod_json["low"] = pod_sum.low;
    pod_json["containers"] = std::move(containers_json);
    pods_json.push_back(std::move(pod_json));
  }
  if (missing_allocatable) {
    problems.push_back(
        "the Node's allocatable memory is not known: memory.high of containers without a limit "
        "is not written");
  }

  // Top-down: QoS folders, then pods, then containers.
  std::vector<ResourceUpdate> updates;
  api::Json qos_json = api::Json::array();
  const struct {
    api::core::QosClass qos;
    const MemoryProtection& sum;
    int pods;
  } levels[] = {{api::core::QosClass::kGuaranteed, all, all_pods},
                {api::core::QosClass::kBurstable, burstable, burstable_pods},
                {api::core::QosClass::kBestEffort, besteffort, besteffort_pods}};
  for (const auto& level : levels) {
    const std::filesystem::path dir = resourceexecutor::qosDir(context.node.naming, level.qos);
    const std::string reason = "memory_qos: sum over " + std::to_string(level.pods) + " pods";
    updates.push_back({CgroupResource::kMemoryMin, dir, std::to_string(level.sum.min), reason});
    updates.push_back({CgroupResource::kMemoryLow, dir, std::to_string(level.sum.low), reason});
    qos_json.push_back(
        api::Json{{"dir", dir.string()}, {"min", level.sum.min}, {"low", level.sum.low}});
  }
  updates.insert(updates.end(), std::make_move_iterator(pod_updates.begin()),
                 std::make_move_iterator(pod_updates.end()));
  updates.insert(updates.end(), std::make_move_iterator(container_updates.begin()),
                 std::make_move_iterator(container_updates.end()));
  const size_t update_count = updates.size();

  Status status = context.executor.updateBatch(std::move(updates));
  if (status.code() == StatusCode::kNotFound) {
    // A pod ended between listing and writing: its folders are gone; the rest was applied.
    problems.push_back("some cgroups vanished mid-write (pods ended): " + status.message());
    status = Status::ok();
  }
  containers_.set(static_cast<double>(containers));

  api::Json classes = api::Json::object();
  for (api::QoSClass qos :
       {api::QoSClass::kLSR, api::QoSClass::kLS, api::QoSClass::kBE, api::QoSClass::kSystem}) {
    const ClassMemoryQos& cls = *config->forClass(qos);
    api::Json entry = profileJson(cls.profile);
    entry["enabled"] = cls.enabled;
    classes[std::string(api::toString(qos))] = std::move(entry);
  }
  last_ = api::Json{{"supported", true},
                    {"node_allocatable_memory", node_allocatable},
                    {"page_size", page_size_},
                    {"classes", std::move(classes)},
                    {"pods", std::move(pods_json)},
                    {"qos_dirs", std::move(qos_json)},
                    {"updates", update_count},
                    {"containers", containers},
                    {"problems", std::move(problems)},
                    {"status", status.toString()}};
  logger_.debug("applied memory QoS",
                {{"updates", update_count}, {"containers", containers}, {"status", status}});
  return status;
}

}  // namespace koord::agent::qosmanager::strategies::memory_qos
