// Kubeconfig, in-cluster and fallback configuration loading.
#include "koord/k8s/config.hpp"

#include <gtest/gtest.h>

#include <string>

#include "temp_dir.hpp"

namespace koord::k8s {
namespace {

using testing::TempDir;

constexpr const char* kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority: certs/ca.crt
- name: other
  cluster:
    server: https://10.0.0.1
    insecure-skip-tls-verify: true
    certificate-authority-data: Q0EtUEVN
contexts:
- name: admin
  context: {cluster: local, user: admin, namespace: team-a}
- name: robot
  context: {cluster: other, user: robot}
users:
- name: admin
  user:
    token: secret-token
- name: robot
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
)";

TEST(KubeconfigTest, CurrentContextWithTokenAndRelativeCaFile) {
  TempDir dir;
  const std::string path = dir.write("config", kTwoContexts);
  auto cfg = loadKubeconfig(path);
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->server, "https://127.0.0.1:6443");
  EXPECT_EQ(cfg->ca_file, dir.path() + "/certs/ca.crt");
  EXPECT_EQ(cfg->bearer_token, "secret-token");
  EXPECT_FALSE(cfg->insecure);
  EXPECT_EQ(cfg->default_namespace, "team-a");
  EXPECT_TRUE(cfg->cert_data.empty());
}

TEST(KubeconfigTest, NamedContextWithDataFields) {
  TempDir dir;
  auto cfg = loadKubeconfig(dir.write("config", kTwoContexts), "robot");
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->server, "https://10.0.0.1");
  EXPECT_TRUE(cfg->insecure);
  EXPECT_EQ(cfg->ca_data, "CA-PEM");
  EXPECT_EQ(cfg->cert_data, "CERT");
  EXPECT_EQ(cfg->key_data, "KEY");
  EXPECT_TRUE(cfg->bearer_token.empty());
}

TEST(KubeconfigTest, TokenFileAndClientCertFiles) {
  TempDir dir;
  auto cfg = loadKubeconfig(dir.write("config", R"({"current-context": "c",
    "clusters": [{"name": "k", "cluster": {"server": "http://localhost:8080"}}],
    "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}],
    "users": [{"name": "u", "user": {"tokenFile": "/run/token", "client-certificate": "a.crt",
                                     "client-key": "/abs/a.key"}}]})"));
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->token_file, "/run/token");
  EXPECT_EQ(cfg->cert_file, dir.path() + "/a.crt");
  EXPECT_EQ(cfg->key_file, "/abs/a.key");
}

TEST(KubeconfigTest, ErrorsNameFileAndField) {
  struct Case {
    const char* name;
    std::string yaml;
    std::string context;
    std::string want;
  };
  const std::string clusters =
      "clusters:\n- name: k\n  cluster: {server: 'https://h'}\nusers:\n- name: u\n  user: "
      "{token: t}\n";
  const Case cases[] = {
      {"no current context", clusters, "", "current-context"},
      {"unknown context", "current-context: x\n" + clusters, "", "context 'x' not found"},
      {"unknown named context", clusters, "y", "context 'y' not found"},
      {"unknown cluster",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: nope, user: u}\n" + clusters,
       "", "contexts[0].context.cluster (line 4): cluster 'nope' not found"},
      {"unknown user",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: nope}\n" + clusters,
       "", "user 'nope' not found"},
      {"bad base64",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: "
       "k\n  cluster: {server: 'https://h', certificate-authority-data: '!!'}\n",
       "", "clusters[0].cluster.certificate-authority-data (line 7): invalid base64"},
      {"server not a URL",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\nclusters:\n- name: "
       "k\n  cluster: {server: 'h:443'}\n",
       "", "clusters[0].cluster.server (line 7): expected an http:// or https:// URL"},
      {"exec plugin",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n- "
       "name: k\n  cluster: {server: 'https://h'}\nusers:\n- name: u\n  user:\n    exec: {}\n",
       "", "users[0].user.exec (line 11): not supported"},
      {"cert without key",
       "current-context: c\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nclusters:\n- "
       "name: k\n  cluster: {server: 'https://h'}\nusers:\n- name: u\n  user:\n    "
       "client-certificate: a.crt\n",
       "", "client-certificate given without client-key"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    const std::string path = dir.write("kc", c.yaml);
    auto cfg = loadKubeconfig(path, c.context);
    ASSERT_FALSE(cfg.ok());
    EXPECT_EQ(cfg.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(cfg.status().message().find("failed to load kubeconfig '" + path + "'"),
              std::string::npos)
        << cfg.status();
    EXPECT_NE(cfg.status().message().find(c.want), std::string::npos) << cfg.status();
  }
}

