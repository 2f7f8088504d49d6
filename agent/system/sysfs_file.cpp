#include "agent/system/sysfs_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <system_error>

namespace koord::agent::system {

namespace {

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

Status readError(const std::filesystem::path& path, int err) {
  return Status::fromErrno(err, "failed to read " + quoted(path));
}

Status parseError(const std::filesystem::path& path, const std::string& cause) {
  return Status::invalidArgument("failed to parse " + quoted(path) + ": " + cause);
}

}  // namespace

std::string_view trimSpace(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r\v\f";
  const size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) {
    return {};
  }
  const size_t last = text.find_last_not_of(kSpace);
  return text.substr(first, last - first + 1);
}

bool parseInt64(std::string_view text, int64_t* out) {
  if (text.empty() || text.front() == '+') {
    return false;
  }
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return false;
  }
  *out = value;
  return true;
}

Result<std::string> readSysFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return parseError(path, "is a directory, expected a file");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return readError(path, errno != 0 ? errno : ENOENT);
  }
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return readError(path, errno != 0 ? errno : EIO);
  }
  return content;
}

Result<std::string> readSysString(const std::filesystem::path& path) {
  KOORD_ASSIGN_OR_RETURN(std::string content, readSysFile(path));
  return std::string(trimSpace(content));
}

Result<int64_t> readSysInt(const std::filesystem::path& path) {
  KOORD_ASSIGN_OR_RETURN(std::string text, readSysString(path));
  int64_t value = 0;
  if (!parseInt64(text, &value)) {
    return parseError(path, "expected an integer, got '" + text + "'");
  }
  return value;
}

Result<cpuset::CpuSet> readSysCpuList(const std::filesystem::path& path) {
  KOORD_ASSIGN_OR_RETURN(std::string text, readSysString(path));
  auto cpus = cpuset::CpuSet::parse(text);
  if (!cpus.ok()) {
    return Status(cpus.status().code(),
                  "failed to parse " + quoted(path) + ": " + cpus.status().message());
  }
  return std::move(cpus).value();
}

Result<int64_t> parseSysSize(std::string_view text, const std::filesystem::path& path) {
  std::string_view digits = trimSpace(text);
  int64_t multiplier = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
        multiplier = int64_t{1} << 10;
        break;
      case 'M':
        multiplier = int64_t{1} << 20;
        break;
      case 'G':
        multiplier = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (multiplier != 1) {
      digits.remove_suffix(1);
    }
  }
  int64_t value = 0;
  if (!parseInt64(digits, &value) || value < 0 ||
      value > std::numeric_limits<int64_t>::max() / multiplier) {
    return parseError(path,
                      "expected a size such as '32K', got '" + std::string(trimSpace(text)) + "'");
  }
  return value * multiplier;
}

Result<std::vector<int32_t>> listNumbered(const std::filesystem::path& dir,
                                          std::string_view prefix) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    return readError(dir, ec.value());
  }
  std::vector<int32_t> numbers;
  for (const std::filesystem::directory_iterator end; it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) {
      continue;
    }
    const std::string_view suffix = std::string_view(name).substr(prefix.size());
    if (!std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    int64_t number = 0;
    if (parseInt64(suffix, &number) && number <= std::numeric_limits<int32_t>::max()) {
      numbers.push_back(static_cast<int32_t>(number));
    }
  }
  if (ec) {
    return readError(dir, ec.value());
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

}  // namespace koord::agent::system
