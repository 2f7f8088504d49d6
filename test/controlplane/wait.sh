# Sourced by cluster.sh and test/node/node-lib.sh.
# shellcheck shell=bash
# wait_started NAME PID TIMEOUT LOG CMD...: polls CMD (output dropped) every 0.2 s until it
# succeeds (status 0); fails (status 1) with LOG's last lines when PID exits first or after
# TIMEOUT seconds.
wait_started() {
  local name="$1" pid="$2" timeout="$3" log="$4"
  shift 4
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name exited during start-up; last log lines ($log):" >&2
      tail -n 30 "$log" >&2 || true
      return 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      echo "$name not ready after ${timeout}s; last log lines ($log):" >&2
      tail -n 30 "$log" >&2 || true
      return 1
    fi
    sleep 0.2
  done
}
