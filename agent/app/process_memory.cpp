#include "agent/app/process_memory.hpp"

#include <cstdio>

namespace koord::agent::app {

int64_t currentRssBytes() {
  FILE* file = std::fopen("/proc/self/status", "r");
  if (file == nullptr) {
    return 0;
  }
  char line[256];
  int64_t kib = 0;
  while (std::fgets(line, sizeof(line), file) != nullptr) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) {
      break;
    }
  }
  std::fclose(file);
  return kib * 1024;
}

}  // namespace koord::agent::app
