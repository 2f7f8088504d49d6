// ObjectStore: the typed listers a plugin reads through Handle::objects(), one per kind
// (kinds.hpp). A plugin declares the kinds it reads in its registry entry
// (extender/plugins/builtin.cpp); `koord-extender serve` starts an informer for exactly the kinds
// its enabled plugins declare and is not ready before they have synced; `koord-extender simulate`
// fills the store from the YAML files. A kind no enabled plugin declared has no lister: lister<T>()
// is nullptr.
//
// Thread safety: set() before the store is shared (at start-up); lister() and kinds() are then
// safe from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/kinds.hpp"
#include "extender/framework/lister.hpp"

namespace koord::extender::framework {

class ObjectStore {
 public:
  // Files `lister` under KindOf<T>::kName, replacing any before it.
  template <class T>
  void set(std::shared_ptr<const Lister<T>> lister) {
    listers_[std::string(KindOf<T>::kName)] = std::shared_ptr<const void>(std::move(lister));
  }
  // The lister of T's kind; nullptr when none was set.
  template <class T>
  [[nodiscard]] const Lister<T>* lister() const {
    auto it = listers_.find(KindOf<T>::kName);
    return it == listers_.end() ? nullptr : static_cast<const Lister<T>*>(it->second.get());
  }
  // The kinds that have a lister, sorted.
  [[nodiscard]] std::vector<std::string> kinds() const {
    std::vector<std::string> names;
    for (const auto& [kind, lister] : listers_)
      names.push_back(kind);
    return names;
  }

 private:
  // Each value is a Lister<T> for the T whose KindOf names its key (set() keeps them paired).
  std::map<std::string, std::shared_ptr<const void>, std::less<>> listers_;
};

}  // namespace koord::extender::framework
