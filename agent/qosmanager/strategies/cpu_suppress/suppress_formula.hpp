// The arithmetic of koordlet's CPU suppress (qosmanager/plugins/cpusuppress/cpu_suppress.go and
// qosmanager/helpers/calculator.go), without I/O:
//
//   suppress(BE) = capacity × threshold/100
//                − Σ usage of non-BE pods
//                − Σ usage of non-BE host applications
//                − max(node used − Σ all pod usage − Σ all host app usage (≥ 0), node reserved)
//   with cpuSuppressMinPercent set: suppress = max(suppress, capacity × min/100)
//
// node reserved = max(the node.koordinator.sh/reservation annotation, kubelet reserved =
// capacity − allocatable): koordlet's GetNodeResourceReserved.
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "koord/api/core/node.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

inline constexpr int64_t kCfsPeriodUs = 100000;  // the kernel's default cpu.cfs_period_us
inline constexpr int64_t kMinCpusetCpus = 2;     // koordlet beMinCPUSetCores
inline constexpr int64_t kMinQuotaUs = 2000;     // koordlet beMinQuota
inline constexpr int64_t kUnlimitedQuota = -1;

// The CPU the node keeps for itself, in milli-cores.
struct NodeReservedCpu {
  // node.koordinator.sh/reservation: the size of reservedCPUs when set, else resources.cpu; 0
  // without the annotation or when it does not parse (then `problem` says why).
  int64_t annotation_milli = 0;
  // status.capacity.cpu − status.allocatable.cpu, at least 0; 0 when either is missing.
  int64_t kubelet_milli = 0;
  std::string problem;

  [[nodiscard]] int64_t milli() const {
    return annotation_milli > kubelet_milli ? annotation_milli : kubelet_milli;
  }
};

[[nodiscard]] NodeReservedCpu nodeReservedCpu(const api::core::Node& node);

struct SuppressInputs {
  int64_t capacity_milli = 0;
  int64_t threshold_percent = 0;
  std::optional<int64_t> min_percent;
  double ls_usage_cores = 0;        // Σ usage of non-BE pods
  double host_app_usage_cores = 0;  // Σ usage of non-BE host applications
  double system_usage_cores = 0;    // node − Σ pods − Σ host apps, at least 0
  int64_t node_reserved_milli = 0;
};

struct SuppressFigure {
  int64_t milli = 0;             // what BE may use; may be negative without a floor
  int64_t ls_milli = 0;          // the LS usage subtracted
  int64_t system_milli = 0;      // max(system usage, node reserved), subtracted
  std::optional<int64_t> floor;  // capacity × min/100 when cpuSuppressMinPercent is set
  bool floored = false;          // whether the floor decided the figure
};

// Usages are turned into milli-cores by truncation, as koordlet does (int64(cores × 1000)).
[[nodiscard]] SuppressFigure suppressFigure(const SuppressInputs& in);

// Policy cpuset: how many CPUs BE gets. ceil(suppress/1000), at least 2; at most
// `current` + ceil(10% × num_cpus) (increases are stepped, decreases immediate); never more than
// `candidates`.
[[nodiscard]] int64_t cpusetTarget(int64_t suppress_milli, int64_t current, int64_t num_cpus,
                                   int64_t candidates);

// Policy cfsQuota: what to write to the BE QoS dir's cpu.cfs_quota_us.
struct QuotaDecision {
  int64_t target = 0;            // max(suppress × period/1000, 2000), after the step limit
  std::optional<int64_t> write;  // the value to write; nullopt: skip
  std::string skipped;           // why nothing is written
  bool step_limited = false;     // the increase was cut to +10% of the node
};

// `current` is the quota written last (-1: unlimited). The write is skipped when
// |target − current| < 1% × cores × period (unless the target is the 2000 minimum) or when it is
// unchanged; an increase from a set quota is at most 10% × cores × period per run (from
// unlimited, the target is written at once: it is a decrease). `capacity_cores` is the node's cpu
// capacity rounded up.
[[nodiscard]] QuotaDecision cfsQuotaDecision(int64_t suppress_milli, int64_t current,
                                             int64_t capacity_cores);

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
