#include "koord/common/command_args.hpp"

namespace koord {

std::string CommandArgs::parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string_view name = arg;
    std::string value;
    bool has_value = false;
    if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = std::string(arg.substr(eq + 1));
      has_value = true;
    }
    if (name == "-h" || name == "--help") {
      help_ = true;
      continue;
    }
    const CommandFlag* flag = nullptr;
    for (const CommandFlag& f : flags_) {
      if (name == f.long_name || (!f.short_name.empty() && name == f.short_name)) {
        flag = &f;
        break;
      }
    }
    if (flag == nullptr) {
      return "unknown argument '" + std::string(arg) + "'";
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return "flag " + std::string(name) + " needs a value";
      }
      value = argv[++i];
    }
    std::vector<std::string>& slot = values_[flag->long_name];
    if (!flag->repeated) {
      slot.clear();
    }
    slot.push_back(std::move(value));
  }
  return "";
}

const std::vector<std::string>& CommandArgs::values(std::string_view long_name) const {
  static const std::vector<std::string> kNone;  // NOLINT: an immutable empty answer
  auto it = values_.find(long_name);
  return it == values_.end() ? kNone : it->second;
}

std::string CommandArgs::value(std::string_view long_name, std::string fallback) const {
  const std::vector<std::string>& given = values(long_name);
  return given.empty() ? std::move(fallback) : given.back();
}

}  // namespace koord
