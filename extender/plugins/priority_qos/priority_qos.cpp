#include "extender/plugins/priority_qos/priority_qos.hpp"

#include <utility>

#include "extender/plugins/common/args_decoder.hpp"

namespace koord::extender::plugins::priority_qos {

namespace {

using api::PriorityClass;
using api::QoSClass;

bool forbiddenPair(QoSClass qos, PriorityClass band) {
  switch (qos) {
    case QoSClass::kBE:
      return band == PriorityClass::kNone || band == PriorityClass::kProd;
    case QoSClass::kLSR:
    case QoSClass::kLSE:
      return band != PriorityClass::kProd;
    default:
      return false;
  }
}

std::string bandText(PriorityClass band) {
  std::string_view name = api::toString(band);
  return name.empty() ? std::string("none") : std::string(name);
}

std::string milliCpuText(int64_t milli) {
  if (milli % 1000 == 0) {
    return std::to_string(milli / 1000);
  }
  return std::to_string(milli) + "m";
}

}  // namespace

Result<Args> decodeArgs(const api::Json& args) {
  Args out;
  common::ArgsDecoder decoder(args, std::string(kName));
  decoder.optionalBool("requireIntegerCPU", out.require_integer_cpu);
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

std::optional<std::string> rejection(const Args& args, const framework::PodInfo& pod) {
  const std::string qos(api::toString(pod.qos));
  if (forbiddenPair(pod.qos, pod.band)) {
    return "pod with QoS class " + qos + " cannot use priority class " + bandText(pod.band) +
           " (priority " + std::to_string(pod.priority) + ")";
  }
  const bool latency_sensitive = pod.qos == QoSClass::kLSR || pod.qos == QoSClass::kLSE;
  if (args.require_integer_cpu && latency_sensitive && pod.requests.milli_cpu % 1000 != 0) {
    return "pod with QoS class " + qos + " must request whole CPUs, got cpu " +
           milliCpuText(pod.requests.milli_cpu);
  }
  return std::nullopt;
}

framework::PluginStatus PriorityQoSPlugin::preFilter(framework::CycleState& /*state*/,
                                                     const framework::PodInfo& pod) const {
  if (auto reason = rejection(args_, pod)) {
    return framework::PluginStatus::unresolvable(std::move(*reason));
  }
  return framework::PluginStatus::skip();
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& /*handle*/) {
  KOORD_ASSIGN_OR_RETURN(Args decoded, decodeArgs(args));
  return std::unique_ptr<framework::Plugin>(std::make_unique<PriorityQoSPlugin>(decoded));
}

}  // namespace koord::extender::plugins::priority_qos
