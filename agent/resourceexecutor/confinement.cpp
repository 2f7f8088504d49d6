#include "agent/resourceexecutor/confinement.hpp"

#include <algorithm>

namespace koord::agent::resourceexecutor {

std::optional<std::vector<std::string>> relativeComponents(const std::filesystem::path& dir) {
  if (dir.has_root_directory() || dir.has_root_name() ||
      dir.native().find('\0') != std::string::npos) {
    return std::nullopt;
  }
  std::vector<std::string> parts;
  for (const std::filesystem::path& part : dir) {
    const std::string& text = part.native();
    if (text == "..") {
      return std::nullopt;
    }
    if (!text.empty() && text != ".") {
      parts.push_back(text);
    }
  }
  return parts;
}

std::filesystem::path joinComponents(const std::vector<std::string>& parts) {
  std::filesystem::path dir;
  for (const std::string& part : parts) {
    dir /= part;
  }
  return dir;
}

bool startsWith(const std::vector<std::string>& parts, const std::vector<std::string>& base) {
  return parts.size() >= base.size() && std::equal(base.begin(), base.end(), parts.begin());
}

}  // namespace koord::agent::resourceexecutor
