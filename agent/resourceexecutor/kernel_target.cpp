#include "agent/resourceexecutor/kernel_target.hpp"

#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

namespace koord::agent::resourceexecutor {

namespace {

constexpr int64_t kMaxTaskId = 4194304;  // PID_MAX_LIMIT on 64-bit kernels

Status invalid(KernelTarget target, std::string_view text, std::string_view rule) {
  return Status::invalidArgument("failed to parse " + std::string(kernelTargetName(target)) +
                                 " value '" + std::string(text) + "': " + std::string(rule));
}

bool isSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string withoutSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!isSpace(c)) {
      out += c;
    }
  }
  return out;
}

std::optional<int64_t> parseDecimal(std::string_view text, int64_t max) {
  if (text.empty() || text.size() > 19) {
    return std::nullopt;
  }
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + (c - '0');
    if (value > max) {
      return std::nullopt;
    }
  }
  return value;
}

bool isAlnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isHexDigit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

// Whether `text` is not empty and every character passes `pred`.
bool allOf(std::string_view text, bool (*pred)(char)) {
  for (char c : text) {
    if (!pred(c)) {
      return false;
    }
  }
  return !text.empty();
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return out;
    }
    start = end + 1;
  }
}

// "L3:0=7ff;1=7ff": a resource of upper-case letters and digits, then domains "<id>=<value>".
bool validSchemataLine(std::string_view line) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || !allOf(line.substr(0, colon), isAlnum)) {
    return false;
  }
  for (std::string_view domain : split(line.substr(colon + 1), ';')) {
    const size_t eq = domain.find('=');
    if (eq == std::string_view::npos || !allOf(domain.substr(0, eq), isDigit) ||
        !allOf(domain.substr(eq + 1), isHexDigit)) {
      return false;
    }
  }
  return true;
}

Result<std::string> canonicalSchemata(std::string_view text) {
  std::string out;
  for (std::string_view raw : split(text, '\n')) {
    const std::string line = withoutSpaces(raw);
    if (line.empty()) {
      continue;
    }
    if (!validSchemataLine(line)) {
      return invalid(KernelTarget::kResctrlSchemata, text,
                     "want lines like 'L3:0=7ff;1=7ff' or 'MB:0=100'");
    }
    out += (out.empty() ? "" : "\n") + line;
  }
  if (out.empty()) {
    return invalid(KernelTarget::kResctrlSchemata, text, "want at least one line");
  }
  return out;
}

Result<std::string> canonicalNetQosClass(std::string_view text) {
  std::optional<int64_t> rate;
  std::optional<int64_t> ceil;
  const auto fail = [text] {
    return invalid(KernelTarget::kNetQosClass, text,
                   "want 'rate=<bit/s> ceil=<bit/s>' with 0 < rate <= ceil");
  };
  std::string normalised(text);
  for (char& c : normalised) {
    c = isSpace(c) ? ' ' : c;
  }
  for (std::string_view field : split(normalised, ' ')) {
    if (field.empty()) {
      continue;
    }
    const size_t eq = field.find('=');
    if (eq == std::string_view::npos) {
      return fail();
    }
    const std::string_view key = field.substr(0, eq);
    const std::optional<int64_t> value = parseDecimal(field.substr(eq + 1), INT64_MAX / 10);
    std::optional<int64_t>* slot = key == "rate" ? &rate : key == "ceil" ? &ceil : nullptr;
    if (slot == nullptr || slot->has_value() || !value.has_value()) {
      return fail();
    }
    *slot = value;
  }
  if (!rate || !ceil || *rate <= 0 || *ceil < *rate) {
    return fail();
  }
  return "rate=" + std::to_string(*rate) + " ceil=" + std::to_string(*ceil);
}

}  // namespace

std::string_view kernelTargetName(KernelTarget target) {
  switch (target) {
    case KernelTarget::kResctrlSchemata:
      return "resctrl_schemata";
    case KernelTarget::kResctrlTasks:
      return "resctrl_tasks";
    case KernelTarget::kNetQosClass:
      return "net_qos_class";
  }
  return "unknown";
}

bool isResctrlTarget(KernelTarget target) {
  return target == KernelTarget::kResctrlSchemata || target == KernelTarget::kResctrlTasks;
}

Result<std::string> canonicalTargetValue(KernelTarget target, std::string_view text) {
  switch (target) {
    case KernelTarget::kResctrlSchemata:
      return canonicalSchemata(text);
    case KernelTarget::kResctrlTasks: {
      size_t first = 0;
      size_t last = text.size();
      while (first < last && isSpace(text[first])) {
        ++first;
      }
      while (last > first && isSpace(text[last - 1])) {
        --last;
      }
      const std::optional<int64_t> id = parseDecimal(text.substr(first, last - first), kMaxTaskId);
      if (!id.has_value() || *id <= 0) {
        return invalid(target, text, "want one task id from 1 to 4194304");
      }
      return std::to_string(*id);
    }
    case KernelTarget::kNetQosClass:
      return canonicalNetQosClass(text);
  }
  return invalid(target, text, "unknown target");
}

}  // namespace koord::agent::resourceexecutor
