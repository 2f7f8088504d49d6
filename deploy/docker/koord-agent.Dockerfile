# koord-agent's image: the binary from the release preset (-O2, no tests) on Debian 12, with the
# Debian runtime libraries it links. Build from the repository root:
#   docker build -f deploy/docker/koord-agent.Dockerfile -t ghcr.io/koord/koord-agent:0.1.0 .
# It runs as root: it writes the host's cgroup files (see the chart's agent DaemonSet).
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
RUN cmake --preset release && cmake --build build/release --target koord-agent \
    && strip build/release/agent/koord-agent

FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ca-certificates libcurl4 libfmt9 libprometheus-cpp-core1.0 libspdlog1.10 \
      libssl3 libyaml-cpp0.7 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/release/agent/koord-agent /usr/local/bin/koord-agent
# On GPU nodes the NVIDIA container runtime mounts libnvidia-ml.so.1 (which the agent loads to
# report GPUs) into containers that ask for the driver's utility capability.
ENV NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=utility
USER 0
ENTRYPOINT ["/usr/local/bin/koord-agent"]
