#include "koord/common/flags.hpp"

#include <sstream>

namespace koord {

FlagSet::FlagSet(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  addBool("help", "print this help and exit");
  addBool("version", "print the version and exit");
}

void FlagSet::addString(const std::string& name, std::string fallback, std::string help) {
  if (flags_.count(name) == 0) {
    order_.push_back(name);
  }
  flags_[name] = Flag{fallback, fallback, std::move(help), false};
}

void FlagSet::addBool(const std::string& name, std::string help) {
  if (flags_.count(name) == 0) {
    order_.push_back(name);
  }
  flags_[name] = Flag{"false", "false", std::move(help), true};
}

Status FlagSet::parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h") {
      arg = "--help";
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = flags_.find(name);
    if (it == flags_.end()) {
      return Status::invalidArgument("unknown flag '--" + name + "' (see --help)");
    }
    Flag& flag = it->second;
    if (flag.is_bool) {
      if (!has_value) {
        value = "true";
      } else if (value != "true" && value != "false") {
        return Status::invalidArgument("flag '--" + name + "' expects true or false, got '" +
                                       value + "'");
      }
    } else if (!has_value) {
      if (i + 1 >= argc) {
        return Status::invalidArgument("flag '--" + name + "' needs a value");
      }
      value = argv[++i];
    }
    flag.value = value;
  }
  return Status::ok();
}

const std::string& FlagSet::get(const std::string& name) const {
  static const std::string kEmpty;  // NOLINT: immutable, function-local constant
  auto it = flags_.find(name);
  return it == flags_.end() ? kEmpty : it->second.value;
}

bool FlagSet::getBool(const std::string& name) const {
  return get(name) == "true";
}

std::string FlagSet::usage() const {
  std::ostringstream os;
  os << "Usage: " << program_ << " [flags]\n\n" << summary_ << "\n\nFlags:\n";
  for (const auto& name : order_) {
    const Flag& f = flags_.at(name);
    os << "  --" << name;
    if (!f.is_bool) {
      os << "=VALUE";
    }
    os << "\n      " << f.help;
    if (!f.is_bool && !f.fallback.empty()) {
      os << " (default \"" << f.fallback << "\")";
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace koord
