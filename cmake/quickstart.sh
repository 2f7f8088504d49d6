#!/usr/bin/env bash
# koord's main job on a fresh Debian 12 machine: installs the dependencies, builds the `release`
# preset and runs `koord-extender simulate` on the example cluster of deploy/examples/simulator/:
# where kube-scheduler with koord-extender would place each pending pod, why the others fit
# nowhere, and what every node then holds. Extra arguments go to the simulator (e.g. -o yaml, or
# -f your-cluster.yaml instead of the example).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash cmake/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target koord-extender koord-agent koord-manager

build/release/extender/koord-extender --version
if [ $# -eq 0 ]; then
  set -- -f deploy/examples/simulator/cluster.yaml
fi
exec build/release/extender/koord-extender simulate "$@"
