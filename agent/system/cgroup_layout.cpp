#include "agent/system/cgroup_layout.hpp"

#include <system_error>
#include <vector>

#include "agent/system/kubelet_cgroup_name.hpp"
#include "agent/system/sysfs_file.hpp"
#include "koord/config/yaml.hpp"

namespace koord::agent::system {

namespace {

namespace fs = std::filesystem;

bool isDir(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

bool isFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

std::string quotedPath(const fs::path& path) {
  return "'" + path.string() + "'";
}

// The components of a kubelet cgroup root ("/a/b" -> {"a", "b"}; "/" and "" -> {}).
Result<std::vector<std::string>> rootComponents(std::string_view cgroup_root) {
  std::vector<std::string> components;
  std::string_view rest = cgroup_root;
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty()) {
      continue;
    }
    if (part == "." || part == "..") {
      return Status::invalidArgument("failed to parse cgroup root '" + std::string(cgroup_root) +
                                     "': '" + std::string(part) + "' is not a cgroup name");
    }
    components.emplace_back(part);
  }
  return components;
}

std::string normalisedRoot(const std::vector<std::string>& components) {
  std::string root;
  for (const std::string& part : components) {
    root += "/" + part;
  }
  return root.empty() ? "/" : root;
}

// What the kubelet config file says; a field is empty when the file does not set it.
struct KubeletConfigValues {
  std::optional<CgroupDriver> driver = std::nullopt;
  std::optional<std::string> cgroup_root = std::nullopt;
};

// A top-level string key of a mapping document; null or absent is "not set".
Result<std::optional<std::string>> stringKey(const config::YamlDocument& doc,
                                             const std::string& key) {
  const auto it = doc.value.find(key);
  if (it == doc.value.end() || it->is_null()) {
    return std::optional<std::string>();
  }
  if (!it->is_string()) {
    const int line = doc.lineOf(config::jsonPointerChild("", key));
    return Status::invalidArgument("failed to parse kubelet config '" + doc.source +
                                   "': " + (line > 0 ? "line " + std::to_string(line) + ": " : "") +
                                   key + ": expected a string, got " + it->dump());
  }
  return std::optional<std::string>(it->get<std::string>());
}

// Reads `cgroupDriver` and `cgroupRoot` from the kubelet config file; a missing file (or no path)
// sets nothing.
Result<KubeletConfigValues> readKubeletConfig(const fs::path& path) {
  KubeletConfigValues values;
  if (path.empty()) {
    return values;
  }
  auto docs = config::loadYamlFile(path.string());
  if (!docs.ok()) {
    if (docs.status().code() == StatusCode::kNotFound) {
      return values;
    }
    return docs.status();
  }
  if (docs->empty()) {
    return values;
  }
  const config::YamlDocument& doc = docs->front();
  if (!doc.value.is_object()) {
    return Status::invalidArgument("failed to parse kubelet config " + quotedPath(path) +
                                   ": expected a mapping at the top level");
  }
  KOORD_ASSIGN_OR_RETURN(std::optional<std::string> driver, stringKey(doc, "cgroupDriver"));
  if (driver) {
    auto parsed = parseCgroupDriver(*driver);
    if (!parsed.ok()) {
      return Status::invalidArgument("failed to parse kubelet config " + quotedPath(path) +
                                     ": cgroupDriver: expected 'cgroupfs' or 'systemd', got '" +
                                     *driver + "'");
    }
    values.driver = *parsed;
  }
  KOORD_ASSIGN_OR_RETURN(values.cgroup_root, stringKey(doc, "cgroupRoot"));
  return values;
}

// The driver whose kubepods folder exists under the cpu subsystem root (V1) or the cgroup root
// (V2).
Result<CgroupDriver> probeDriver(const SysPaths& paths, CgroupVersion version,
                                 std::string_view cgroup_root) {
  const fs::path base = subsystemRoot(paths, version, "cpu");
  KOORD_ASSIGN_OR_RETURN(const fs::path cgroupfs,
                         kubepodsPath(CgroupDriver::kCgroupfs, cgroup_root));
  KOORD_ASSIGN_OR_RETURN(const fs::path systemd, kubepodsPath(CgroupDriver::kSystemd, cgroup_root));
  const bool has_cgroupfs = isDir(base / cgroupfs);
  const bool has_systemd = isDir(base / systemd);
  if (has_cgroupfs != has_systemd) {
    return has_systemd ? CgroupDriver::kSystemd : CgroupDriver::kCgroupfs;
  }
  const std::string prefix =
      "failed to detect the kubelet cgroup driver from " + quotedPath(base) + ": ";
  const std::string hint =
      " there; set the kubelet cgroup driver option (cgroupfs or systemd) or the kubelet config "
      "path";
  if (has_cgroupfs) {
    return Status::failedPrecondition(prefix + "both " + quotedPath(cgroupfs) + " (cgroupfs) and " +
                                      quotedPath(systemd) + " (systemd) exist" + hint);
  }
  return Status::notFound(prefix + "neither " + quotedPath(cgroupfs) + " (cgroupfs) nor " +
                          quotedPath(systemd) + " (systemd) exists" + hint);
}

}  // namespace

