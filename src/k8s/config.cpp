#include "koord/k8s/config.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "koord/config/file.hpp"
#include "koord/config/yaml.hpp"

namespace koord::k8s {
namespace {

using KubeJson = nlohmann::json;

// Locates a field in the kubeconfig document and reports errors that name the file, the field
// path and the line.
class KubeconfigReader {
 public:
  KubeconfigReader(std::string path, const config::YamlDocument& doc)
      : path_(std::move(path)), doc_(doc) {}

  [[nodiscard]] Status error(const std::string& field, const std::string& pointer,
                             std::string_view cause) const {
    std::string msg = "failed to load kubeconfig '" + path_ + "': " + field;
    const int line = doc_.lineOf(pointer);
    if (line > 0) {
      msg += " (line " + std::to_string(line) + ")";
    }
    msg += ": ";
    msg += cause;
    return Status::invalidArgument(std::move(msg));
  }

  // Finds entry `name` in the named list (clusters, contexts, users); returns its index.
  [[nodiscard]] Result<size_t> findNamed(const char* list, const std::string& name,
                                         const std::string& referrer,
                                         const std::string& referrer_pointer) const {
    const KubeJson& root = doc_.value;
    if (root.contains(list)) {
      const KubeJson& items = root[list];
      if (!items.is_array()) {
        return error(list, std::string("/") + list, "expected a list");
      }
      for (size_t i = 0; i < items.size(); ++i) {
        const KubeJson& item = items[i];
        if (item.is_object() && item.contains("name") && item["name"].is_string() &&
            item["name"].get<std::string>() == name) {
          return i;
        }
      }
    }
    std::string kind(list);
    kind.pop_back();
    return error(referrer, referrer_pointer, kind + " '" + name + "' not found");
  }

  // A string field of the object at `pointer`; nullopt when absent or null.
  [[nodiscard]] Result<std::optional<std::string>> stringAt(const std::string& field,
                                                            const std::string& pointer) const {
    const KubeJson::json_pointer ptr(pointer);
    if (!doc_.value.contains(ptr) || doc_.value.at(ptr).is_null()) {
      return std::optional<std::string>();
    }
    const KubeJson& v = doc_.value.at(ptr);
    if (!v.is_string()) {
      return error(field, pointer, "expected a string");
    }
    return std::optional<std::string>(v.get<std::string>());
  }

  [[nodiscard]] Result<bool> boolAt(const std::string& field, const std::string& pointer) const {
    const KubeJson::json_pointer ptr(pointer);
    if (!doc_.value.contains(ptr) || doc_.value.at(ptr).is_null()) {
      return false;
    }
    const KubeJson& v = doc_.value.at(ptr);
    if (!v.is_boolean()) {
      return error(field, pointer, "expected true or false");
    }
    return v.get<bool>();
  }

  [[nodiscard]] bool has(const std::string& pointer) const {
    const KubeJson::json_pointer ptr(pointer);
    return doc_.value.contains(ptr) && !doc_.value.at(ptr).is_null();
  }

  // Decodes a *-data field; "" when absent.
  [[nodiscard]] Result<std::string> dataAt(const std::string& field,
                                           const std::string& pointer) const {
    KOORD_ASSIGN_OR_RETURN(auto text, stringAt(field, pointer));
    if (!text) {
      return std::string();
    }
    auto decoded = decodeBase64(*text);
    if (!decoded.ok()) {
      return error(field, pointer, decoded.status().message());
    }
    return std::move(decoded).value();
  }

  // A file field, resolved against the kubeconfig's folder; "" when absent.
  [[nodiscard]] Result<std::string> fileAt(const std::string& field,
                                           const std::string& pointer) const {
    KOORD_ASSIGN_OR_RETURN(auto text, stringAt(field, pointer));
    if (!text || text->empty()) {
      return std::string();
    }
    std::filesystem::path p(*text);
    if (p.is_relative()) {
      p = std::filesystem::path(path_).parent_path() / p;
    }
    return p.string();
  }

