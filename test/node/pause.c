/*
 * The pod sandbox's process, compiled by test/node/images.sh into koord.local/pause: it holds the
 * pod's namespaces and does nothing else. As PID 1 of the pod it reaps the children it inherits
 * (when the pod shares its PID namespace) and exits 0 on SIGINT or SIGTERM, which is what
 * containerd sends to stop a sandbox.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) {
  (void)sig;
  _exit(0);
}

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction stop;
  memset(&stop, 0, sizeof stop);
  stop.sa_handler = on_stop;
  if (sigaction(SIGINT, &stop, NULL) < 0 || sigaction(SIGTERM, &stop, NULL) < 0) {
    return 1;
  }
  struct sigaction child;
  memset(&child, 0, sizeof child);
  child.sa_handler = on_child;
  child.sa_flags = SA_NOCLDSTOP;
  if (sigaction(SIGCHLD, &child, NULL) < 0) {
    return 1;
  }
  for (;;) {
    pause();
  }
  return EXIT_SUCCESS;
}
