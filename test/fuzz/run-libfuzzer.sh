#!/usr/bin/env bash
# Bounded libFuzzer runs of every fuzz target (CI runs this after the tests). g++ has no libFuzzer,
# so the `fuzz` preset builds the targets with clang 14 (ASan + UBSan, coverage on all our code);
# each target then fuzzes for SECONDS (default 30) from a copy of its seed corpus, so the seeds in
# the repository never change. A crash, a sanitizer report or a leak fails the run; the input that
# caused it is left in build/fuzz/artifacts/ and named in the output.
#
#   bash test/fuzz/run-libfuzzer.sh [SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds="${1:-30}"
targets=(yaml_fuzz watch_decoder_fuzz protobuf_watch_decoder_fuzz protobuf_pod_fuzz extender_args_fuzz
         extender_binding_args_fuzz extender_preemption_args_fuzz agent_host_files_fuzz
         slo_controller_config_fuzz admission_review_fuzz device_decoder_fuzz
         cluster_input_fuzz agent_qos_inputs_fuzz numa_annotations_fuzz load_aware_args_fuzz
         descheduler_inputs_fuzz)
corpus_of() {
  case "$1" in
    yaml_fuzz) echo yaml ;;
    watch_decoder_fuzz) echo watch ;;
    admission_review_fuzz) echo admission_review_fuzz ;;
    load_aware_args_fuzz) echo numa_annotations ;;
    *) echo "${1%_fuzz}" ;;
  esac
}

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target "${targets[@]}"
work="build/fuzz/corpus-run"
artifacts="build/fuzz/artifacts"
rm -rf "$work"
mkdir -p "$work" "$artifacts"
for target in "${targets[@]}"; do
  seeds="test/fuzz/corpus/$(corpus_of "$target")"
  [ -d "$seeds" ] || { echo "run-libfuzzer: no seed corpus $seeds for $target" >&2; exit 1; }
  cp -r "$seeds" "$work/$target"
  echo "=== fuzz: $target for ${seconds}s"
  if ! "build/fuzz/test/fuzz/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -rss_limit_mb=2048 -artifact_prefix="$artifacts/$target-" -print_final_stats=1 \
      "$work/$target" > "build/fuzz/$target.log" 2>&1; then
    tail -40 "build/fuzz/$target.log"
    echo "run-libfuzzer: $target failed; the input is in $artifacts/" >&2
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^stat::new_units_added" "build/fuzz/$target.log" |
    tr '\n' ' '
  echo
done
echo "run-libfuzzer: ${#targets[@]} targets fuzzed for ${seconds}s each, no failure"