 private:
  std::string path_;
  const config::YamlDocument& doc_;
};

Result<ClientConfig> parseKubeconfig(const std::string& path, const config::YamlDocument& doc,
                                     const std::string& context_flag) {
  const KubeconfigReader r(path, doc);
  if (!doc.value.is_object()) {
    return r.error("<root>", "", "expected a mapping");
  }
  std::string context = context_flag;
  if (context.empty()) {
    KOORD_ASSIGN_OR_RETURN(auto current, r.stringAt("current-context", "/current-context"));
    if (!current || current->empty()) {
      return r.error("current-context", "/current-context", "not set and no context was given");
    }
    context = *current;
  }
  KOORD_ASSIGN_OR_RETURN(
      size_t ctx_index,
      r.findNamed("contexts", context, context_flag.empty() ? "current-context" : "context",
                  "/current-context"));
  const std::string ctx_field = "contexts[" + std::to_string(ctx_index) + "].context";
  const std::string ctx_ptr = "/contexts/" + std::to_string(ctx_index) + "/context";
  KOORD_ASSIGN_OR_RETURN(auto cluster_name,
                         r.stringAt(ctx_field + ".cluster", ctx_ptr + "/cluster"));
  if (!cluster_name || cluster_name->empty()) {
    return r.error(ctx_field + ".cluster", ctx_ptr, "required");
  }
  KOORD_ASSIGN_OR_RETURN(auto user_name, r.stringAt(ctx_field + ".user", ctx_ptr + "/user"));
  KOORD_ASSIGN_OR_RETURN(auto ns, r.stringAt(ctx_field + ".namespace", ctx_ptr + "/namespace"));

  ClientConfig out;
  out.default_namespace = ns.value_or("");
  KOORD_ASSIGN_OR_RETURN(
      size_t cluster_index,
      r.findNamed("clusters", *cluster_name, ctx_field + ".cluster", ctx_ptr + "/cluster"));
  const std::string cf = "clusters[" + std::to_string(cluster_index) + "].cluster";
  const std::string cp = "/clusters/" + std::to_string(cluster_index) + "/cluster";
  KOORD_ASSIGN_OR_RETURN(auto server, r.stringAt(cf + ".server", cp + "/server"));
  if (!server || server->empty()) {
    return r.error(cf + ".server", cp, "required");
  }
  out.server = *server;
  while (!out.server.empty() && out.server.back() == '/') {
    out.server.pop_back();
  }
  if (out.server.rfind("https://", 0) != 0 && out.server.rfind("http://", 0) != 0) {
    return r.error(cf + ".server", cp + "/server",
                   "expected an http:// or https:// URL, got '" + out.server + "'");
  }
  KOORD_ASSIGN_OR_RETURN(out.ca_file,
                         r.fileAt(cf + ".certificate-authority", cp + "/certificate-authority"));
  KOORD_ASSIGN_OR_RETURN(out.ca_data, r.dataAt(cf + ".certificate-authority-data",
                                               cp + "/certificate-authority-data"));
  KOORD_ASSIGN_OR_RETURN(
      out.insecure, r.boolAt(cf + ".insecure-skip-tls-verify", cp + "/insecure-skip-tls-verify"));

  if (user_name && !user_name->empty()) {
    KOORD_ASSIGN_OR_RETURN(size_t user_index, r.findNamed("users", *user_name, ctx_field + ".user",
                                                          ctx_ptr + "/user"));
    const std::string uf = "users[" + std::to_string(user_index) + "].user";
    const std::string up = "/users/" + std::to_string(user_index) + "/user";
    for (const char* unsupported : {"exec", "auth-provider", "username", "password"}) {
      if (r.has(up + "/" + unsupported)) {
        return r.error(uf + "." + unsupported, up + "/" + unsupported,
                       "not supported (use a token, tokenFile or client certificate)");
      }
    }
    KOORD_ASSIGN_OR_RETURN(auto token, r.stringAt(uf + ".token", up + "/token"));
    out.bearer_token = token.value_or("");
    KOORD_ASSIGN_OR_RETURN(out.token_file, r.fileAt(uf + ".tokenFile", up + "/tokenFile"));
    KOORD_ASSIGN_OR_RETURN(out.cert_file,
                           r.fileAt(uf + ".client-certificate", up + "/client-certificate"));
    KOORD_ASSIGN_OR_RETURN(
        out.cert_data, r.dataAt(uf + ".client-certificate-data", up + "/client-certificate-data"));
    KOORD_ASSIGN_OR_RETURN(out.key_file, r.fileAt(uf + ".client-key", up + "/client-key"));
    KOORD_ASSIGN_OR_RETURN(out.key_data,
                           r.dataAt(uf + ".client-key-data", up + "/client-key-data"));
    const bool has_cert = !out.cert_file.empty() || !out.cert_data.empty();
    const bool has_key = !out.key_file.empty() || !out.key_data.empty();
    if (has_cert != has_key) {
      return r.error(uf, up,
                     has_cert ? "client-certificate given without client-key"
                              : "client-key given without client-certificate");
    }
  }
  return out;
}

std::string envOr(const InClusterEnv& where, const std::string& name) {
  auto it = where.env.find(name);
  if (it != where.env.end()) {
    return it->second;
  }
  if (where.use_process_env) {
    const char* v = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe)
    return v != nullptr ? std::string(v) : std::string();
  }
  return std::string();
}

int base64Value(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+' || c == '-')
    return 62;
  if (c == '/' || c == '_')
    return 63;
  return -1;
}

}  // namespace

