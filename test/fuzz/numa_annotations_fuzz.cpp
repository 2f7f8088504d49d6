// Fuzz target for the CPU / NUMA annotation decoders (koord/api/extension/numa_aware.hpp,
// cpu_topology.hpp, node_reservation.hpp), the NodeResourceTopology decoder, the Linux CPU list
// parser, and the CPU accumulator the NodeNUMAResource plugin runs on a decoded topology. Any
// input must give a value or an error, never a crash. Checked for every input:
//  - a decoded annotation formats to a value that decodes again to the same value (the same for
//    NodeResourceTopology's toJson and a CpuSet's toString);
//  - where the input decodes as node.koordinator.sh/cpu-topology with at most 256 CPUs, takeCPUs
//    for n in {1, 2 + size % 7}, with each CPU bind policy and both NUMA strategies, succeeds
//    exactly when n CPUs are free, and then gives n CPUs, all free ones of the topology.
//
// Input: one annotation value, fed to every decoder. The models keep unknown keys, so one JSON
// object can be a CPU topology, a node reservation (its reservedCPUs are not free), a resource
// spec (its preferredCPUExclusivePolicy is the request's) and a resource status (its cpuset is
// taken, with that exclusive policy) at once.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "extender/plugins/node_numa_resource/cpu_accumulator.hpp"
#include "extender/plugins/node_numa_resource/cpu_topology_details.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace {

namespace ext = koord::api::extension;
namespace nnr = koord::extender::plugins::node_numa_resource;
using koord::cpuset::CpuSet;

constexpr size_t kMaxTopologyCPUs = 256;

// parse(format(parse(input))) must equal parse(input); returns the first decode.
template <typename T, typename Parse, typename Format>
koord::Result<T> checkRoundTrip(std::string_view input, Parse parse, Format format) {
  koord::Result<T> decoded = parse(input);
  if (decoded.ok()) {
    koord::Result<T> again = parse(format(*decoded));
    if (!again.ok() || !(*again == *decoded)) {
      std::abort();  // an annotation that does not survive its own encoding
    }
  }
  return decoded;
}

void checkNodeResourceTopology(std::string_view input) {
  auto json = koord::api::parseJson(input);
  if (!json.ok()) {
    return;
  }
  koord::api::topology::NodeResourceTopology nrt;
  if (!koord::api::topology::fromJson(*json, nrt, "").isOk()) {
    return;
  }
  koord::api::topology::NodeResourceTopology again;
  if (!koord::api::topology::fromJson(koord::api::topology::toJson(nrt), again, "").isOk() ||
      !(again == nrt)) {
    std::abort();
  }
}

void checkCpuSet(std::string_view input) {
  for (auto parsed : {CpuSet::parse(input), CpuSet::parse(input, 256)}) {
    if (!parsed.ok()) {
      continue;
    }
    auto again = CpuSet::parse(parsed->toString());
    if (!again.ok() || again->cpus() != parsed->cpus()) {
      std::abort();  // toString() must print what parse() reads back
    }
  }
}

// The CPUs a (decoded, valid) cpuset string names; empty when it does not parse.
CpuSet cpusOf(const std::string& text) {
  auto parsed = CpuSet::parse(text);
  return parsed.ok() ? *parsed : CpuSet();
}

void checkTakeCPUs(const ext::CPUTopology& nrt, const koord::Result<ext::NodeReservation>& reserved,
                   const koord::Result<ext::ResourceSpec>& spec,
                   const koord::Result<ext::ResourceStatus>& status, size_t inputSize) {
  const nnr::CPUTopologyDetails topology = nnr::CPUTopologyDetails::fromNRT(nrt);
  const ext::CPUExclusivePolicy exclusivePolicy =
      spec.ok() ? spec->preferredCPUExclusivePolicy.value_or(ext::CPUExclusivePolicy::kNone)
                : ext::CPUExclusivePolicy::kNone;
  nnr::AllocatedCPUs allocated;
  const CpuSet taken = status.ok() ? cpusOf(status->cpuset) : CpuSet();
  for (int cpu : taken.cpus()) {
    allocated[cpu] = nnr::AllocatedCPU{.refCount = 1, .exclusivePolicy = exclusivePolicy};
  }
  const CpuSet available =
      topology.cpus()
          .difference(reserved.ok() ? cpusOf(reserved->reservedCPUs) : CpuSet())
          .difference(taken);
  const int numAvailable = static_cast<int>(available.size());
  for (int n : {1, 2 + static_cast<int>(inputSize % 7)}) {
    for (ext::CPUBindPolicy bind :
         {ext::CPUBindPolicy::kDefault, ext::CPUBindPolicy::kFullPCPUs,
          ext::CPUBindPolicy::kSpreadByPCPUs, ext::CPUBindPolicy::kConstrainedBurst}) {
      for (nnr::NUMAAllocateStrategy strategy : {nnr::NUMAAllocateStrategy::kMostAllocated,
                                                 nnr::NUMAAllocateStrategy::kLeastAllocated}) {
        auto result = nnr::takeCPUs(topology, /*maxRefCount=*/1, available, allocated, n, bind,
                                    exclusivePolicy, strategy);
        if (result.ok() != (n <= numAvailable)) {
          std::abort();  // failed with enough free CPUs, or succeeded without them
        }
        if (!result.ok()) {
          if (result.status().code() != koord::StatusCode::kResourceExhausted) {
            std::abort();
          }
          continue;
        }
        if (static_cast<int>(result->size()) != n || !result->isSubsetOf(available)) {
          std::abort();  // not exactly n CPUs, or one that is not free in the topology
        }
        for (int cpu : result->cpus()) {
          if (topology.find(cpu) == nullptr) {
            std::abort();
          }
        }
      }
    }
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  const auto spec =
      checkRoundTrip<ext::ResourceSpec>(input, ext::parseResourceSpec, ext::formatResourceSpec);
  const auto status = checkRoundTrip<ext::ResourceStatus>(input, ext::parseResourceStatus,
                                                          ext::formatResourceStatus);
  (void)checkRoundTrip<ext::NUMATopologySpec>(input, ext::parseNUMATopologySpec,
                                              ext::formatNUMATopologySpec);
  const auto topology =
      checkRoundTrip<ext::CPUTopology>(input, ext::parseCPUTopology, ext::formatCPUTopology);
  (void)checkRoundTrip<std::vector<ext::CPUSharedPool>>(input, ext::parseCPUSharedPools,
                                                        ext::formatCPUSharedPools);
  (void)checkRoundTrip<std::vector<ext::CPUSharedPool>>(input, ext::parseBECPUSharedPools,
                                                        ext::formatCPUSharedPools);
  (void)checkRoundTrip<std::vector<ext::PodCPUAlloc>>(input, ext::parsePodCPUAllocs,
                                                      ext::formatPodCPUAllocs);
  (void)checkRoundTrip<ext::KubeletCPUManagerPolicy>(input, ext::parseKubeletCPUManagerPolicy,
                                                     ext::formatKubeletCPUManagerPolicy);
  const auto reservation = checkRoundTrip<ext::NodeReservation>(input, ext::parseNodeReservation,
                                                                ext::formatNodeReservation);
  (void)checkRoundTrip<ext::SystemQOSResource>(input, ext::parseSystemQOSResource,
                                               ext::formatSystemQOSResource);
  checkNodeResourceTopology(input);
  checkCpuSet(input);

  if (topology.ok() && topology->detail.size() <= kMaxTopologyCPUs) {
    checkTakeCPUs(*topology, reservation, spec, status, size);
  }
  return 0;
}