TEST(KubeconfigTest, MissingFileIsNotFound) {
  auto cfg = loadKubeconfig("/nonexistent/koord/kubeconfig");
  ASSERT_FALSE(cfg.ok());
  EXPECT_EQ(cfg.status().code(), StatusCode::kNotFound);
  EXPECT_NE(cfg.status().message().find("/nonexistent/koord/kubeconfig"), std::string::npos);
}

TEST(InClusterConfigTest, ReadsServiceAccount) {
  TempDir dir;
  InClusterEnv env;
  env.use_process_env = false;
  env.env = {{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}};
  env.token_file = dir.write("token", "tok\n");
  env.ca_file = dir.write("ca.crt", "PEM");
  env.namespace_file = dir.write("namespace", "koord-system\n");
  auto cfg = inClusterConfig(env);
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->server, "https://10.96.0.1:443");
  EXPECT_EQ(cfg->token_file, env.token_file);
  EXPECT_EQ(cfg->ca_file, env.ca_file);
  EXPECT_EQ(cfg->default_namespace, "koord-system");

  env.env["KUBERNETES_SERVICE_HOST"] = "fd00::1";
  cfg = inClusterConfig(env);
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->server, "https://[fd00::1]:443");
}

TEST(InClusterConfigTest, Failures) {
  TempDir dir;
  InClusterEnv env;
  env.use_process_env = false;
  auto cfg = inClusterConfig(env);
  ASSERT_FALSE(cfg.ok());
  EXPECT_EQ(cfg.status().code(), StatusCode::kFailedPrecondition);

  env.env = {{"KUBERNETES_SERVICE_HOST", "h"}, {"KUBERNETES_SERVICE_PORT", "1"}};
  env.token_file = dir.path() + "/missing";
  cfg = inClusterConfig(env);
  ASSERT_FALSE(cfg.ok());
  EXPECT_EQ(cfg.status().code(), StatusCode::kNotFound);
  EXPECT_NE(cfg.status().message().find(env.token_file), std::string::npos);
}

TEST(LoadConfigTest, FlagWins) {
  TempDir dir;
  auto cfg = loadConfig(dir.write("config", kTwoContexts));
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  EXPECT_EQ(cfg->server, "https://127.0.0.1:6443");
}

TEST(Base64Test, Decodes) {
  struct Case {
    std::string in;
    std::string want;
  };
  for (const auto& c : std::initializer_list<Case>{{"", ""},
                                                   {"YQ==", "a"},
                                                   {"YWI=", "ab"},
                                                   {"YWJj", "abc"},
                                                   {"YW\nJj", "abc"},
                                                   {"YQ", "a"}}) {
    auto out = decodeBase64(c.in);
    ASSERT_TRUE(out.ok()) << c.in;
    EXPECT_EQ(*out, c.want);
  }
  EXPECT_FALSE(decodeBase64("Y").ok());
  EXPECT_FALSE(decodeBase64("YQ==YQ").ok());
  EXPECT_FALSE(decodeBase64("a*b").ok());
}

}  // namespace
}  // namespace koord::k8s
