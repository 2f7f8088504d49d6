# koord-descheduler's image: the binary from the release preset (-O2, no tests) on Debian 12, with
# the Debian runtime libraries it links. Build from the repository root:
#   docker build -f deploy/docker/koord-descheduler.Dockerfile -t ghcr.io/koord/koord-descheduler:0.1.0 .
# It runs as an unprivileged user (65532): it only talks to kube-apiserver.
# test/node/images.sh builds the same image without Docker (docs/install.md).
FROM debian:bookworm AS build
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      build-essential cmake ninja-build pkg-config \
      nlohmann-json3-dev libyaml-cpp-dev libspdlog-dev libfmt-dev prometheus-cpp-dev \
      libcurl4-openssl-dev libssl-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt CMakePresets.json ./
COPY cmake/ cmake/
COPY include/ include/
COPY src/ src/
COPY agent/ agent/
COPY extender/ extender/
COPY manager/ manager/
RUN cmake --preset release && cmake --build build/release --target koord-descheduler \
    && strip build/release/manager/koord-descheduler

FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ca-certificates libcurl4 libfmt9 libprometheus-cpp-core1.0 libspdlog1.10 \
      libssl3 libyaml-cpp0.7 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/release/manager/koord-descheduler /usr/local/bin/koord-descheduler
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/koord-descheduler"]
