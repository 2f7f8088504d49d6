#!/usr/bin/env bash
# koord's main job on a fresh Debian 12 machine: installs the dependencies, builds the `release`
# preset and runs the programs. Until `koord-extender simulate` lands, that means each program's
# --version and --help.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash cmake/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target koord-extender koord-agent koord-manager

for prog in extender/koord-extender agent/koord-agent manager/koord-manager; do
  echo "================================================================"
  "build/release/$prog" --version
  "build/release/$prog" --help
done
