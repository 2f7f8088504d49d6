#include "agent/reporters/kubelet_state.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "koord/api/codec.hpp"
#include "koord/config/yaml.hpp"

namespace koord::agent::reporters {

namespace {

Status invalid(std::string_view source, const std::string& what) {
  return Status::invalidArgument("failed to parse '" + std::string(source) + "': " + what);
}

Result<std::optional<std::string>> readOptionalFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return std::optional<std::string>();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::unavailable("failed to read '" + path.string() + "': cannot open");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return std::optional<std::string>(text.str());
}

Result<cpuset::CpuSet> cpusAt(const nlohmann::json& value, std::string_view source,
                              const std::string& field) {
  if (!value.is_string()) {
    return invalid(source, field + " is not a string");
  }
  Result<cpuset::CpuSet> cpus = cpuset::CpuSet::parse(value.get<std::string>());
  if (!cpus.ok()) {
    return invalid(source, field + ": " + cpus.status().message());
  }
  return cpus;
}

// True when `text` is well-formed UTF-8 (what the API server, and nlohmann's encoder, accept).
bool isUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    size_t extra = 0;
    if (lead < 0x80) {
      extra = 0;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      extra = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      extra = 2;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      extra = 3;
    } else {
      return false;
    }
    for (size_t k = 1; k <= extra; ++k) {
      if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
        return false;
      }
    }
    const auto second = extra > 0 ? static_cast<unsigned char>(text[i + 1]) : 0;
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
      return false;  // overlong, surrogate or beyond U+10FFFF
    }
    i += extra + 1;
  }
  return true;
}

}  // namespace

Result<KubeletCpuState> parseKubeletCpuState(std::string_view json, std::string_view source) {
  Result<api::Json> parsed = api::parseJson(json);  // depth-limited
  if (!parsed.ok() || !parsed->is_object()) {
    return invalid(source, "not a JSON object");
  }
  const nlohmann::json& doc = *parsed;
  KubeletCpuState state;
  if (auto it = doc.find("policyName"); it != doc.end()) {
    if (!it->is_string()) {
      return invalid(source, "policyName is not a string");
    }
    state.policy_name = it->get<std::string>();
  }
  if (auto it = doc.find("defaultCpuSet"); it != doc.end()) {
    KOORD_ASSIGN_OR_RETURN(state.default_cpuset, cpusAt(*it, source, "defaultCpuSet"));
  }
  if (auto it = doc.find("entries"); it != doc.end() && !it->is_null()) {
    if (!it->is_object()) {
      return invalid(source, "entries is not an object");
    }
    for (const auto& [uid, containers] : it->items()) {
      if (!containers.is_object()) {
        return invalid(source, "entries." + uid + " is not an object");
      }
      for (const auto& [name, cpus] : containers.items()) {
        KOORD_ASSIGN_OR_RETURN(state.entries[uid][name],
                               cpusAt(cpus, source, "entries." + uid + "." + name));
      }
    }
  }
  return state;
}

Result<std::optional<KubeletCpuState>> readKubeletCpuState(const std::filesystem::path& path) {
  KOORD_ASSIGN_OR_RETURN(std::optional<std::string> text, readOptionalFile(path));
  if (!text) {
    return std::optional<KubeletCpuState>();
  }
  KOORD_ASSIGN_OR_RETURN(KubeletCpuState state, parseKubeletCpuState(*text, path.string()));
  return std::optional<KubeletCpuState>(std::move(state));
}

Result<KubeletConfigInfo> parseKubeletConfig(std::string_view yaml, std::string_view source) {
  KOORD_ASSIGN_OR_RETURN(std::vector<config::YamlDocument> docs,
                         config::parseYamlDocuments(yaml, source));
  KubeletConfigInfo info;
  if (docs.empty()) {
    return info;
  }
  const nlohmann::json& doc = docs.front().value;
  if (!doc.is_object()) {
    return invalid(source, "not a mapping");
  }
  auto text = [&](const char* key, std::string& out) -> Status {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) {
      return Status::ok();
    }
    if (!it->is_string()) {
      return invalid(source, std::string(key) + " is not a string");
    }
    out = it->get<std::string>();
    if (!isUtf8(out)) {
      return invalid(source, std::string(key) + " is not valid UTF-8");
    }
    return Status::ok();
  };
  KOORD_RETURN_IF_ERROR(text("cpuManagerPolicy", info.cpu_manager_policy));
  KOORD_RETURN_IF_ERROR(text("reservedSystemCPUs", info.reserved_system_cpus));
  KOORD_RETURN_IF_ERROR(text("topologyManagerPolicy", info.topology_manager_policy));
  KOORD_RETURN_IF_ERROR(text("topologyManagerScope", info.topology_manager_scope));
  if (auto it = doc.find("cpuManagerPolicyOptions"); it != doc.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      std::string option =
          value.is_string() ? value.get<std::string>()
                            : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (!isUtf8(key) || !isUtf8(option)) {
        return invalid(source, "cpuManagerPolicyOptions holds text that is not valid UTF-8");
      }
      info.cpu_manager_policy_options[key] = std::move(option);
    }
  }
  return info;
}

Result<KubeletConfigInfo> readKubeletConfig(const std::filesystem::path& path) {
  KOORD_ASSIGN_OR_RETURN(std::optional<std::string> text, readOptionalFile(path));
  if (!text) {
    return KubeletConfigInfo{};
  }
  return parseKubeletConfig(*text, path.string());
}

std::string topologyPolicyWord(const KubeletConfigInfo& config) {
  const bool pod = config.topology_manager_scope == "pod";
  const char* level = pod ? "PodLevel" : "ContainerLevel";
  if (config.topology_manager_policy == "best-effort") {
    return std::string("BestEffort") + level;
  }
  if (config.topology_manager_policy == "restricted") {
    return std::string("Restricted") + level;
  }
  if (config.topology_manager_policy == "single-numa-node") {
    return std::string("SingleNUMANode") + level;
  }
  return "None";
}

}  // namespace koord::agent::reporters
