#include "koord/api/extension/coscheduling.hpp"

#include <charconv>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
namespace {

const std::string* find(const std::map<std::string, std::string>& m, std::string_view key) {
  auto it = m.find(std::string(key));
  return it == m.end() ? nullptr : &it->second;
}

Status badValue(std::string_view what, std::string_view key, std::string_view cause) {
  std::string msg = "failed to parse ";
  msg += what;
  msg += " '";
  msg += key;
  msg += "': ";
  msg += cause;
  return Status::invalidArgument(std::move(msg));
}

Result<int32_t> parseInt32(std::string_view what, std::string_view key, const std::string& text) {
  int32_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (!text.empty() && text.front() == '+' && text.size() > 1 && text[1] != '-') {
    ++begin;
  }
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return badValue(what, key, "expected an integer, got \"" + text + "\"");
  }
  return value;
}

}  // namespace

Result<GangSpec> gangSpecOf(const std::map<std::string, std::string>& labels,
                            const std::map<std::string, std::string>& annotations) {
  GangSpec spec;
  spec.name = gangNameOf(labels, annotations);
  const std::string* label_min = find(labels, kLabelLightweightCoschedulingPodGroupMinAvailable);
  if (label_min != nullptr && !label_min->empty()) {
    KOORD_ASSIGN_OR_RETURN(
        spec.minAvailable,
        parseInt32("label", kLabelLightweightCoschedulingPodGroupMinAvailable, *label_min));
  } else if (const std::string* v = find(annotations, kAnnotationGangMinNum); v != nullptr) {
    KOORD_ASSIGN_OR_RETURN(spec.minAvailable, parseInt32("annotation", kAnnotationGangMinNum, *v));
  }
  if (const std::string* v = find(annotations, kAnnotationGangTotalNum); v && !v->empty()) {
    KOORD_ASSIGN_OR_RETURN(spec.totalNumber, parseInt32("annotation", kAnnotationGangTotalNum, *v));
  }
  if (const std::string* v = find(annotations, kAnnotationGangWaitTime); v && !v->empty()) {
    auto parsed = parseDuration(*v);
    if (!parsed.ok()) {
      return badValue("annotation", kAnnotationGangWaitTime, parsed.status().message());
    }
    spec.waitingTime = *v;
  }
  if (const std::string* v = find(annotations, kAnnotationGangMode); v != nullptr) {
    spec.mode = enumFromString<GangMode>(*v).value_or(GangMode::kStrict);
  }
  const std::string* policy = find(annotations, kAnnotationGangMatchPolicy);
  if (policy == nullptr || policy->empty()) {
    policy = find(annotations, kAnnotationAliasGangMatchPolicy);
  }
  if (policy != nullptr) {
    spec.matchPolicy =
        enumFromString<GangMatchPolicy>(*policy).value_or(GangMatchPolicy::kOnceSatisfied);
  }
  if (const std::string* v = find(annotations, kAnnotationGangGroups); v && !v->empty()) {
    KOORD_ASSIGN_OR_RETURN(spec.groups, parseGangGroups(*v));
  }
  return spec;
}

Result<std::vector<std::string>> parseGangGroups(std::string_view value) {
  return parseStringListAnnotation(kAnnotationGangGroups, value);
}

std::string formatGangGroups(const std::vector<std::string>& groups) {
  return formatStringList(groups);
}

}  // namespace koord::api::extension
