// What one API request costs koord's REST client in CPU (this process only; kube-apiserver's CPU
// is not counted): sequential POSTs of a SelfSubjectReview (a write path that stores nothing) to a
// real kube-apiserver, in blocks, printing the client's CPU microseconds per request (median of
// the blocks). Run by hand against a control plane (test/controlplane/cluster.sh); figures go to
// docs/extender-throughput-log.md ("One API request from koord-extender").
//
//   client_cost --kubeconfig FILE [--requests 4000] [--block 500]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "koord/k8s/config.hpp"
#include "koord/k8s/rest_client.hpp"

namespace {

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int usage() {
  std::fprintf(stderr, "usage: client_cost --kubeconfig FILE [--requests N] [--block N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string kubeconfig;
  long requests = 4000;
  long block = 500;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--kubeconfig") {
      kubeconfig = argv[i + 1];
    } else if (flag == "--requests") {
      requests = std::strtol(argv[i + 1], nullptr, 10);
    } else if (flag == "--block") {
      block = std::strtol(argv[i + 1], nullptr, 10);
    } else {
      return usage();
    }
  }
  if (kubeconfig.empty() || requests < 1 || block < 1 || (argc % 2) != 1) {
    return usage();
  }
  auto config = koord::k8s::loadKubeconfig(kubeconfig);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.status().message().c_str());
    return 1;
  }
  config->qps = 0;
  auto client = koord::k8s::RestClient::create(*config);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.status().message().c_str());
    return 1;
  }
  const std::string path = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
  const std::string body =
      R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})";
  std::vector<double> per_request_us;
  long done = 0;
  while (done < requests) {
    const long n = std::min(block, requests - done);
    const double start = processCpuSeconds();
    for (long i = 0; i < n; ++i) {
      auto reply = (*client)->request("POST", path, body, "application/json");
      if (!reply.ok()) {
        std::fprintf(stderr, "request failed: %s\n", reply.status().message().c_str());
        return 1;
      }
    }
    per_request_us.push_back((processCpuSeconds() - start) * 1e6 / static_cast<double>(n));
    done += n;
  }
  std::vector<double> sorted = per_request_us;
  std::sort(sorted.begin(), sorted.end());
  std::printf("blocks_us_per_request:");
  for (double v : per_request_us) {
    std::printf(" %.1f", v);
  }
  std::printf("\nmedian_client_cpu_us_per_request: %.1f\n", sorted[sorted.size() / 2]);
  std::printf("connections_opened: %llu\n",
              static_cast<unsigned long long>((*client)->connectionsOpened()));
  return 0;
}
