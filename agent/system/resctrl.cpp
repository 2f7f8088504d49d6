#include "agent/system/resctrl.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "agent/system/sysfs_file.hpp"

namespace koord::agent::system {

namespace {

namespace fs = std::filesystem;

// What the first processor block of /proc/cpuinfo says.
struct CpuFlags {
  std::string vendor_id;
  bool cat_l3 = false;
  bool mba = false;
  bool rdt_a = false;
};

// Whether the whitespace-separated `words` hold `word` exactly ("rdtscp" is not "rdt_a").
bool hasWord(std::string_view words, std::string_view word) {
  constexpr std::string_view kSpace = " \t";
  size_t pos = words.find_first_not_of(kSpace);
  while (pos != std::string_view::npos) {
    const size_t end = words.find_first_of(kSpace, pos);
    if (words.substr(pos, end == std::string_view::npos ? end : end - pos) == word) {
      return true;
    }
    pos = end == std::string_view::npos ? end : words.find_first_not_of(kSpace, end);
  }
  return false;
}

CpuFlags parseCpuinfo(std::string_view content) {
  CpuFlags flags;
  bool in_block = false;
  std::string_view rest = content;
  while (!rest.empty()) {
    const size_t eol = rest.find('\n');
    const std::string_view line = trimSpace(rest.substr(0, eol));
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    if (line.empty()) {
      if (in_block) {
        break;
      }
      continue;
    }
    in_block = true;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string_view key = trimSpace(line.substr(0, colon));
    const std::string_view value = trimSpace(line.substr(colon + 1));
    if (key == "vendor_id") {
      flags.vendor_id = std::string(value);
    } else if (key == "flags") {
      flags.cat_l3 = hasWord(value, "cat_l3");
      flags.mba = hasWord(value, "mba");
      flags.rdt_a = hasWord(value, "rdt_a");
    }
  }
  return flags;
}

std::string vendorName(const std::string& vendor_id) {
  if (vendor_id == "GenuineIntel") {
    return "Intel";
  }
  if (vendor_id == "AuthenticAMD") {
    return "AMD";
  }
  return vendor_id;
}

// `read`'s value into *out; a missing file leaves *out as it is.
template <typename T, typename Read>
Status readOptional(const fs::path& path, Read read, T* out) {
  auto value = read(path);
  if (!value.ok()) {
    return value.status().code() == StatusCode::kNotFound ? Status::ok() : value.status();
  }
  *out = std::move(value).value();
  return Status::ok();
}

}  // namespace

Result<ResctrlSupport> discoverResctrl(const SysPaths& paths) {
  KOORD_ASSIGN_OR_RETURN(std::string cpuinfo, readSysFile(paths.proc_root / "cpuinfo"));
  const CpuFlags flags = parseCpuinfo(cpuinfo);
  ResctrlSupport support;
  support.vendor = vendorName(flags.vendor_id);
  support.cpu_cat_l3 = flags.cat_l3;
  support.cpu_mba = flags.mba;
  support.cpu_rdt = flags.rdt_a;
  std::error_code ec;
  support.mounted = fs::is_regular_file(paths.resctrl_root / "schemata", ec);
  if (!support.mounted) {
    return support;
  }
  const fs::path info = paths.resctrl_root / "info";
  KOORD_RETURN_IF_ERROR(
      readOptional(info / "L3" / "num_closids", readSysInt, &support.num_closids));
  KOORD_RETURN_IF_ERROR(
      readOptional(info / "L3" / "cbm_mask", readSysString, &support.l3_cbm_mask));
  KOORD_RETURN_IF_ERROR(
      readOptional(info / "MB" / "min_bandwidth", readSysInt, &support.mba_min_bandwidth));
  return support;
}

}  // namespace koord::agent::system
