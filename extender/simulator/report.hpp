// Output of `koord-extender simulate`: the SimulationResult as a table for people, or as JSON or
// YAML for tools (the same data; schema in docs/simulator.md "Structured output").
//
// Quantities are Kubernetes quantity strings: cpu "1500m" or "2", memory and batch-memory binary
// ("4Gi"), batch-cpu its integer milli-core value ("4000"), pods an integer.
#pragma once

#include <ostream>

#include "extender/simulator/simulator.hpp"
#include "koord/api/codec.hpp"

namespace koord::extender::simulator {

// The structured form (the JSON document -o json prints).
[[nodiscard]] api::Json reportJson(const SimulationResult& result);

void writeTable(const SimulationResult& result, std::ostream& out);
void writeJson(const SimulationResult& result, std::ostream& out);
// YAML 1.2 (every string double-quoted, so any value reads back unchanged).
void writeYaml(const SimulationResult& result, std::ostream& out);

}  // namespace koord::extender::simulator