Result<std::string> decodeBase64(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  bool padding = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (c == '=') {
      padding = true;
      continue;
    }
    const int v = base64Value(c);
    if (v < 0 || padding) {
      return Status::invalidArgument("invalid base64 at offset " + std::to_string(i));
    }
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (bits >= 6) {
    return Status::invalidArgument("invalid base64: truncated input");
  }
  return out;
}

Result<ClientConfig> loadKubeconfig(const std::string& path, const std::string& context) {
  auto docs = config::loadYamlFile(path);
  if (!docs.ok()) {
    return docs.status().withPrefix("failed to load kubeconfig '" + path + "'");
  }
  if (docs->empty()) {
    return Status::invalidArgument("failed to load kubeconfig '" + path + "': empty file");
  }
  return parseKubeconfig(path, docs->front(), context);
}

Result<ClientConfig> inClusterConfig(const InClusterEnv& where) {
  const std::string host = envOr(where, "KUBERNETES_SERVICE_HOST");
  const std::string port = envOr(where, "KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) {
    return Status::failedPrecondition(
        "failed to load in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT "
        "must be set (not running in a cluster?)");
  }
  std::error_code ec;
  if (!std::filesystem::exists(where.token_file, ec)) {
    return Status::notFound("failed to load in-cluster config: token file '" + where.token_file +
                            "' does not exist");
  }
  ClientConfig out;
  const bool ipv6 = host.find(':') != std::string::npos;
  out.server = "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + port;
  out.token_file = where.token_file;
  if (std::filesystem::exists(where.ca_file, ec)) {
    out.ca_file = where.ca_file;
  }
  auto ns = config::readFile(where.namespace_file, 4096);
  if (ns.ok()) {
    std::string text = std::move(ns).value();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
      text.pop_back();
    }
    out.default_namespace = text;
  }
  return out;
}

Result<ClientConfig> loadConfig(const std::string& kubeconfig_flag) {
  if (!kubeconfig_flag.empty()) {
    return loadKubeconfig(kubeconfig_flag);
  }
  const char* env = std::getenv("KUBECONFIG");  // NOLINT(concurrency-mt-unsafe)
  if (env != nullptr && *env != '\0') {
    std::string first(env);
    first = first.substr(0, first.find(':'));
    if (!first.empty()) {
      return loadKubeconfig(first);
    }
  }
  return inClusterConfig();
}

}  // namespace koord::k8s
