#!/usr/bin/env bash
# The pinned smoke run of run.sh: both sides on the first CPU this process may use (CPU 0 need not
# be in a container's cpuset). Fails when run.sh fails, does not report the pinning, does not
# print the ceiling that kube-scheduler's own CPU time puts on the ratio, does not split
# koord-extender's CPU by thread name, does not count each run's bindings, accepted connections and
# retried pods, or does not report the node Lease duration; with --floor-extender, also when the
# floor's run is missing or did not bind every pod.
# Usage: pinned_smoke.sh RUN_SH_ARGS... (with --pods N of at least 10: the request counts leave out
# smaller ones)
set -euo pipefail
cpu="$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')"
out="$(bash "$(dirname "$0")/run.sh" --cpus "$cpu:$cpu" "$@" 2>&1)" ||
  { echo "$out"; echo "run.sh failed" >&2; exit 1; }
echo "$out"
grep -qx "cpus: control plane $cpu, kube-scheduler and koord-extender $cpu" <<<"$out" ||
  { echo "run.sh did not report the pinning to CPU $cpu" >&2; exit 1; }
grep -Eq '^ratio_ceiling_kube_scheduler_cpu: [0-9]+(\.[0-9]+)?$' <<<"$out" ||
  { echo "run.sh did not print ratio_ceiling_kube_scheduler_cpu" >&2; exit 1; }
# Both named by koord: the connection threads and the pod informer.
grep -E '^extender_cpu_by_thread_with_extender: ' <<<"$out" | grep -q 'koord-http=[0-9]' &&
  grep -E '^extender_cpu_by_thread_with_extender: ' <<<"$out" | grep -q 'watch-pods=[0-9]' ||
  { echo "run.sh did not split koord-extender's CPU by thread (koord-http, watch-pods)" >&2; exit 1; }
# What kube-apiserver served in each run: every pod bound once, whichever side sent the binding.
pods="$(sed -n 's/^pods: //p' <<<"$out" | head -1)"
sides=(without_extender with_extender)
for arg in "$@"; do [ "$arg" = --floor-extender ] && sides+=(with_floor_extender); done
if [ ${#sides[@]} -eq 3 ]; then
  grep -Eq '^ratio_floor_over_without: [0-9]+(\.[0-9]+)?$' <<<"$out" ||
    { echo "run.sh did not print ratio_floor_over_without" >&2; exit 1; }
fi
for side in "${sides[@]}"; do
  grep -E "^apiserver_requests_$side: " <<<"$out" | grep -Eq "(^| )POST:pods/binding=$pods( |$)" ||
    { echo "run.sh did not count $pods bindings in kube-apiserver's requests ($side)" >&2; exit 1; }
  grep -Eq "^tcp_connections_accepted_$side: [0-9]+$" <<<"$out" ||
    { echo "run.sh did not count the connections accepted ($side)" >&2; exit 1; }
  grep -Eq "^scheduling_errors_$side: [0-9]+" <<<"$out" ||
    { echo "run.sh did not count the pods kube-scheduler retried ($side)" >&2; exit 1; }
done
lease=40
args=("$@")
for i in "${!args[@]}"; do
  [ "${args[$i]}" = --node-lease-seconds ] && lease="${args[$((i + 1))]}"
done
grep -q "^kwok: kwok-nodes-only, node leases of $lease s$" <<<"$out" ||
  { echo "run.sh did not report the node Lease duration it was given ($lease s)" >&2; exit 1; }
