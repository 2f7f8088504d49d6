#include "koord/common/thread_name.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace koord {
namespace {

// What the kernel shows for the calling thread (ps -L, top -H read the same file).
std::string kernelName() {
  std::ifstream comm("/proc/self/task/" + std::to_string(::syscall(SYS_gettid)) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

TEST(ThreadNameTest, TheKernelShowsTheName) {
  std::string seen_by_kernel;
  std::string seen_by_thread;
  std::thread worker([&] {
    nameThisThread("koord-http");
    seen_by_kernel = kernelName();
    seen_by_thread = thisThreadName();
  });
  worker.join();
  EXPECT_EQ(seen_by_kernel, "koord-http");
  EXPECT_EQ(seen_by_thread, "koord-http");
}

TEST(ThreadNameTest, ALongNameIsCutToFifteenBytes) {
  std::string seen;
  std::thread worker([&] {
    nameThisThread("watch-reservations");
    seen = kernelName();
  });
  worker.join();
  EXPECT_EQ(seen, "watch-reservati");
}

TEST(ThreadNameTest, NamingOneThreadLeavesTheOthersAlone) {
  const std::string before = thisThreadName();
  std::thread worker([] { nameThisThread("koord-pool"); });
  worker.join();
  EXPECT_EQ(thisThreadName(), before);
}

}  // namespace
}  // namespace koord
