#include "manager/sloconfig/node_selection.hpp"

#include "koord/api/core/selectors.hpp"

namespace koord::manager::sloconfig {

bool selectorMatches(const std::optional<api::core::LabelSelector>& selector,
                     const api::core::StringMap& labels) {
  if (!selector.has_value()) {
    return false;
  }
  const Result<bool> matched = api::core::matchesLabelSelector(*selector, labels);
  return matched.ok() && *matched;
}

void readNodeIdentity(config::FieldReader& reader, const config::Field& item, std::string& name,
                      std::optional<api::core::LabelSelector>& selector) {
  reader.read(item.child("name"), name);
  const config::Field field = item.child("nodeSelector");
  reader.checkObject(field, {"matchLabels", "matchExpressions"});
  reader.read(field, selector);
  if (selector.has_value()) {
    const Status valid = api::core::validateLabelSelector(*selector);
    if (!valid.isOk()) {
      reader.error(field, valid.message());
    }
  }
}

}  // namespace koord::manager::sloconfig
