// The pod mutating webhook over HTTPS on loopback, as kube-apiserver calls it: cert::WebhookServer
// on 127.0.0.1 with a certificate made by generateCa/generateServing (ECDSA P-256) and written
// with CertDir, webhook::PodMutatingHandler mounted through webhook::serveAdmission exactly as
// manager/app/webhooks.cpp mounts it, and libcurl (trusting only the CA, checking the name
// 127.0.0.1) POSTing the in-process bench's AdmissionReview (mutate_review.hpp, a 4.6 KB body).
// Target (issue #33): p99 <= 5 ms.
//
// BM_MutatePodHttpsKeepAlive: one connection for every request (kube-apiserver keeps its
// connections to a webhook alive). BM_MutatePodHttpsNewConnection: a new connection and a full
// TLS handshake per request (no session resumption; kube-apiserver's first call, or a call after
// the connection was dropped).
//
// Each request is timed by hand from the POST to the last byte of the reply: p50_us, p99_us,
// max_us; every reply is checked to be 200 with a patch.
//
//   manager_webhook_https_bench --benchmark_min_time=5 --benchmark_repetitions=3
#include <benchmark/benchmark.h>
#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "manager/cert/cert_dir.hpp"
#include "manager/cert/certificates.hpp"
#include "manager/cert/webhook_server.hpp"
#include "manager/webhook/pod_mutating.hpp"
#include "manager/webhook/review_io.hpp"
#include "test/unit/manager/webhook/mutate_review.hpp"

namespace koord::manager::cert {
namespace {

namespace fs = std::filesystem;

double percentile(std::vector<double>& values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * values.size()))];
}

size_t appendTo(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// The server with the mutating webhook on a fresh certificate; the CA's file for the client.
class HttpsWebhook {
 public:
  HttpsWebhook()
      : dir_(fs::temp_directory_path() /
             ("koord-webhook-https-bench-" + std::to_string(::getpid()))) {
    const auto now = std::chrono::system_clock::now();
    auto ca = generateCa("koord-bench-ca", now);
    auto serving = ca.ok() ? generateServing(*ca, {"koord-manager", {"127.0.0.1"}}, now)
                           : Result<KeyPair>(ca.status());
    if (!serving.ok()) {
      error_ = serving.status().toString();
      return;
    }
    const CertDir certs(dir_.string());
    if (auto written = certs.write(*serving); !written.ok()) {
      error_ = written.status().toString();
      return;
    }
    std::ofstream(caFile()) << ca->cert;

    const webhook::testing::FakeCluster cluster = webhook::bench::cluster();
    auto sources = cluster.sources();
    sources.randomIntn = webhook::defaultRandomIntn();
    handler_ = std::make_unique<webhook::PodMutatingHandler>(sources, log::Logger());

    WebhookServerOptions options;
    options.address = "127.0.0.1";
    options.port = 0;
    options.cert_file = certs.certFile();
    options.key_file = certs.keyFile();
    auto server = WebhookServer::create(options);
    if (!server.ok()) {
      error_ = server.status().toString();
      return;
    }
    server_ = std::move(server).value();
    const webhook::AdmissionHandler* h = handler_.get();
    Status status = server_->handle(h->path(), [h](std::string_view body) {
      webhook::WebhookReply reply = webhook::serveAdmission(*h, body);
      return WebhookReply{reply.http_status, std::move(reply.body)};
    });
    if (status.isOk()) {
      status = server_->certificateWritten();
    }
    if (!status.isOk()) {
      error_ = status.toString();
    }
  }

  ~HttpsWebhook() {
    server_.reset();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] std::string caFile() const { return (dir_ / "ca.crt").string(); }
  [[nodiscard]] std::string url() const {
    return "https://127.0.0.1:" + std::to_string(server_->port()) + "/mutate-pod";
  }

 private:
  fs::path dir_;
  std::string error_;
  std::unique_ptr<webhook::PodMutatingHandler> handler_;
  std::unique_ptr<WebhookServer> server_;
};

void runMutate(benchmark::State& state, bool new_connection) {
  HttpsWebhook webhook;
  if (!webhook.error().empty()) {
    state.SkipWithError(webhook.error().c_str());
    return;
  }
  const std::string body = webhook::bench::reviewBody();
  const std::string url = webhook.url();
  const std::string ca_file = webhook.caFile();
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  std::string reply;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_CAINFO, ca_file.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &appendTo);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &reply);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  if (new_connection) {
    curl_easy_setopt(curl.get(), CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(curl.get(), CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(curl.get(), CURLOPT_SSL_SESSIONID_CACHE, 0L);
  }
  std::vector<double> micros;
  std::string failure;
  long connects = 0;
  for (auto _ : state) {
    reply.clear();
    const auto start = std::chrono::steady_clock::now();
    const CURLcode code = curl_easy_perform(curl.get());
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    long status = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    long new_connects = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_NUM_CONNECTS, &new_connects);
    connects += new_connects;
    if (code != CURLE_OK || status != 200 || reply.find("\"patch\"") == std::string::npos) {
      failure = "request failed: " + std::string(curl_easy_strerror(code)) + ", HTTP " +
                std::to_string(status) + ": " + reply.substr(0, 200);
      break;
    }
  }
  curl_slist_free_all(headers);
  if (!failure.empty()) {
    state.SkipWithError(failure.c_str());
    return;
  }
  state.counters["p50_us"] = percentile(micros, 0.50);
  state.counters["p99_us"] = percentile(micros, 0.99);
  state.counters["max_us"] = micros.back();
  state.counters["connections"] = static_cast<double>(connects);
  state.counters["body_bytes"] = static_cast<double>(body.size());
  state.counters["reply_bytes"] = static_cast<double>(reply.size());
}

void BM_MutatePodHttpsKeepAlive(benchmark::State& state) {
  runMutate(state, false);
}
BENCHMARK(BM_MutatePodHttpsKeepAlive)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_MutatePodHttpsNewConnection(benchmark::State& state) {
  runMutate(state, true);
}
BENCHMARK(BM_MutatePodHttpsNewConnection)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace koord::manager::cert

int main(int argc, char** argv) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  curl_global_cleanup();
  return 0;
}
