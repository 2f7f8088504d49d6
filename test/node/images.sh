#!/usr/bin/env bash
# Builds koord's container images without a Docker daemon and without a registry, with umoci
# (Debian's package), from binaries built on this machine:
#
#   images.sh BUILD_DIR OUT_DIR
#
#   ghcr.io/koord/koord-extender:<appVersion>   BUILD_DIR/extender/koord-extender
#   ghcr.io/koord/koord-agent:<appVersion>      BUILD_DIR/agent/koord-agent
#   ghcr.io/koord/koord-manager:<appVersion>    BUILD_DIR/manager/koord-manager
#   ghcr.io/koord/koord-descheduler:<appVersion> BUILD_DIR/manager/koord-descheduler
#   koord.local/kube-scheduler:<k8s version>    kube-scheduler from test/controlplane/build-binaries.sh
#   koord.local/pause:3.10                      test/node/pause.c, compiled here (static)
#   koord.local/spin:1.0                        test/node/spin.c (a one-CPU load for the tests)
#
# Each image holds the binary (stripped), the shared libraries `ldd` names for it (from this
# machine, Debian 12, which is what deploy/docker/*.Dockerfile's debian:bookworm-slim base holds),
# the NSS modules, /etc/passwd and /etc/group with root and nonroot (65532), /tmp, and the CA
# certificates: the same files the Dockerfiles give, with nothing downloaded. Writes one OCI
# archive per image, OUT_DIR/<name>.tar, whose single tag is the image's tag; import it with
#   ctr -n k8s.io images import --base-name <repository> OUT_DIR/<name>.tar
# (test/node/cluster-node.sh does). Prints one line per image: <archive> <repository> <tag>.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
[ $# -eq 2 ] || { echo "usage: images.sh BUILD_DIR OUT_DIR" >&2; exit 2; }
build="$(cd "$1" && pwd)"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
command -v umoci >/dev/null || { echo "images.sh: umoci is not installed (bash cmake/install-deps.sh)" >&2; exit 1; }

app_version="$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$repo/charts/koordinator/Chart.yaml")"
[ -n "$app_version" ] || { echo "images.sh: no appVersion in charts/koordinator/Chart.yaml" >&2; exit 1; }
k8s_bin="$(bash "$repo/test/controlplane/build-binaries.sh" | tail -n 1)"
k8s_bin="${k8s_bin%%:*}"
k8s_version="$(basename "$(dirname "$k8s_bin")")"
k8s_version="${k8s_version#k8s-}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# copy_with_libs ROOTFS BINARY DEST: the stripped binary at ROOTFS/DEST and every library ldd
# resolves for it at its own path (the dynamic loader included).
copy_with_libs() {
  local rootfs="$1" bin="$2" dest="$3"
  [ -x "$bin" ] || { echo "images.sh: $bin is missing (build it first)" >&2; exit 1; }
  install -D -m 0755 "$bin" "$rootfs$dest"
  strip "$rootfs$dest" 2>/dev/null || true
  local lib
  # ldd prints "name => /path (addr)" and "/lib64/ld-linux-x86-64.so.2 (addr)"; a static binary
  # prints "not a dynamic executable" (and exits 1).
  for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true); do
    [ -e "$lib" ] || continue
    install -D -m 0755 "$(readlink -f "$lib")" "$rootfs$lib"
  done
}

# base_files ROOTFS: what a minimal Debian base gives a program: users, NSS, CA certificates, /tmp.
base_files() {
  local rootfs="$1"
  mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/tmp" "$rootfs/usr/local/bin"
  chmod 1777 "$rootfs/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' \
    > "$rootfs/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$rootfs/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  local lib
  for lib in /lib/x86_64-linux-gnu/libnss_files.so.2 /lib/x86_64-linux-gnu/libnss_dns.so.2; do
    [ -e "$lib" ] && install -D -m 0755 "$(readlink -f "$lib")" "$rootfs$lib"
  done
  return 0
}

# image NAME REPOSITORY TAG USER ROOTFS_FILLER...: builds OUT_DIR/NAME.tar from the files the
# filler function puts into the rootfs; ENTRYPOINT is its last argument.
image() {
  local name="$1" repository="$2" tag="$3" user="$4" entrypoint="$5"
  shift 5
  local layout="$work/$name-layout" bundle="$work/$name-bundle"
  umoci init --layout "$layout"
  umoci new --image "$layout:$tag"
  umoci unpack --image "$layout:$tag" "$bundle" >/dev/null
  "$@" "$bundle/rootfs"
  umoci repack --image "$layout:$tag" "$bundle"
  umoci config --image "$layout:$tag" --os linux --architecture amd64 \
    --config.user "$user" --config.entrypoint "$entrypoint" \
    --config.env PATH=/usr/local/bin:/usr/bin:/bin --config.workingdir / \
    --author koord --history.comment "test/node/images.sh" >/dev/null
  umoci gc --layout "$layout"
  tar -C "$layout" -cf "$out/$name.tar" .
  echo "$out/$name.tar $repository $tag"
}

fill_extender() { base_files "$1"; copy_with_libs "$1" "$build/extender/koord-extender" /usr/local/bin/koord-extender; }
fill_agent() { base_files "$1"; copy_with_libs "$1" "$build/agent/koord-agent" /usr/local/bin/koord-agent; }
fill_manager() { base_files "$1"; copy_with_libs "$1" "$build/manager/koord-manager" /usr/local/bin/koord-manager; }
fill_descheduler() { base_files "$1"; copy_with_libs "$1" "$build/manager/koord-descheduler" /usr/local/bin/koord-descheduler; }
fill_scheduler() { base_files "$1"; copy_with_libs "$1" "$k8s_bin/kube-scheduler" /usr/local/bin/kube-scheduler; }
fill_pause() {
  gcc -Os -static -Wall -Wextra -Werror -o "$1/pause" "$here/pause.c"
  strip "$1/pause"
}
fill_spin() {
  gcc -Os -static -Wall -Wextra -Werror -o "$1/spin" "$here/spin.c"
  strip "$1/spin"
}

image koord-extender ghcr.io/koord/koord-extender "$app_version" 65532:65532 /usr/local/bin/koord-extender fill_extender
image koord-agent ghcr.io/koord/koord-agent "$app_version" 0:0 /usr/local/bin/koord-agent fill_agent
image koord-manager ghcr.io/koord/koord-manager "$app_version" 65532:65532 /usr/local/bin/koord-manager fill_manager
image koord-descheduler ghcr.io/koord/koord-descheduler "$app_version" 65532:65532 /usr/local/bin/koord-descheduler fill_descheduler
image kube-scheduler koord.local/kube-scheduler "$k8s_version" 65532:65532 /usr/local/bin/kube-scheduler fill_scheduler
image pause koord.local/pause 3.10 65535:65535 /pause fill_pause
image spin koord.local/spin 1.0 65532:65532 /spin fill_spin
