#include "koord/api/core/taints.hpp"

namespace koord::api::core {

bool tolerates(const Toleration& toleration, const Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) {
    return false;
  }
  if (!toleration.key.empty() && toleration.key != taint.key) {
    return false;
  }
  if (toleration.operator_.empty() || toleration.operator_ == "Equal") {
    return toleration.value == taint.value;
  }
  return toleration.operator_ == "Exists";
}

bool tolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const auto& t : tolerations) {
    if (tolerates(t, taint)) {
      return true;
    }
  }
  return false;
}

std::optional<Taint> findUntoleratedTaint(const std::vector<Taint>& taints,
                                          const std::vector<Toleration>& tolerations,
                                          const std::function<bool(const Taint&)>& include) {
  for (const auto& taint : taints) {
    if (include && !include(taint)) {
      continue;
    }
    if (!tolerationsTolerateTaint(tolerations, taint)) {
      return taint;
    }
  }
  return std::nullopt;
}

std::optional<Taint> findUntoleratedSchedulingTaint(const Pod& pod, const Node& node) {
  return findUntoleratedTaint(node.spec.taints, pod.spec.tolerations, [](const Taint& t) {
    return t.effect == kTaintEffectNoSchedule || t.effect == kTaintEffectNoExecute;
  });
}

std::string taintToString(const Taint& taint) {
  if (taint.value.empty()) {
    return taint.key + ":" + taint.effect;
  }
  return taint.key + "=" + taint.value + ":" + taint.effect;
}

}  // namespace koord::api::core
