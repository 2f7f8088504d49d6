#include "koord/api/json_prune.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace koord::api {
namespace {

constexpr std::string_view kAnyElement = "[]";

constexpr std::array<std::string_view, 2> kObjectManagedFields = {"metadata", "managedFields"};
constexpr std::array<std::string_view, 4> kListItemManagedFields = {"items", kAnyElement,
                                                                    "metadata", "managedFields"};
constexpr std::array<std::string_view, 3> kEventManagedFields = {"object", "metadata",
                                                                 "managedFields"};
constexpr std::array<JsonPrunePath, 2> kObjectOrList = {JsonPrunePath(kObjectManagedFields),
                                                        JsonPrunePath(kListItemManagedFields)};
constexpr std::array<JsonPrunePath, 1> kWatchEvent = {JsonPrunePath(kEventManagedFields)};

// nlohmann's SAX interface, building the same tree as its DOM parser except for the pruned
// members. Invariant: `stack_` holds the open containers outermost first (the root first), and
// `segments_[i]` names how `stack_[i + 1]` was reached: its key, or "[]" for an array element.
// The views point at keys inside the tree (std::map nodes do not move) or at kAnyElement.
class PruningSax {
 public:
  explicit PruningSax(std::span<const JsonPrunePath> prune) : prune_(prune) {}

  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  Json root;
  Status status;

  // The member names are nlohmann's SAX interface.
  // NOLINTBEGIN(readability-identifier-naming)
  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool v) { return scalar(Json(v)); }
  bool number_integer(number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(number_float_t v, const string_t& /*text*/) { return scalar(Json(v)); }
  bool string(string_t& v) { return scalar(Json(std::move(v))); }
  bool binary(binary_t& v) { return scalar(Json::binary(std::move(v))); }
  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    if (skip_depth_ == 0) {
      if (pruned(k)) {
        skip_next_ = true;
      } else {
        pending_key_ = std::move(k);
      }
    }
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) {
    status = Status::invalidArgument(std::string("failed to parse JSON: ") + e.what());
    return false;
  }
  // NOLINTEND(readability-identifier-naming)

 private:
  // Whether member `k` of the innermost open object is at one of the pruned paths.
  [[nodiscard]] bool pruned(std::string_view k) const {
    const std::size_t depth = segments_.size();
    for (const JsonPrunePath& path : prune_) {
      if (path.size() != depth + 1 || path.back() != k) {
        continue;
      }
      bool match = true;
      for (std::size_t i = 0; i < depth && match; ++i) {
        match = path[i] == segments_[i];
      }
      if (match) {
        return true;
      }
    }
    return false;
  }

  bool scalar(Json value) {
    if (skip_depth_ > 0) {
      return true;
    }
    if (skip_next_) {
      skip_next_ = false;
      return true;
    }
    place(std::move(value));
    return true;
  }

  bool open(Json container) {
    if (skip_depth_ > 0 || skip_next_) {
      skip_next_ = false;
      ++skip_depth_;
      return true;
    }
    std::string_view segment;
    Json* placed = place(std::move(container), &segment);
    if (!stack_.empty()) {
      segments_.push_back(segment);
    }
    stack_.push_back(placed);
    return true;
  }

  bool close() {
    if (skip_depth_ > 0) {
      --skip_depth_;
      return true;
    }
    stack_.pop_back();
    if (!segments_.empty()) {
      segments_.pop_back();
    }
    return true;
  }

  // Puts `value` where the parse is: the root, the next element of an array, or the member named
  // by the pending key. Returns where it went, and in `segment` how it is reached from its parent.
  Json* place(Json value, std::string_view* segment = nullptr) {
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      if (segment != nullptr) {
        *segment = kAnyElement;
      }
      return &parent.back();
    }
    auto& members = parent.get_ref<Json::object_t&>();
    auto [it, inserted] = members.insert_or_assign(std::move(pending_key_), std::move(value));
    (void)inserted;
    if (segment != nullptr) {
      *segment = it->first;
    }
    return &it->second;
  }

  std::span<const JsonPrunePath> prune_;
  std::vector<Json*> stack_;
  std::vector<std::string_view> segments_;
  std::string pending_key_;
  std::size_t skip_depth_ = 0;  // > 0 inside a pruned container
  bool skip_next_ = false;      // the next value is pruned
};

}  // namespace

Result<Json> parseJsonPruned(std::string_view text, std::span<const JsonPrunePath> prune) {
  PruningSax sax(prune);
  if (!Json::sax_parse(text.begin(), text.end(), &sax)) {
    if (sax.status.isOk()) {
      return Status::invalidArgument("failed to parse JSON");
    }
    return sax.status;
  }
  return std::move(sax.root);
}

std::span<const JsonPrunePath> managedFieldsOfObjectOrList() {
  return kObjectOrList;
}

std::span<const JsonPrunePath> managedFieldsOfWatchEvent() {
  return kWatchEvent;
}

}  // namespace koord::api
