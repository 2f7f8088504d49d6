// ResourceExecutor: the one component of koord-agent that writes kernel cgroup files. QoS
// strategies, runtime hooks and the reconciler describe what they want as ResourceUpdates and
// hand them here; the implementation (CgroupResourceExecutor) confines them to the kubepods
// folder, skips unchanged writes, orders cpuset writes so the kernel accepts them, and audits
// every change.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "agent/resourceexecutor/cgroup_resource.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::resourceexecutor {

// One desired value of one logical resource of one cgroup.
struct ResourceUpdate {
  CgroupResource resource = CgroupResource::kCpuShares;
  // The cgroup folder, relative to a hierarchy root (cgroup_paths.hpp); must lie inside the
  // executor's kubepods folder.
  std::filesystem::path dir;
  // The value in cgroup v1 units (cgroup_resource.hpp).
  std::string value;
  // Why, for the audit log: who asked and on what grounds ("cpu_suppress: be usage 40%").
  std::string reason;
};

// Thread-safe: calls may come from any thread; they are applied one at a time.
class ResourceExecutor {
 public:
  virtual ~ResourceExecutor() = default;

  // Applies one update. Ok when written, or skipped because the same value was written before
  // and is still cached. kPermissionDenied "refusing to write '<file>': outside <kubepods>" when
  // `dir` is absolute, holds "..", or is not inside the kubepods folder; kInvalidArgument for a
  // value that breaks the resource's rules; otherwise the writer's error (cgroup_writer.hpp).
  [[nodiscard]] virtual Status update(const ResourceUpdate& update) = 0;

  // Applies every update, including those after a failed one. cpuset.cpus (and cpuset.mems)
  // updates of several levels are ordered so the kernel never sees a child that is not a
  // subset of its parent: first loosened top-down, then tightened bottom-up. Ok when all were
  // applied or skipped; else the first failure's code with the message "failed to apply <n> of
  // <m> updates: <first failure>".
  [[nodiscard]] virtual Status updateBatch(std::vector<ResourceUpdate> updates) = 0;

  // Drops what is cached for `dir` and every folder under it (a removed pod), so that the next
  // update of a folder with that name writes again.
  virtual void forget(const std::filesystem::path& dir) = 0;
};

}  // namespace koord::agent::resourceexecutor
