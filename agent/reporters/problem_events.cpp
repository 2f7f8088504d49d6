#include "agent/reporters/problem_events.hpp"

#include <utility>

namespace koord::agent::reporters {

namespace {

std::string keyOf(const ObjectProblem& problem) {
  const api::core::ObjectReference& o = problem.object;
  std::string key;
  for (const std::string* part :
       {&o.kind, &o.namespace_, &o.name, &o.uid, &problem.reason, &problem.message}) {
    key += *part;
    key += '\0';
  }
  return key;
}

}  // namespace

api::core::ObjectReference objectReference(std::string kind, std::string api_version,
                                           const api::core::ObjectMeta& meta) {
  api::core::ObjectReference ref;
  ref.kind = std::move(kind);
  ref.apiVersion = std::move(api_version);
  ref.namespace_ = meta.namespace_;
  ref.name = meta.name;
  ref.uid = meta.uid;
  return ref;
}

size_t ProblemEvents::report(std::string_view source, const std::vector<ObjectProblem>& problems) {
  auto it = last_.find(source);
  if (it == last_.end()) {
    it = last_.emplace(std::string(source), std::set<std::string>{}).first;
  }
  std::set<std::string> now;
  size_t emitted = 0;
  for (const ObjectProblem& problem : problems) {
    std::string key = keyOf(problem);
    if (it->second.count(key) == 0 && now.count(key) == 0) {
      logger_.warn("found a problem in an object; recording an Event",
                   {{"kind", problem.object.kind},
                    {"namespace", problem.object.namespace_},
                    {"name", problem.object.name},
                    {"reason", problem.reason},
                    {"message", problem.message}});
      if (sink_) {
        sink_(problem.object, k8s::EventType::kWarning, problem.reason, problem.message);
      }
      ++emitted;
    }
    now.insert(std::move(key));
  }
  it->second = std::move(now);
  return emitted;
}

}  // namespace koord::agent::reporters
