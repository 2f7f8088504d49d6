#!/usr/bin/env bash
# Builds, once per machine, the real control-plane binaries koord's tests run against, from the Go
# module proxy through the wrapper modules in gomod/: etcd, kube-apiserver, kube-scheduler,
# kube-controller-manager, kubectl, helm and kwok (fake kubelets), version-stamped, into a cache keyed by version:
#   ${KOORD_CACHE:-~/.cache/koord}/k8s-<ver>/bin, etcd-<ver>/bin, helm-<ver>/bin, kwok-<ver>/bin
# With --node, also what a real node runs (test/node): kubelet and kube-proxy into k8s-<ver>/bin,
# and containerd, ctr and containerd-shim-runc-v2 into containerd-<ver>/bin. runc and the CNI
# plugins are Debian's packages (cmake/install-deps.sh).
# A binary already in the cache is not rebuilt, so a second run costs seconds.
# Prints the bin directories' path as the last line (`export PATH=...` friendly; k8s first, then
# etcd, helm, kwok and, with --node, containerd).
# Environment: KOORD_CACHE (cache root), KOORD_GO_PARALLEL (go build -p, default 2).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${KOORD_CACHE:-$HOME/.cache/koord}"
parallel="${KOORD_GO_PARALLEL:-2}"

K8S_VERSION=v1.36.3
ETCD_VERSION=v3.6.16
HELM_VERSION=v3.22.0
KWOK_VERSION=v0.8.0
CONTAINERD_VERSION=v2.4.2

node=0
case "${1:-}" in
  --node) node=1 ;;
  "") ;;
  *) echo "usage: build-binaries.sh [--node]" >&2; exit 2 ;;
esac

command -v go >/dev/null || { echo "build-binaries: go is not installed" >&2; exit 1; }
export CGO_ENABLED=0 GOFLAGS=-mod=mod

# build <module dir> <out dir> <ldflags> <package>...
build() {
  local mod="$1" out="$2" ldflags="$3"
  shift 3
  local missing=()
  for pkg in "$@"; do
    [ -x "$out/$(basename "$pkg")" ] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  mkdir -p "$out"
  local tmp
  tmp="$(mktemp -d)"
  cp "$here/gomod/$mod/go.mod" "$here/gomod/$mod/go.sum" "$tmp/"
  echo "build-binaries: building ${missing[*]} -> $out" >&2
  (cd "$tmp" && go build -p "$parallel" -trimpath -ldflags "$ldflags" -o "$out/" "${missing[@]}")
  rm -rf "$tmp"
}

minor="${K8S_VERSION#v1.}"; minor="${minor%%.*}"
k8s_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  k8s_ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done
# etcd's main package is the module root go.etcd.io/etcd/server/v3, which go names "server".
etcd_bin="$cache/etcd-$ETCD_VERSION/bin"
if [ ! -x "$etcd_bin/etcd" ]; then
  build etcd "$etcd_bin" "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=koord" \
    go.etcd.io/etcd/server/v3
  mv "$etcd_bin/server" "$etcd_bin/etcd"
fi
build kubernetes "$cache/k8s-$K8S_VERSION/bin" "$k8s_ldflags" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler \
  k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kubectl
build helm "$cache/helm-$HELM_VERSION/bin" \
  "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$minor" \
  helm.sh/helm/v3/cmd/helm

build kwok "$cache/kwok-$KWOK_VERSION/bin" \
  "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION" sigs.k8s.io/kwok/cmd/kwok

path="$cache/k8s-$K8S_VERSION/bin:$cache/etcd-$ETCD_VERSION/bin:$cache/helm-$HELM_VERSION/bin:$cache/kwok-$KWOK_VERSION/bin"
if [ $node -eq 1 ]; then
  # Static (CGO off) like the rest: kubelet's cgo parts are optional, and containerd then leaves
  # out the btrfs snapshotter, which the one-node cluster does not use (it uses overlayfs).
  build kubernetes "$cache/k8s-$K8S_VERSION/bin" "$k8s_ldflags" \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy
  build containerd "$cache/containerd-$CONTAINERD_VERSION/bin" \
    "-s -w -X github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION" \
    github.com/containerd/containerd/v2/cmd/containerd github.com/containerd/containerd/v2/cmd/ctr \
    github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2
  path+=":$cache/containerd-$CONTAINERD_VERSION/bin"
fi
echo "$path"
