// Label selector and node selector matching with Kubernetes semantics
// (apimachinery labels.Selector, component-helpers nodeaffinity). Pure functions; thread-safe.
//
// Invalid selectors (an unknown operator, In with no values, Gt with a non-integer value, ...) are
// kInvalidArgument naming the offending field ("matchExpressions[1].operator: ...").
#pragma once

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"

namespace koord::api::core {

// metav1.LabelSelectorAsSelector(selector).Matches(labels). An empty selector matches everything.
// Operators: In, NotIn, Exists, DoesNotExist (Gt and Lt are not label selector operators).
[[nodiscard]] Result<bool> matchesLabelSelector(const LabelSelector& selector,
                                                const StringMap& labels);

// Validates a label selector without matching (same errors as matchesLabelSelector).
[[nodiscard]] Status validateLabelSelector(const LabelSelector& selector);

// One node selector term against a node: every matchExpressions entry against the node's labels
// and every matchFields entry against its fields (only "metadata.name"; operators In and NotIn
// with exactly one value) must hold. An empty term matches nothing.
// Label operators: In, NotIn, Exists, DoesNotExist, Gt, Lt (Gt/Lt compare as integers; a label
// that is not an integer does not match).
[[nodiscard]] Result<bool> matchesNodeSelectorTerm(const NodeSelectorTerm& term, const Node& node);

// The terms ORed. Any invalid term is an error, even when another term matches (as
// nodeaffinity.LazyErrorNodeSelector).
[[nodiscard]] Result<bool> matchesNodeSelector(const NodeSelector& selector, const Node& node);

// What the scheduler's NodeAffinity filter checks: spec.nodeSelector (every label equal) and, when
// set, spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.
[[nodiscard]] Result<bool> matchesRequiredNodeAffinity(const Pod& pod, const Node& node);

}  // namespace koord::api::core
