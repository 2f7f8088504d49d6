// How a node strategy (nodeStrategies[] / nodeConfigs[] entry) names itself and picks its nodes:
// `name` (free text) and `nodeSelector` (a metav1.LabelSelector over the node's labels).
#pragma once

#include <optional>
#include <string>

#include "koord/api/core/meta.hpp"
#include "koord/config/field_reader.hpp"

namespace koord::manager::sloconfig {

// True when `selector` is set and matches `labels` (an empty selector matches every node; an
// absent one, or one that is invalid, matches none, as metav1.LabelSelectorAsSelector(nil)).
[[nodiscard]] bool selectorMatches(const std::optional<api::core::LabelSelector>& selector,
                                   const api::core::StringMap& labels);

// Reads `name` and `nodeSelector` of the entry at `item`; an invalid selector (unknown operator,
// In without values, ...) is an error at the nodeSelector's line.
void readNodeIdentity(config::FieldReader& reader, const config::Field& item, std::string& name,
                      std::optional<api::core::LabelSelector>& selector);

}  // namespace koord::manager::sloconfig
