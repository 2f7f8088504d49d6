#include "agent/qosmanager/strategies/memory_qos/memory_qos_config.hpp"

#include "koord/api/codec.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {

namespace {

constexpr std::string_view kAnnotationPrefix = "annotation koordinator.sh/memoryQOS: ";

// Empty when `value` (if present) is a percentage, else why not, naming `field`.
std::string percentProblem(const std::optional<int64_t>& value, const std::string& field) {
  if (!value.has_value() || (*value >= 0 && *value <= 100)) {
    return {};
  }
  return field + " is " + std::to_string(*value) + ": must be 0..100";
}

std::string firstPercentProblem(const api::slo::MemoryQOSCfg& cfg, const std::string& path) {
  for (const auto& [value, name] : {std::pair{&cfg.minLimitPercent, "minLimitPercent"},
                                    std::pair{&cfg.lowLimitPercent, "lowLimitPercent"},
                                    std::pair{&cfg.throttlingPercent, "throttlingPercent"}}) {
    std::string problem = percentProblem(*value, path.empty() ? name : path + "." + name);
    if (!problem.empty()) {
      return problem;
    }
  }
  return {};
}

MemoryQosProfile overlay(MemoryQosProfile base, const std::optional<int64_t>& min,
                         const std::optional<int64_t>& low,
                         const std::optional<int64_t>& throttling) {
  base.min_limit_percent = min.value_or(base.min_limit_percent);
  base.low_limit_percent = low.value_or(base.low_limit_percent);
  base.throttling_percent = throttling.value_or(base.throttling_percent);
  return base;
}

}  // namespace

MemoryQosProfile defaultMemoryQosProfile(api::QoSClass /*qos*/) {
  // DefaultMemoryQOS (pkg/util/sloconfig/nodeslo_config.go): "all abilities of memcg qos are
  // disabled, including MinLimitPercent, LowLimitPercent, ThrottlingPercent" for LSR, LS and BE;
  // reference 5.1 lists the same zeros for SYSTEM.
  return MemoryQosProfile{0, 0, 0};
}

MemoryQosProfile noneMemoryQosProfile() {
  return MemoryQosProfile{0, 0, 0};
}

const ClassMemoryQos* MemoryQosConfig::forClass(api::QoSClass qos) const {
  switch (qos) {
    case api::QoSClass::kLSE:
    case api::QoSClass::kLSR:
      return &lsr;
    case api::QoSClass::kLS:
      return &ls;
    case api::QoSClass::kBE:
      return &be;
    case api::QoSClass::kSystem:
      return &system;
    case api::QoSClass::kNone:
      break;
  }
  return nullptr;
}

Result<MemoryQosConfig> memoryQosConfigFrom(const api::slo::ResourceQOSStrategy& strategy) {
  MemoryQosConfig out;
  const struct {
    const std::optional<api::slo::ResourceQOS>& cfg;
    const char* name;
    api::QoSClass qos;
    ClassMemoryQos* target;
  } classes[] = {
      {strategy.lsrClass, "lsrClass", api::QoSClass::kLSR, &out.lsr},
      {strategy.lsClass, "lsClass", api::QoSClass::kLS, &out.ls},
      {strategy.beClass, "beClass", api::QoSClass::kBE, &out.be},
      {strategy.systemClass, "systemClass", api::QoSClass::kSystem, &out.system},
  };
  for (const auto& entry : classes) {
    ClassMemoryQos& target = *entry.target;
    target.enabled = false;
    target.profile = noneMemoryQosProfile();
    if (!entry.cfg.has_value() || !entry.cfg->memoryQOS.has_value()) {
      continue;  // the default: enable false
    }
    const api::slo::MemoryQOSCfg& cfg = *entry.cfg->memoryQOS;
    const std::string problem =
        firstPercentProblem(cfg, std::string("resourceQOSStrategy.") + entry.name + ".memoryQOS");
    if (!problem.empty()) {
      return Status::invalidArgument("invalid memory QoS config: " + problem);
    }
    if (cfg.enable.value_or(false)) {
      target.enabled = true;
      target.profile = overlay(defaultMemoryQosProfile(entry.qos), cfg.minLimitPercent,
                               cfg.lowLimitPercent, cfg.throttlingPercent);
    }
  }
  return out;
}

std::string_view podMemoryQosPolicyName(PodMemoryQosPolicy policy) {
  switch (policy) {
    case PodMemoryQosPolicy::kAuto:
      return "auto";
    case PodMemoryQosPolicy::kNone:
      return "none";
    case PodMemoryQosPolicy::kDefault:
      break;
  }
  return "default";
}

Result<std::optional<PodMemoryQosOverride>> parsePodMemoryQos(
    const std::map<std::string, std::string>& annotations) {
  const auto it = annotations.find(std::string(api::kAnnotationMemoryQOS));
  if (it == annotations.end()) {
    return std::optional<PodMemoryQosOverride>();
  }
  const std::string prefix(kAnnotationPrefix);
  Result<api::Json> parsed = api::parseJson(it->second);
  if (!parsed.ok()) {
    return Status::invalidArgument(prefix + parsed.status().message());
  }
  if (!parsed->is_object()) {
    return Status::invalidArgument(prefix + "expected a JSON object");
  }
  PodMemoryQosOverride out;
  api::Json fields = *parsed;
  if (fields.contains("policy")) {
    const api::Json& policy = fields["policy"];
    if (!policy.is_string() && !policy.is_null()) {
      return Status::invalidArgument(prefix + "policy: expected a string");
    }
    const std::string name = policy.is_string() ? policy.get<std::string>() : "";
    if (name == "auto") {
      out.policy = PodMemoryQosPolicy::kAuto;
    } else if (name == "none") {
      out.policy = PodMemoryQosPolicy::kNone;
    } else if (name == "default" || name.empty()) {
      out.policy = PodMemoryQosPolicy::kDefault;
    } else {
      return Status::invalidArgument(prefix + "unknown policy '" + name +
                                     "': expected auto, default or none");
    }
    fields.erase("policy");
  }
  api::slo::MemoryQOSCfg cfg;
  if (Status status = api::slo::fromJson(fields, cfg, ""); !status.isOk()) {
    return Status::invalidArgument(prefix + status.message());
  }
  if (const std::string problem = firstPercentProblem(cfg, ""); !problem.empty()) {
    return Status::invalidArgument(prefix + problem);
  }
  out.min_limit_percent = cfg.minLimitPercent;
  out.low_limit_percent = cfg.lowLimitPercent;
  out.throttling_percent = cfg.throttlingPercent;
  return std::optional<PodMemoryQosOverride>(out);
}

PodMemoryQos resolvePodMemoryQos(const ClassMemoryQos& node_class, api::QoSClass qos,
                                 const std::optional<PodMemoryQosOverride>& pod) {
  if (!pod.has_value()) {
    return PodMemoryQos{"node", node_class.profile};
  }
  MemoryQosProfile base = node_class.profile;
  switch (pod->policy) {
    case PodMemoryQosPolicy::kNone:
      // koordlet returns at once: the pod's fields are not merged.
      return PodMemoryQos{"none", noneMemoryQosProfile()};
    case PodMemoryQosPolicy::kAuto:
      base = defaultMemoryQosProfile(qos);
      break;
    case PodMemoryQosPolicy::kDefault:
      break;
  }
  return PodMemoryQos{
      std::string(podMemoryQosPolicyName(pod->policy)),
      overlay(base, pod->min_limit_percent, pod->low_limit_percent, pod->throttling_percent)};
}

}  // namespace koord::agent::qosmanager::strategies::memory_qos
