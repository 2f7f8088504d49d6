#include "extender/plugins/node_numa_resource/numa_args.hpp"

#include <set>

#include "extender/plugins/common/args_decoder.hpp"

namespace koord::extender::plugins::node_numa_resource {

namespace {

void decodeStrategy(common::ArgsDecoder& decoder, const std::string& field, const api::Json* object,
                    ScoringStrategy& out) {
  if (object == nullptr)
    return;
  for (const auto& [key, value] : object->items()) {
    if (key == "type") {
      if (value == "LeastAllocated")
        out.most_allocated = false;
      else if (value == "MostAllocated")
        out.most_allocated = true;
      else
        decoder.addError(field + ".type",
                         "must be LeastAllocated or MostAllocated, got " + value.dump());
    } else if (key == "resources") {
      if (!value.is_array()) {
        decoder.addError(field + ".resources", "expected array");
        continue;
      }
      out.weights.clear();
      std::set<std::string> seen;
      for (size_t i = 0; i < value.size(); ++i) {
        const std::string path = field + ".resources[" + std::to_string(i) + "]";
        const api::Json& r = value[i];
        if (!r.is_object() || !r.contains("name") || !r["name"].is_string() ||
            r["name"].get<std::string>().empty()) {
          decoder.addError(path, "expected {name, weight} with a non-empty name");
          continue;
        }
        int64_t weight = 1;
        for (const auto& [rk, rv] : r.items()) {
          if (rk == "name")
            continue;
          if (rk != "weight") {
            decoder.addError(path + "." + rk, "unknown field");
            continue;
          }
          if (!rv.is_number_integer() || rv.get<int64_t>() < 1 || rv.get<int64_t>() > 100) {
            decoder.addError(path + ".weight", "must be an integer from 1 to 100");
            continue;
          }
          weight = rv.get<int64_t>();
        }
        const std::string name = r["name"].get<std::string>();
        if (!seen.insert(name).second) {
          decoder.addError(path + ".name", "duplicate resource " + name);
          continue;
        }
        out.weights.emplace_back(name, weight);
      }
    } else {
      decoder.addError(field + "." + key, "unknown field");
    }
  }
}

}  // namespace

Result<NodeNUMAResourceArgs> decodeArgs(const api::Json& args, const std::string& plugin) {
  NodeNUMAResourceArgs out;
  common::ArgsDecoder decoder(args, plugin);
  std::string policy;
  decoder.optionalString("defaultCPUBindPolicy", policy);
  if (policy == "FullPCPUs" || policy.empty())
    out.default_bind_policy = api::extension::CPUBindPolicy::kFullPCPUs;
  else if (policy == "SpreadByPCPUs")
    out.default_bind_policy = api::extension::CPUBindPolicy::kSpreadByPCPUs;
  else
    decoder.addError("defaultCPUBindPolicy",
                     "must be FullPCPUs or SpreadByPCPUs, got \"" + policy + "\"");
  decodeStrategy(decoder, "scoringStrategy", decoder.optionalObject("scoringStrategy"),
                 out.scoring);
  decodeStrategy(decoder, "numaScoringStrategy", decoder.optionalObject("numaScoringStrategy"),
                 out.numa_scoring);
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

}  // namespace koord::extender::plugins::node_numa_resource
