// Small file helpers shared by the agent's ROOT_ tests, which build cgroup subtrees in the real
// kernel's hierarchies and read back what it enforces. Test-only; a failure reads as "" or
// kUnreadable so that the test's assertion, not the helper, reports it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace koord::agent::testing {

// What readInt and statField return for a missing file, key or integer (cpu.cfs_quota_us may
// hold -1).
inline constexpr int64_t kUnreadable = std::numeric_limits<int64_t>::min();

// The file's whole text ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text without trailing newlines and spaces.
inline std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

// Writes `value` in one write; false when the kernel refused it.
inline bool writeFile(const std::filesystem::path& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
  out.flush();
  return static_cast<bool>(out);
}

// The integer the file holds; kUnreadable when it is empty or unreadable.
inline int64_t readInt(const std::filesystem::path& path) {
  const std::string text = trim(readFile(path));
  try {
    return text.empty() ? kUnreadable : std::stoll(text);
  } catch (const std::exception&) {
    return kUnreadable;
  }
}

// The value of `key` in a "<key> <value>" file (cpu.stat, memory.stat); kUnreadable when absent.
inline int64_t statField(const std::filesystem::path& file, const std::string& key) {
  std::istringstream in(readFile(file));
  std::string name;
  int64_t value = 0;
  while (in >> name >> value) {
    if (name == key) {
      return value;
    }
  }
  return kUnreadable;
}

}  // namespace koord::agent::testing
