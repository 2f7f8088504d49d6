// A leader election candidate for the integration test: contends for one Lease and reports on
// stdout, one flushed line each:
//   NEW_LEADER <identity>   the observed holder changed
//   LEADING <identity>      this process became leader
//   STOPPED <identity>      this process stopped leading (lease lost, or released after SIGTERM)
//   EXIT                    run() returned; the process exits 0 right after
// SIGTERM or SIGINT stop the elector (releasing the Lease when leading).
//
// Usage: leader_elector_main KUBECONFIG NAMESPACE LEASE IDENTITY LEASE_S RENEW_S RETRY_S
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/leader_election.hpp"
#include "koord/log/logger.hpp"

namespace {

void say(const std::string& line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

std::chrono::milliseconds secondsArg(const char* text) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::atof(text) * 1000));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s KUBECONFIG NAMESPACE LEASE IDENTITY LEASE_S RENEW_S RETRY_S\n",
                 argv[0]);
    return 2;
  }
  // Signals are taken by one thread with sigwait(); block them everywhere else first.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto config = koord::k8s::loadKubeconfig(argv[1]);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.status().toString().c_str());
    return 1;
  }
  auto rest = koord::k8s::RestClient::create(*config);
  if (!rest.ok()) {
    std::fprintf(stderr, "%s\n", rest.status().toString().c_str());
    return 1;
  }
  koord::k8s::RestApiClient client(
      std::shared_ptr<koord::k8s::RestClient>(std::move(rest).value()));

  const std::string identity = argv[4];
  koord::k8s::LeaderElectionConfig le;
  le.lease_namespace = argv[2];
  le.lease_name = argv[3];
  le.identity = identity;
  le.lease_duration = secondsArg(argv[5]);
  le.renew_deadline = secondsArg(argv[6]);
  le.retry_period = secondsArg(argv[7]);
  le.logger =
      koord::log::Logger(koord::log::LogSink::toStderr(), {}, "leader_elector_main." + identity);
  le.on_started_leading = [identity](const std::stop_token&) { say("LEADING " + identity); };
  le.on_stopped_leading = [identity] { say("STOPPED " + identity); };
  le.on_new_leader = [](const std::string& leader) { say("NEW_LEADER " + leader); };
  auto elector = koord::k8s::LeaderElector::create(client, std::move(le));
  if (!elector.ok()) {
    std::fprintf(stderr, "%s\n", elector.status().toString().c_str());
    return 1;
  }

  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    (*elector)->stop();
  });
  (*elector)->run();
  say("EXIT");
  // Wakes the signal thread when run() ended on its own (lease lost).
  kill(getpid(), SIGTERM);
  signal_thread.join();
  return 0;
}
