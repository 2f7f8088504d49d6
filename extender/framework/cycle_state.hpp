// CycleState: what one verb call (filter, prioritize, bind) shares between its plugins: a
// plugin's preFilter computes something once per pod and its filter/score read it per node.
// Keys are prefixed with the plugin's kName by convention ("NodeReservation/state").
//
// Thread safety: write() only from the sequential phases (preFilter, reserve, preBind); read()
// from any thread once the parallel phase (filter, score) has started. Nothing outlives the call.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace koord::extender::framework {

class StateData {
 public:
  virtual ~StateData() = default;
};

class CycleState {
 public:
  void write(std::string key, std::unique_ptr<StateData> data) {
    data_[std::move(key)] = std::move(data);
  }
  // The value stored under `key` as T; nullptr when absent or of another type.
  template <class T>
  [[nodiscard]] const T* read(const std::string& key) const {
    auto it = data_.find(key);
    return it == data_.end() ? nullptr : dynamic_cast<const T*>(it->second.get());
  }
  template <class T>
  [[nodiscard]] T* mutableRead(const std::string& key) {
    auto it = data_.find(key);
    return it == data_.end() ? nullptr : dynamic_cast<T*>(it->second.get());
  }

 private:
  std::map<std::string, std::unique_ptr<StateData>, std::less<>> data_;
};

}  // namespace koord::extender::framework
