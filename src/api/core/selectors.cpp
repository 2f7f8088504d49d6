#include "koord/api/core/selectors.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

namespace koord::api::core {

namespace {

enum class Op { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at most 63 characters.
bool isQualifiedNamePart(std::string_view s) {
  if (s.empty() || s.size() > 63 || !isAlnum(s.front()) || !isAlnum(s.back())) {
    return false;
  }
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return isAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// A DNS-1123 subdomain: lower-case labels [a-z0-9]([-a-z0-9]*[a-z0-9])? joined by '.', at most
// 253 characters.
bool isDns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) {
    return false;
  }
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back()) ||
        !std::all_of(label.begin(), label.end(),
                     [&](char c) { return lower_alnum(c) || c == '-'; })) {
      return false;
    }
    if (dot == std::string_view::npos) {
      return true;
    }
    start = dot + 1;
  }
}

// A label key: [prefix/]name, prefix a DNS subdomain.
bool isValidLabelKey(std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    return isQualifiedNamePart(key);
  }
  return isDns1123Subdomain(key.substr(0, slash)) && isQualifiedNamePart(key.substr(slash + 1));
}

bool isValidLabelValue(std::string_view value) {
  return value.empty() || isQualifiedNamePart(value);
}

// Go's strconv.ParseInt(s, 10, 64).
std::optional<int64_t> parseInt64(std::string_view s) {
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') {
      return std::nullopt;
    }
  }
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return v;
}

std::string quoteText(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += '"';
  return out;
}

Status invalid(const std::string& path, std::string_view message) {
  return Status::invalidArgument(path + ": " + std::string(message));
}

// A parsed requirement (labels.Requirement).
struct Requirement {
  std::string_view key;
  Op op;
  const std::vector<std::string>* values;
};

// labels.NewRequirement's checks.
Status validateRequirement(const Requirement& r, const std::string& path) {
  if (!isValidLabelKey(r.key)) {
    return invalid(childPath(path, "key"), quoteText(r.key) + " is not a valid label key");
  }
  const std::string values_path = childPath(path, "values");
  switch (r.op) {
    case Op::kIn:
    case Op::kNotIn:
      if (r.values->empty()) {
        return invalid(values_path, "for 'in', 'notin' operators, values set can't be empty");
      }
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      if (!r.values->empty()) {
        return invalid(values_path, "values set must be empty for exists and does not exist");
      }
      break;
    case Op::kGt:
    case Op::kLt:
      if (r.values->size() != 1) {
        return invalid(values_path, "for 'Gt', 'Lt' operators, exactly one value is required");
      }
      if (!parseInt64((*r.values)[0])) {
        return invalid(indexPath(values_path, 0),
                       "for 'Gt', 'Lt' operators, the value must be an integer");
      }
      break;
  }
  for (size_t i = 0; i < r.values->size(); ++i) {
    if (!isValidLabelValue((*r.values)[i])) {
      return invalid(indexPath(values_path, i),
                     quoteText((*r.values)[i]) + " is not a valid label value");
    }
  }
  return Status::ok();
}

// labels.Requirement.Matches.
bool matches(const Requirement& r, const StringMap& labels) {
  auto it = labels.find(std::string(r.key));
  const bool has = it != labels.end();
  auto contains = [&](const std::string& v) {
    return std::find(r.values->begin(), r.values->end(), v) != r.values->end();
  };
  switch (r.op) {
    case Op::kIn:
      return has && contains(it->second);
    case Op::kNotIn:
      return !has || !contains(it->second);
    case Op::kExists:
      return has;
    case Op::kDoesNotExist:
      return !has;
    case Op::kGt:
    case Op::kLt: {
      if (!has || r.values->size() != 1) {
        return false;
      }
      auto label_value = parseInt64(it->second);
      auto bound = parseInt64((*r.values)[0]);
      if (!label_value || !bound) {
        return false;
      }
      return r.op == Op::kGt ? *label_value > *bound : *label_value < *bound;
    }
  }
  return false;
}

std::optional<Op> parseOp(std::string_view op, bool allow_gt_lt) {
  if (op == "In") {
    return Op::kIn;
  }
  if (op == "NotIn") {
    return Op::kNotIn;
  }
  if (op == "Exists") {
    return Op::kExists;
  }
  if (op == "DoesNotExist") {
    return Op::kDoesNotExist;
  }
  if (allow_gt_lt && op == "Gt") {
    return Op::kGt;
  }
  if (allow_gt_lt && op == "Lt") {
    return Op::kLt;
  }
  return std::nullopt;
}

