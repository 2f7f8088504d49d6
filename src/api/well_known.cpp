#include "koord/api/well_known.hpp"

#include <optional>

#include "koord/api/core/pod_helpers.hpp"

namespace koord::api {
namespace {

std::string_view lookup(const std::map<std::string, std::string>& m, std::string_view key) {
  auto it = m.find(std::string(key));
  return it == m.end() ? std::string_view() : std::string_view(it->second);
}

}  // namespace

std::string_view toString(QoSClass qos) {
  switch (qos) {
    case QoSClass::kLSE:
      return kQoSLSE;
    case QoSClass::kLSR:
      return kQoSLSR;
    case QoSClass::kLS:
      return kQoSLS;
    case QoSClass::kBE:
      return kQoSBE;
    case QoSClass::kSystem:
      return kQoSSystem;
    case QoSClass::kNone:
      break;
  }
  return kQoSNone;
}

std::string_view toString(PriorityClass priority) {
  switch (priority) {
    case PriorityClass::kProd:
      return kPriorityProd;
    case PriorityClass::kMid:
      return kPriorityMid;
    case PriorityClass::kBatch:
      return kPriorityBatch;
    case PriorityClass::kFree:
      return kPriorityFree;
    case PriorityClass::kNone:
      break;
  }
  return kPriorityNone;
}

QoSClass parseQoSClass(std::string_view text) {
  for (QoSClass qos :
       {QoSClass::kLSE, QoSClass::kLSR, QoSClass::kLS, QoSClass::kBE, QoSClass::kSystem}) {
    if (text == toString(qos)) {
      return qos;
    }
  }
  return QoSClass::kNone;
}

PriorityClass parsePriorityClass(std::string_view text) {
  for (PriorityClass priority :
       {PriorityClass::kProd, PriorityClass::kMid, PriorityClass::kBatch, PriorityClass::kFree}) {
    if (text == toString(priority)) {
      return priority;
    }
  }
  return PriorityClass::kNone;
}

QoSClass qosClassOf(const std::map<std::string, std::string>& labels) {
  return parseQoSClass(lookup(labels, kLabelPodQoS));
}

QoSClass qosClassFromKubeQoS(std::string_view kube_qos_class) {
  const std::optional<core::QosClass> kube = core::parseQosClass(kube_qos_class);
  if (!kube) {
    return QoSClass::kNone;
  }
  switch (*kube) {
    case core::QosClass::kGuaranteed:
      return QoSClass::kLSR;
    case core::QosClass::kBurstable:
      return QoSClass::kLS;
    case core::QosClass::kBestEffort:
      return QoSClass::kBE;
  }
  return QoSClass::kNone;
}

QoSClass qosClassWithDefault(const std::map<std::string, std::string>& labels,
                             std::string_view kube_qos_class) {
  const QoSClass qos = qosClassOf(labels);
  return qos != QoSClass::kNone ? qos : qosClassFromKubeQoS(kube_qos_class);
}

PriorityClass priorityClassOfValue(std::optional<int32_t> priority) {
  if (!priority) {
    return PriorityClass::kNone;
  }
  int32_t p = *priority;
  if (p >= kPriorityProdValueMin && p <= kPriorityProdValueMax) {
    return PriorityClass::kProd;
  }
  if (p >= kPriorityMidValueMin && p <= kPriorityMidValueMax) {
    return PriorityClass::kMid;
  }
  if (p >= kPriorityBatchValueMin && p <= kPriorityBatchValueMax) {
    return PriorityClass::kBatch;
  }
  if (p >= kPriorityFreeValueMin && p <= kPriorityFreeValueMax) {
    return PriorityClass::kFree;
  }
  return PriorityClass::kNone;
}

PriorityClass priorityClassOf(std::optional<int32_t> priority,
                              const std::map<std::string, std::string>& labels) {
  std::string_view label = lookup(labels, kLabelPodPriorityClass);
  if (!label.empty()) {
    return parsePriorityClass(label);
  }
  return priorityClassOfValue(priority);
}

std::string translateResourceName(PriorityClass priority, std::string_view name) {
  switch (priority) {
    case PriorityClass::kProd:
    case PriorityClass::kNone:
      return std::string(name);
    case PriorityClass::kBatch:
      if (name == kResourceCPU) {
        return std::string(kResourceBatchCPU);
      }
      if (name == kResourceMemory) {
        return std::string(kResourceBatchMemory);
      }
      return "";
    case PriorityClass::kMid:
      if (name == kResourceCPU) {
        return std::string(kResourceMidCPU);
      }
      if (name == kResourceMemory) {
        return std::string(kResourceMidMemory);
      }
      return "";
    case PriorityClass::kFree:
      // Koordinator's quirk, kept on purpose: no mapping exists for koord-free.
      return "";
  }
  return "";
}

std::string gangNameOf(const std::map<std::string, std::string>& labels,
                       const std::map<std::string, std::string>& annotations) {
  std::string_view name = lookup(labels, kLabelPodGroup);
  if (name.empty()) {
    name = lookup(labels, kLabelLightweightCoschedulingPodGroupName);
  }
  if (name.empty()) {
    name = lookup(annotations, kAnnotationGangName);
  }
  return std::string(name);
}

}  // namespace koord::api
