#!/usr/bin/env bash
# The pinned smoke run of run.sh: both sides on the first CPU this process may use (CPU 0 need not
# be in a container's cpuset). Fails when run.sh fails, does not report the pinning, or does not
# print the ceiling that kube-scheduler's own CPU time puts on the ratio.
# Usage: pinned_smoke.sh RUN_SH_ARGS...
set -euo pipefail
cpu="$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')"
out="$(bash "$(dirname "$0")/run.sh" --cpus "$cpu:$cpu" "$@")"
echo "$out"
grep -qx "cpus: control plane $cpu, kube-scheduler and koord-extender $cpu" <<<"$out" ||
  { echo "run.sh did not report the pinning to CPU $cpu" >&2; exit 1; }
grep -Eq '^ratio_ceiling_kube_scheduler_cpu: [0-9]+(\.[0-9]+)?$' <<<"$out" ||
  { echo "run.sh did not print ratio_ceiling_kube_scheduler_cpu" >&2; exit 1; }