// Validates every requirement of a label selector and, when `labels` is given, matches them.
Result<bool> evalLabelSelector(const LabelSelector& selector, const StringMap* labels) {
  bool all = true;
  for (const auto& [key, value] : selector.matchLabels) {
    const std::string path = childPath("matchLabels", key);
    if (!isValidLabelKey(key)) {
      return invalid(path, quoteText(key) + " is not a valid label key");
    }
    if (!isValidLabelValue(value)) {
      return invalid(path, quoteText(value) + " is not a valid label value");
    }
    if (labels != nullptr) {
      auto it = labels->find(key);
      all = all && it != labels->end() && it->second == value;
    }
  }
  for (size_t i = 0; i < selector.matchExpressions.size(); ++i) {
    const auto& expr = selector.matchExpressions[i];
    const std::string path = indexPath("matchExpressions", i);
    auto op = parseOp(expr.operator_, /*allow_gt_lt=*/false);
    if (!op) {
      return invalid(childPath(path, "operator"),
                     quoteText(expr.operator_) + " is not a valid label selector operator");
    }
    Requirement r{expr.key, *op, &expr.values};
    KOORD_RETURN_IF_ERROR(validateRequirement(r, path));
    if (labels != nullptr) {
      all = all && matches(r, *labels);
    }
  }
  return all;
}

// Validates and matches one term's label requirements (nodeaffinity's
// NodeSelectorRequirementsAsSelector).
Result<bool> matchNodeLabels(const std::vector<NodeSelectorRequirement>& exprs,
                             const std::string& path, const StringMap& labels) {
  bool all = true;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const auto& expr = exprs[i];
    const std::string item_path = indexPath(path, i);
    auto op = parseOp(expr.operator_, /*allow_gt_lt=*/true);
    if (!op) {
      return invalid(childPath(item_path, "operator"),
                     quoteText(expr.operator_) + " is not a valid node selector operator");
    }
    Requirement r{expr.key, *op, &expr.values};
    KOORD_RETURN_IF_ERROR(validateRequirement(r, item_path));
    all = all && matches(r, labels);
  }
  return all;
}

// Validates and matches one term's field requirements against the node's fields
// (only metadata.name is set, and only when the name is not empty).
Result<bool> matchNodeFields(const std::vector<NodeSelectorRequirement>& exprs,
                             const std::string& path, const Node& node) {
  bool all = true;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const auto& expr = exprs[i];
    const std::string item_path = indexPath(path, i);
    if (expr.values.size() != 1) {
      return invalid(childPath(item_path, "values"), "must have one element");
    }
    const std::string field_value = expr.key == "metadata.name" ? node.metadata.name : "";
    if (expr.operator_ == "In") {
      all = all && field_value == expr.values[0];
    } else if (expr.operator_ == "NotIn") {
      all = all && field_value != expr.values[0];
    } else {
      return invalid(childPath(item_path, "operator"),
                     quoteText(expr.operator_) + " is not a valid selector operator");
    }
  }
  return all;
}

Result<bool> matchTerm(const NodeSelectorTerm& term, const std::string& path, const Node& node) {
  if (term.matchExpressions.empty() && term.matchFields.empty()) {
    return false;
  }
  KOORD_ASSIGN_OR_RETURN(bool labels_match,
                         matchNodeLabels(term.matchExpressions, childPath(path, "matchExpressions"),
                                         node.metadata.labels));
  KOORD_ASSIGN_OR_RETURN(bool fields_match,
                         matchNodeFields(term.matchFields, childPath(path, "matchFields"), node));
  return labels_match && fields_match;
}

}  // namespace

Result<bool> matchesLabelSelector(const LabelSelector& selector, const StringMap& labels) {
  return evalLabelSelector(selector, &labels);
}

Status validateLabelSelector(const LabelSelector& selector) {
  return evalLabelSelector(selector, nullptr).status();
}

Result<bool> matchesNodeSelectorTerm(const NodeSelectorTerm& term, const Node& node) {
  return matchTerm(term, "", node);
}

Result<bool> matchesNodeSelector(const NodeSelector& selector, const Node& node) {
  bool any = false;
  for (size_t i = 0; i < selector.nodeSelectorTerms.size(); ++i) {
    KOORD_ASSIGN_OR_RETURN(bool term_match, matchTerm(selector.nodeSelectorTerms[i],
                                                      indexPath("nodeSelectorTerms", i), node));
    any = any || term_match;
  }
  return any;
}

Result<bool> matchesRequiredNodeAffinity(const Pod& pod, const Node& node) {
  for (const auto& [key, value] : pod.spec.nodeSelector) {
    auto it = node.metadata.labels.find(key);
    if (it == node.metadata.labels.end() || it->second != value) {
      return false;
    }
  }
  if (!pod.spec.affinity || !pod.spec.affinity->nodeAffinity ||
      !pod.spec.affinity->nodeAffinity->required) {
    return true;
  }
  auto matched = matchesNodeSelector(*pod.spec.affinity->nodeAffinity->required, node);
  if (!matched.ok()) {
    return Status::invalidArgument(
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution." +
        matched.status().message());
  }
  return *matched;
}

}  // namespace koord::api::core
