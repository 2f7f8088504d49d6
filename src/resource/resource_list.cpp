// ResourceList arithmetic: missing keys count as zero.
#include "koord/resource/resource_list.hpp"

#include <algorithm>

namespace koord::resource {

namespace {

// Calls fn(name, a_or_zero, b_or_zero) for every key of a and b, in key order.
template <typename Fn>
Status forEachUnion(const ResourceList& a, const ResourceList& b, Fn fn) {
  const Quantity zero;
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
      KOORD_RETURN_IF_ERROR(fn(ia->first, ia->second, zero));
      ++ia;
    } else if (ia == a.end() || ib->first < ia->first) {
      KOORD_RETURN_IF_ERROR(fn(ib->first, zero, ib->second));
      ++ib;
    } else {
      KOORD_RETURN_IF_ERROR(fn(ia->first, ia->second, ib->second));
      ++ia;
      ++ib;
    }
  }
  return Status::ok();
}

bool fitsOne(const Quantity& request, const ResourceList& available, std::string_view name) {
  // As kube-scheduler's fit check: only a positive request can fail to fit.
  return request.sign() <= 0 || request <= get(available, name);
}

}  // namespace

Result<ResourceList> add(const ResourceList& a, const ResourceList& b) {
  ResourceList out;
  Status status =
      forEachUnion(a, b, [&](const std::string& name, const Quantity& x, const Quantity& y) {
        Result<Quantity> sum = x.add(y);
        if (!sum.ok()) {
          return sum.status().withPrefix("failed to add resource '" + name + "'");
        }
        out.emplace_hint(out.end(), name, *sum);
        return Status::ok();
      });
  if (!status.isOk()) {
    return status;
  }
  return out;
}

Result<ResourceList> subtract(const ResourceList& a, const ResourceList& b) {
  ResourceList out;
  Status status =
      forEachUnion(a, b, [&](const std::string& name, const Quantity& x, const Quantity& y) {
        Result<Quantity> difference = x.sub(y);
        if (!difference.ok()) {
          return difference.status().withPrefix("failed to subtract resource '" + name + "'");
        }
        out.emplace_hint(out.end(), name, *difference);
        return Status::ok();
      });
  if (!status.isOk()) {
    return status;
  }
  return out;
}

ResourceList max(const ResourceList& a, const ResourceList& b) {
  ResourceList out;
  (void)forEachUnion(a, b, [&](const std::string& name, const Quantity& x, const Quantity& y) {
    out.emplace_hint(out.end(), name, x < y ? y : x);
    return Status::ok();
  });
  return out;
}

bool fits(const ResourceList& request, const ResourceList& available) {
  return std::all_of(request.begin(), request.end(), [&](const auto& entry) {
    return fitsOne(entry.second, available, entry.first);
  });
}

std::vector<std::string> insufficient(const ResourceList& request, const ResourceList& available) {
  std::vector<std::string> names;
  for (const auto& [name, quantity] : request) {
    if (!fitsOne(quantity, available, name)) {
      names.push_back(name);
    }
  }
  return names;
}

Quantity get(const ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  return it == list.end() ? Quantity() : it->second;
}

bool isZero(const ResourceList& list) {
  return std::all_of(list.begin(), list.end(),
                     [](const auto& entry) { return entry.second.isZero(); });
}

ResourceList filter(const ResourceList& list, const std::vector<std::string>& names) {
  ResourceList out;
  for (const std::string& name : names) {
    auto it = list.find(name);
    if (it != list.end()) {
      out.insert(*it);
    }
  }
  return out;
}

}  // namespace koord::resource
