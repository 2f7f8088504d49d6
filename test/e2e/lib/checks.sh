# Sourced by the end-to-end and device scripts: counting checks and waiting for a condition.
# Sets failures (0); the caller exits non-zero when it is above 0.
# shellcheck shell=bash
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# wait_for SECONDS DESCRIPTION COMMAND...: runs COMMAND (output dropped) every 0.2 s until it
# succeeds (status 0) or SECONDS pass (status 1, naming DESCRIPTION).
wait_for() {
  local seconds=$1 what=$2; shift 2
  for _ in $(seq 1 $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  echo "timed out after ${seconds}s waiting for $what"
  return 1
}
