#include "extender/plugins/kube/default_scores.hpp"

#include <cmath>
#include <vector>

#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"

namespace koord::extender::plugins::kube {

namespace {

constexpr int64_t kMaxNodeScore = 100;

// leastRequestedScore: the unused share of capacity, 0..100; 0 past capacity.
int64_t leastRequested(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity)
    return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}

// balancedResourceScore: (1 - standard deviation of the fractions) * 100, fractions capped at 1;
// resources the node does not allocate are left out.
int64_t balancedResource(const int64_t (&requested)[2], const int64_t (&allocatable)[2]) {
  std::vector<double> fractions;
  for (size_t i = 0; i < 2; ++i) {
    if (allocatable[i] == 0)
      continue;
    double fraction = static_cast<double>(requested[i]) / static_cast<double>(allocatable[i]);
    fractions.push_back(fraction > 1 ? 1 : fraction);
  }
  const double deviation = fractions.size() == 2 ? std::abs((fractions[0] - fractions[1]) / 2) : 0;
  return static_cast<int64_t>((1 - deviation) * static_cast<double>(kMaxNodeScore));
}

// helper.DefaultNormalizeScore: scales to 0..100 by the highest score (reversed: 100 - that);
// when every score is 0, reversed scores become 100 and plain ones stay 0.
void normalize(std::vector<int64_t>& scores, bool reverse) {
  int64_t max_count = 0;
  for (int64_t score : scores)
    max_count = std::max(max_count, score);
  if (max_count == 0) {
    if (reverse) {
      for (int64_t& score : scores)
        score = kMaxNodeScore;
    }
    return;
  }
  for (int64_t& score : scores) {
    score = kMaxNodeScore * score / max_count;
    if (reverse)
      score = kMaxNodeScore - score;
  }
}

// The PreferNoSchedule taints of `node` that the pod's tolerations (those with an empty effect or
// PreferNoSchedule) do not tolerate.
int64_t intolerablePreferNoSchedule(const std::vector<api::core::Toleration>& tolerations,
                                    const api::core::Node& node) {
  int64_t count = 0;
  for (const auto& taint : node.spec.taints) {
    if (taint.effect != api::core::kTaintEffectPreferNoSchedule)
      continue;
    if (!api::core::tolerationsTolerateTaint(tolerations, taint))
      ++count;
  }
  return count;
}

// The preferred node affinity terms that count: weight > 0 and not empty.
std::vector<const api::core::PreferredSchedulingTerm*> preferredTerms(const api::core::Pod& pod) {
  std::vector<const api::core::PreferredSchedulingTerm*> terms;
  if (!pod.spec.affinity || !pod.spec.affinity->nodeAffinity)
    return terms;
  for (const auto& term : pod.spec.affinity->nodeAffinity->preferred) {
    if (term.weight == 0 ||
        (term.preference.matchExpressions.empty() && term.preference.matchFields.empty()))
      continue;
    terms.push_back(&term);
  }
  return terms;
}

}  // namespace

int64_t leastAllocatedScore(const framework::PodInfo& pod, const framework::NodeInfo& node,
                            const framework::Resource& also_used) {
  const framework::NonZeroRequests& pods = node.nonZeroRequested();
  const int64_t allocatable[2] = {node.allocatable().milli_cpu, node.allocatable().memory};
  const int64_t requested[2] = {pods.milli_cpu + also_used.milli_cpu + pod.non_zero.milli_cpu,
                                pods.memory + also_used.memory + pod.non_zero.memory};
  int64_t sum = 0;
  int64_t weights = 0;
  for (size_t i = 0; i < 2; ++i) {
    if (allocatable[i] == 0)
      continue;
    sum += leastRequested(requested[i], allocatable[i]);
    ++weights;
  }
  return weights == 0 ? 0 : sum / weights;
}

int64_t balancedAllocationScore(const framework::PodInfo& pod, const framework::NodeInfo& node,
                                const framework::Resource& also_used) {
  if (pod.requests.milli_cpu == 0 && pod.requests.memory == 0)
    return 0;
  const int64_t allocatable[2] = {node.allocatable().milli_cpu, node.allocatable().memory};
  const int64_t node_cpu = node.requested().milli_cpu + also_used.milli_cpu;
  const int64_t node_memory = node.requested().memory + also_used.memory;
  const int64_t allocated[2] = {allocatable[0] == 0 ? 0 : node_cpu,
                                allocatable[1] == 0 ? 0 : node_memory};
  const int64_t requested[2] = {allocatable[0] == 0 ? 0 : allocated[0] + pod.requests.milli_cpu,
                                allocatable[1] == 0 ? 0 : allocated[1] + pod.requests.memory};
  const int64_t with_pod = balancedResource(requested, allocatable);
  const int64_t without_pod = balancedResource(allocated, allocatable);
  return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with_pod - without_pod) / 2;
}

std::vector<DefaultScore> defaultScores(
    const framework::PodInfo& pod,
    const std::vector<std::shared_ptr<const framework::NodeInfo>>& nodes,
    const AlsoUsed& also_used) {
  const api::core::Pod& spec = *pod.pod;
  std::vector<api::core::Toleration> prefer_no_schedule;
  for (const auto& toleration : spec.spec.tolerations) {
    if (toleration.effect.empty() || toleration.effect == api::core::kTaintEffectPreferNoSchedule)
      prefer_no_schedule.push_back(toleration);
  }
  const std::vector<const api::core::PreferredSchedulingTerm*> terms = preferredTerms(spec);
  const bool balanced = pod.requests.milli_cpu != 0 || pod.requests.memory != 0;

  std::vector<int64_t> taints(nodes.size());
  std::vector<int64_t> affinity(nodes.size());
  std::vector<DefaultScore> scores(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const framework::NodeInfo& node = *nodes[i];
    taints[i] = intolerablePreferNoSchedule(prefer_no_schedule, node.node());
    for (const auto* term : terms) {
      auto matches = api::core::matchesNodeSelectorTerm(term->preference, node.node());
      if (matches.ok() && *matches)
        affinity[i] += term->weight;
    }
    const framework::Resource extra = also_used ? also_used(node) : framework::Resource{};
    scores[i].node_resources_fit = leastAllocatedScore(pod, node, extra);
    scores[i].balanced_allocation = balanced ? balancedAllocationScore(pod, node, extra) : 0;
  }
  normalize(taints, /*reverse=*/true);
  normalize(affinity, /*reverse=*/false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    DefaultScore& s = scores[i];
    s.taint_toleration = taints[i];
    s.node_affinity = affinity[i];
    s.total = kTaintTolerationWeight * s.taint_toleration + kNodeAffinityWeight * s.node_affinity +
              kNodeResourcesFitWeight * s.node_resources_fit +
              kBalancedAllocationWeight * s.balanced_allocation;
  }
  return scores;
}

}  // namespace koord::extender::plugins::kube
