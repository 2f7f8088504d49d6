#!/usr/bin/env bash
# The pinned smoke run of run.sh: both sides on the first CPU this process may use (CPU 0 need not
# be in a container's cpuset). Fails when run.sh fails, does not report the pinning, does not
# print the ceiling that kube-scheduler's own CPU time puts on the ratio, or does not split
# koord-extender's CPU by thread name.
# Usage: pinned_smoke.sh RUN_SH_ARGS...
set -euo pipefail
cpu="$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')"
out="$(bash "$(dirname "$0")/run.sh" --cpus "$cpu:$cpu" "$@" 2>&1)"
echo "$out"
grep -qx "cpus: control plane $cpu, kube-scheduler and koord-extender $cpu" <<<"$out" ||
  { echo "run.sh did not report the pinning to CPU $cpu" >&2; exit 1; }
grep -Eq '^ratio_ceiling_kube_scheduler_cpu: [0-9]+(\.[0-9]+)?$' <<<"$out" ||
  { echo "run.sh did not print ratio_ceiling_kube_scheduler_cpu" >&2; exit 1; }
# Both named by koord: the connection threads and the pod informer.
grep -E '^extender_cpu_by_thread_with_extender: ' <<<"$out" | grep -q 'koord-http=[0-9]' &&
  grep -E '^extender_cpu_by_thread_with_extender: ' <<<"$out" | grep -q 'watch-pods=[0-9]' ||
  { echo "run.sh did not split koord-extender's CPU by thread (koord-http, watch-pods)" >&2; exit 1; }
