#include "extender/plugins/kube/prioritize.hpp"

#include "extender/framework/extender_score.hpp"
#include "koord/api/extender/types.hpp"

namespace koord::extender::plugins::kube {

std::vector<NodeScore> prioritize(
    const framework::PodInfo& pod,
    const std::vector<std::shared_ptr<const framework::NodeInfo>>& nodes,
    const framework::Runtime& runtime, int64_t extender_weight, const AlsoUsed& also_used) {
  constexpr int64_t kScale = 100 / api::extender::kMaxExtenderPriority;
  const std::vector<DefaultScore> kube = defaultScores(pod, nodes, also_used);
  std::vector<int64_t> extender(nodes.size(), 0);
  if (runtime.scores())
    extender = runtime.score(pod, nodes);
  std::vector<NodeScore> scores(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    scores[i].kube = kube[i];
    scores[i].extender = i < extender.size() ? framework::toExtenderScore(extender[i]) : 0;
    scores[i].total = kube[i].total + scores[i].extender * extender_weight * kScale;
  }
  return scores;
}

size_t bestNode(const std::vector<NodeScore>& scores) {
  size_t best = 0;
  for (size_t i = 1; i < scores.size(); ++i) {
    if (scores[i].total > scores[best].total)
      best = i;
  }
  return best;
}

}  // namespace koord::extender::plugins::kube