std::vector<std::string> v1SubsystemMounts(std::string_view subsystem) {
  if (subsystem == "cpu") {
    return {"cpu", "cpu,cpuacct", "cpuacct,cpu"};
  }
  if (subsystem == "cpuacct") {
    return {"cpuacct", "cpu,cpuacct", "cpuacct,cpu"};
  }
  if (subsystem == "io" || subsystem == "blkio") {
    return {"blkio"};
  }
  if (subsystem == "net_cls" || subsystem == "net_prio") {
    return {std::string(subsystem), "net_cls,net_prio", "net_prio,net_cls"};
  }
  return {std::string(subsystem)};
}

std::string_view toString(CgroupVersion version) {
  return version == CgroupVersion::kV2 ? "v2" : "v1";
}

std::string_view toString(CgroupDriver driver) {
  return driver == CgroupDriver::kSystemd ? "systemd" : "cgroupfs";
}

Result<CgroupDriver> parseCgroupDriver(std::string_view text) {
  const std::string_view word = trimSpace(text);
  if (word == "cgroupfs") {
    return CgroupDriver::kCgroupfs;
  }
  if (word == "systemd") {
    return CgroupDriver::kSystemd;
  }
  return Status::invalidArgument("failed to parse cgroup driver '" + std::string(text) +
                                 "': expected 'cgroupfs' or 'systemd'");
}

Result<CgroupVersion> detectCgroupVersion(const SysPaths& paths) {
  const fs::path& root = paths.cgroup_root;
  if (isFile(root / "cgroup.controllers")) {
    return CgroupVersion::kV2;
  }
  const bool has_cpu = isDir(root / "cpu") || isDir(root / "cpu,cpuacct");
  if (has_cpu && isDir(root / "cpuset")) {
    return CgroupVersion::kV1;
  }
  return Status::notFound("failed to detect cgroup version of " + quotedPath(root) +
                          ": found neither cgroup.controllers (v2) nor the cpu (or cpu,cpuacct) "
                          "and cpuset folders (v1)");
}

fs::path subsystemRoot(const SysPaths& paths, CgroupVersion version, std::string_view subsystem) {
  if (version == CgroupVersion::kV2) {
    return paths.cgroup_root;
  }
  const std::vector<std::string> candidates = v1SubsystemMounts(subsystem);
  for (const std::string& name : candidates) {
    fs::path candidate = paths.cgroup_root / name;
    if (isDir(candidate)) {
      return candidate;
    }
  }
  return paths.cgroup_root / candidates.front();
}

Result<fs::path> kubepodsPath(CgroupDriver driver, std::string_view cgroup_root) {
  KOORD_ASSIGN_OR_RETURN(std::vector<std::string> components, rootComponents(cgroup_root));
  components.emplace_back("kubepods");
  return kubeletCgroupDir(driver, components);
}

bool detectCfsBurst(const SysPaths& paths, const CgroupLayout& layout) {
  const fs::path base = subsystemRoot(paths, layout.version, "cpu");
  const fs::path kubepods = base / layout.kubepods;
  if (layout.version == CgroupVersion::kV1) {
    return isFile((isDir(kubepods) ? kubepods : base) / "cpu.cfs_burst_us");
  }
  constexpr std::string_view kBurstFile = "cpu.max.burst";
  if (isDir(kubepods)) {
    return isFile(kubepods / kBurstFile);
  }
  std::error_code ec;
  fs::directory_iterator it(base, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    if (isDir(it->path()) && isFile(it->path() / kBurstFile)) {
      return true;
    }
  }
  return false;
}

Result<CgroupLayout> discoverCgroupLayout(const SysPaths& paths,
                                          const CgroupLayoutOptions& options) {
  CgroupLayout layout;
  KOORD_ASSIGN_OR_RETURN(layout.version, detectCgroupVersion(paths));
  KubeletConfigValues from_file;
  if (!options.driver || !options.cgroup_root) {
    KOORD_ASSIGN_OR_RETURN(from_file, readKubeletConfig(options.kubelet_config));
  }
  const std::string root = options.cgroup_root.value_or(from_file.cgroup_root.value_or("/"));
  KOORD_ASSIGN_OR_RETURN(std::vector<std::string> components, rootComponents(root));
  layout.cgroup_root = normalisedRoot(components);
  if (options.driver) {
    layout.driver = *options.driver;
  } else if (from_file.driver) {
    layout.driver = *from_file.driver;
  } else {
    KOORD_ASSIGN_OR_RETURN(layout.driver, probeDriver(paths, layout.version, layout.cgroup_root));
  }
  KOORD_ASSIGN_OR_RETURN(layout.kubepods, kubepodsPath(layout.driver, layout.cgroup_root));
  layout.cfs_burst = detectCfsBurst(paths, layout);
  return layout;
}

}  // namespace koord::agent::system
