/*
 * A CPU load for the one-node cluster's tests, compiled by test/node/images.sh into
 * koord.local/spin: it spins on one CPU until it is stopped, so that what the kernel lets it
 * use (cpuacct, cpu.stat) shows the CPU limits set on its cgroup.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig) {
  (void)sig;
  stop = 1;
}

int main(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop;
  if (sigaction(SIGINT, &action, NULL) < 0 || sigaction(SIGTERM, &action, NULL) < 0) {
    return 1;
  }
  volatile unsigned long counter = 0;
  while (!stop) {
    ++counter;
  }
  return 0;
}
