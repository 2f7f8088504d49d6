#!/usr/bin/env bash
# Builds, once per machine, the community descheduler (sigs.k8s.io/descheduler) that
# test/e2e/descheduler/upstream/ runs beside koord-descheduler, into a cache keyed by version:
#   ${KOORD_CACHE:-~/.cache/koord}/descheduler-<ver>/descheduler
# The source is the module itself (from the Go module cache, or the module proxy when absent),
# built with its own go.mod/go.sum; the module has a replace directive, so `go install pkg@ver`
# cannot build it and the module is copied into a scratch directory first.
# A binary already in the cache is not rebuilt. Prints the binary's path as the last line.
# Exit status: 0 on success; 1 with "build-descheduler: ..." on stderr when go is missing, the
# module cannot be downloaded or the build fails (go's own output comes before it).
# Environment: KOORD_CACHE (cache root), KOORD_GO_PARALLEL (go build -p, default 2).
set -euo pipefail
cache="${KOORD_CACHE:-$HOME/.cache/koord}"
parallel="${KOORD_GO_PARALLEL:-2}"

DESCHEDULER_VERSION=v0.36.0
module=sigs.k8s.io/descheduler

out="$cache/descheduler-$DESCHEDULER_VERSION"
bin="$out/descheduler"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

die() { echo "build-descheduler: $*" >&2; exit 1; }
command -v go >/dev/null || die "go is not installed"
export CGO_ENABLED=0 GOFLAGS=-mod=mod

src="$(go env GOMODCACHE)/$module@$DESCHEDULER_VERSION"
if [ ! -f "$src/go.mod" ]; then
  go mod download "$module@$DESCHEDULER_VERSION" ||
    die "cannot download $module@$DESCHEDULER_VERSION from GOPROXY=$(go env GOPROXY)"
fi
[ -f "$src/go.mod" ] || die "$src/go.mod missing after go mod download"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/." "$tmp/src"
chmod -R u+w "$tmp/src"
mkdir -p "$out"
ver_pkg="$module/pkg/version"
# The release's version format (v<date>-<tag>), which the binary parses for its skew check.
ldflags="-s -w -X $ver_pkg.version=v19700101-$DESCHEDULER_VERSION -X $ver_pkg.buildDate=1970-01-01T00:00:00Z"
ldflags+=" -X $ver_pkg.gitbranch=release-${DESCHEDULER_VERSION%.*} -X $ver_pkg.gitsha1=unknown"
echo "build-descheduler: building $module/cmd/descheduler@$DESCHEDULER_VERSION -> $bin" >&2
start=$SECONDS
# Into a temporary name first, so an interrupted build never leaves a half-written binary.
(cd "$tmp/src" && go build -p "$parallel" -trimpath -ldflags "$ldflags" -o "$tmp/descheduler" \
  ./cmd/descheduler) || die "go build of $module/cmd/descheduler@$DESCHEDULER_VERSION failed (see above)"
mv "$tmp/descheduler" "$bin"
echo "build-descheduler: built in $((SECONDS - start)) s" >&2
echo "$bin"
