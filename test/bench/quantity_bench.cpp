// Quantity hot paths: parse, compare, add, milliValue, toString (google benchmark).
#include <benchmark/benchmark.h>

#include <string_view>
#include <vector>

#include "koord/resource/quantity.hpp"

namespace koord::resource {
namespace {

// The values of Go's benchmarkQuantities() (quantity_test.go), as text.
const std::vector<std::string_view> kTexts = {"1Gi",   "1Ti", "1G",  "1G", "1m", "80m",
                                              "1080m", "0",   "1e9", "1n", "10P"};

std::vector<Quantity> quantities() {
  std::vector<Quantity> out;
  for (std::string_view text : kTexts) {
    out.push_back(*Quantity::parse(text));
  }
  return out;
}

void BM_Parse(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Quantity::parse(kTexts[i++ % kTexts.size()]));
  }
}
BENCHMARK(BM_Parse);

void BM_Compare(benchmark::State& state) {
  std::vector<Quantity> values = quantities();
  size_t i = 0;
  for (auto _ : state) {
    const Quantity& a = values[i % values.size()];
    const Quantity& b = values[(i + 3) % values.size()];
    ++i;
    benchmark::DoNotOptimize(a < b);
  }
}
BENCHMARK(BM_Compare);

void BM_Add(benchmark::State& state) {
  std::vector<Quantity> values = quantities();
  Quantity base = Quantity::fromInt(100);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(base.add(values[i++ % values.size()]));
  }
}
BENCHMARK(BM_Add);

void BM_MilliValue(benchmark::State& state) {
  std::vector<Quantity> values = quantities();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(values[i++ % values.size()].milliValue());
  }
}
BENCHMARK(BM_MilliValue);

void BM_ToString(benchmark::State& state) {
  std::vector<Quantity> values = quantities();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(values[i++ % values.size()].toString());
  }
}
BENCHMARK(BM_ToString);

}  // namespace
}  // namespace koord::resource

BENCHMARK_MAIN();
