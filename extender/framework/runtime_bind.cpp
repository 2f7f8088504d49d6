#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "extender/framework/runtime.hpp"
#include "extender/framework/runtime_internal.hpp"

namespace koord::extender::framework {
namespace {

constexpr std::string_view kBinderName = "binder";

bool sameVictim(const PodInfo& a, const PodInfo& b) {
  return a.key == b.key && a.uid == b.uid;
}

}  // namespace

PluginStatus Runtime::bind(const PodInfo& pod, const NodeInfo& node, Binder& binder) {
  const auto verb_start = Impl::SteadyClock::now();
  PluginStatus status = runBind(pod, node, binder, verb_start + impl_->bind_timeout);
  impl_->verb_bind.observe(secondsSince(verb_start));
  return status;
}

PluginStatus Runtime::runBind(const PodInfo& pod, const NodeInfo& node, Binder& binder,
                              BindDeadline deadline) {
  const Impl& impl = *impl_;
  CycleState state;
  std::vector<char> skipped;
  if (PluginStatus pre = impl.runPreFilter(state, pod, skipped); !pre.isSuccess()) {
    return pre;
  }
  if (PluginStatus fit = impl.runFilters(state, pod, node, skipped); !fit.isSuccess()) {
    return fit;
  }
  const std::string& node_name = node.name();
  // Every reserve plugin is unreserved, in reverse order, even when one of them throws: unreserve
  // is idempotent and may be called without reserve.
  auto unreserveAll = [&] {
    for (auto it = impl.reserve.rbegin(); it != impl.reserve.rend(); ++it) {
      const auto start = Impl::SteadyClock::now();
      (void)guardedCall(*it->name, "unreserve", [&] {
        it->plugin->unreserve(state, pod, node_name);
        return PluginStatus::success();
      });
      it->second_duration.observe(secondsSince(start));
    }
  };
  auto fail = [&](PluginStatus failure) {
    unreserveAll();
    return failure;
  };

  for (const auto& entry : impl.reserve) {
    const auto start = Impl::SteadyClock::now();
    PluginStatus status = guardedCall(*entry.name, "reserve",
                                      [&] { return entry.plugin->reserve(state, pod, node); });
    entry.duration.observe(secondsSince(start));
    if (!status.isSuccess() && !status.isSkip()) {
      return fail(std::move(status.withPlugin(*entry.name)));
    }
  }

  setWaitingPods(state, &waiting_pods_);
  std::set<std::string> pending;
  std::chrono::milliseconds wait = impl.max_permit_wait;
  for (const auto& entry : impl.permit) {
    std::chrono::milliseconds timeout = impl.max_permit_wait;
    const auto start = Impl::SteadyClock::now();
    PluginStatus status = guardedCall(*entry.name, "permit", [&] {
      return entry.plugin->permit(state, pod, node_name, timeout);
    });
    entry.duration.observe(secondsSince(start));
    if (status.code() == Code::kWait) {
      pending.insert(*entry.name);
      wait =
          std::min(wait, std::clamp(timeout, std::chrono::milliseconds(0), impl.max_permit_wait));
    } else if (!status.isSuccess() && !status.isSkip()) {
      return fail(std::move(status.withPlugin(*entry.name)));
    }
  }
  if (!pending.empty()) {
    if (!waiting_pods_.add(std::make_shared<PodInfo>(pod), pending)) {
      return fail(PluginStatus::error("failed to wait on permit for pod '" + pod.key +
                                      "': a bind of the same pod already waits"));
    }
    const Clock& clock = impl.handle->clock();
    const auto permit_deadline = clock.now() + wait;
    WaitingPods::Entry outcome = waiting_pods_.waitAndRemove(
        pod.key, [&](std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                     const std::function<bool()>& pred) {
          return clock.waitUntil(lock, cv, permit_deadline, pred);
        });
    if (outcome.rejected) {
      return fail(PluginStatus::unschedulable(outcome.reject_reason)
                      .withPlugin(std::move(outcome.reject_plugin)));
    }
    if (!outcome.pending.empty()) {
      const std::string& plugin = *outcome.pending.begin();
      return fail(PluginStatus::unschedulable("rejected due to timeout after waiting " +
                                              std::to_string(wait.count()) + "ms at plugin " +
                                              plugin)
                      .withPlugin(plugin));
    }
  }

  BindPatch patch;
  for (const auto& entry : impl.pre_bind) {
    const auto start = Impl::SteadyClock::now();
    PluginStatus status = guardedCall(
        *entry.name, "preBind", [&] { return entry.plugin->preBind(state, pod, node, patch); });
    entry.duration.observe(secondsSince(start));
    if (!status.isSuccess() && !status.isSkip()) {
      return fail(std::move(status.withPlugin(*entry.name)));
    }
  }
  if (!patch.empty()) {
    if (Status s = binder.patchPod(pod, patch, deadline); !s.isOk()) {
      return fail(PluginStatus::error("patching the pod: " + s.message())
                      .withPlugin(std::string(kBinderName)));
    }
  }
  if (Status s = binder.bindPod(pod, node_name, deadline); !s.isOk()) {
    return fail(PluginStatus::error(s.message()).withPlugin(std::string(kBinderName)));
  }
  return PluginStatus::success();
}

std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>> Runtime::preempt(
    const PodInfo& preemptor,
    const std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>>& candidates) const {
  const auto verb_start = Impl::SteadyClock::now();
  const Impl& impl = *impl_;
  std::map<std::string, std::vector<std::shared_ptr<const PodInfo>>> result;
  CycleState state;
  std::vector<char> skipped;
  // Only for the state the PreemptPlugins read: a rejection is what preemption is asked to fix.
  (void)impl.runPreFilter(state, preemptor, skipped);
  const ClusterView& cluster = impl.handle->cluster();
  for (const auto& [name, victims] : candidates) {
    auto node = cluster.nodeInfo(name);
    if (node == nullptr)
      continue;
    std::vector<std::shared_ptr<const PodInfo>> current = victims;
    bool keep = true;
    for (const auto& entry : impl.preempt) {
      auto proposed = current;
      const auto start = Impl::SteadyClock::now();
      PluginStatus status = entry.plugin->selectVictims(state, preemptor, *node, proposed);
      entry.duration.observe(secondsSince(start));
      if (!status.isSuccess() && !status.isSkip()) {
        keep = false;
        break;
      }
      std::vector<std::shared_ptr<const PodInfo>> allowed;
      for (auto& victim : proposed) {
        const bool given =
            victim != nullptr && std::any_of(victims.begin(), victims.end(), [&](const auto& v) {
              return v != nullptr && sameVictim(*v, *victim);
            });
        const bool duplicate =
            given && std::any_of(allowed.begin(), allowed.end(),
                                 [&](const auto& v) { return sameVictim(*v, *victim); });
        if (given && !duplicate)
          allowed.push_back(std::move(victim));
      }
      current = std::move(allowed);
    }
    if (!keep || (current.empty() && !victims.empty()))
      continue;
    result.emplace(name, std::move(current));
  }
  impl.verb_preempt.observe(secondsSince(verb_start));
  return result;
}

}  // namespace koord::extender::framework
