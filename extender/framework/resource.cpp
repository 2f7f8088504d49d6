#include "extender/framework/resource.hpp"

#include <algorithm>
#include <limits>

namespace koord::extender::framework {
namespace {

constexpr std::string_view kCpu = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr std::string_view kEphemeralStorage = "ephemeral-storage";
constexpr std::string_view kPods = "pods";

int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return out;
}

int64_t saturatingSub(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_sub_overflow(a, b, &out)) {
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return out;
}

int64_t* fixedField(Resource& r, std::string_view name) {
  if (name == kCpu)
    return &r.milli_cpu;
  if (name == kMemory)
    return &r.memory;
  if (name == kEphemeralStorage)
    return &r.ephemeral_storage;
  if (name == kPods)
    return &r.pods;
  return nullptr;
}

// Merges `other` into `scalar` with op (both sorted), dropping zero results.
template <class Op>
void mergeScalar(std::vector<std::pair<std::string, int64_t>>& scalar,
                 const std::vector<std::pair<std::string, int64_t>>& other, Op op) {
  if (other.empty()) {
    return;
  }
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(scalar.size() + other.size());
  auto a = scalar.begin();
  auto b = other.begin();
  while (a != scalar.end() || b != other.end()) {
    if (b == other.end() || (a != scalar.end() && a->first < b->first)) {
      out.push_back(std::move(*a++));
    } else if (a == scalar.end() || b->first < a->first) {
      int64_t v = op(0, b->second);
      if (v != 0)
        out.emplace_back(b->first, v);
      ++b;
    } else {
      int64_t v = op(a->second, b->second);
      if (v != 0)
        out.emplace_back(std::move(a->first), v);
      ++a;
      ++b;
    }
  }
  scalar = std::move(out);
}

}  // namespace

Resource Resource::fromList(const resource::ResourceList& list) {
  Resource r;
  for (const auto& [name, quantity] : list) {
    if (name == kCpu) {
      r.milli_cpu = quantity.milliValue();
    } else if (int64_t* field = fixedField(r, name)) {
      *field = quantity.value();
    } else if (int64_t v = quantity.value(); v != 0) {
      r.scalar.emplace_back(name, v);  // the list is sorted by name already
    }
  }
  return r;
}

resource::ResourceList Resource::toList() const {
  resource::ResourceList out;
  if (milli_cpu != 0) {
    out.emplace(kCpu, resource::Quantity::fromMilli(milli_cpu));
  }
  if (memory != 0) {
    out.emplace(kMemory, resource::Quantity::fromInt(memory, resource::QuantityFormat::kBinarySI));
  }
  if (ephemeral_storage != 0) {
    out.emplace(kEphemeralStorage, resource::Quantity::fromInt(
                                       ephemeral_storage, resource::QuantityFormat::kBinarySI));
  }
  if (pods != 0) {
    out.emplace(kPods, resource::Quantity::fromInt(pods));
  }
  for (const auto& [name, value] : scalar) {
    out.emplace(name, resource::Quantity::fromInt(value));
  }
  return out;
}

int64_t Resource::get(std::string_view name) const {
  if (name == kCpu)
    return milli_cpu;
  if (name == kMemory)
    return memory;
  if (name == kEphemeralStorage)
    return ephemeral_storage;
  if (name == kPods)
    return pods;
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  return it != scalar.end() && it->first == name ? it->second : 0;
}

void Resource::set(std::string_view name, int64_t value) {
  if (int64_t* field = fixedField(*this, name)) {
    *field = value;
    return;
  }
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  const bool found = it != scalar.end() && it->first == name;
  if (value == 0) {
    if (found)
      scalar.erase(it);
  } else if (found) {
    it->second = value;
  } else {
    scalar.emplace(it, std::string(name), value);
  }
}

void Resource::add(const Resource& other) {
  milli_cpu = saturatingAdd(milli_cpu, other.milli_cpu);
  memory = saturatingAdd(memory, other.memory);
  ephemeral_storage = saturatingAdd(ephemeral_storage, other.ephemeral_storage);
  pods = saturatingAdd(pods, other.pods);
  mergeScalar(scalar, other.scalar, saturatingAdd);
}

void Resource::subtract(const Resource& other) {
  milli_cpu = saturatingSub(milli_cpu, other.milli_cpu);
  memory = saturatingSub(memory, other.memory);
  ephemeral_storage = saturatingSub(ephemeral_storage, other.ephemeral_storage);
  pods = saturatingSub(pods, other.pods);
  mergeScalar(scalar, other.scalar, saturatingSub);
}

}  // namespace koord::extender::framework
