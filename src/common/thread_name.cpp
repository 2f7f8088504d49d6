#include "koord/common/thread_name.hpp"

#include <pthread.h>

#include <array>

namespace koord {
namespace {

// Linux's TASK_COMM_LEN (16) with the terminating NUL.
constexpr std::size_t kMaxNameBytes = 15;

}  // namespace

void nameThisThread(std::string_view name) {
  const std::string cut(name.substr(0, kMaxNameBytes));
  (void)pthread_setname_np(pthread_self(), cut.c_str());
}

std::string thisThreadName() {
  std::array<char, kMaxNameBytes + 1> buffer{};
  if (pthread_getname_np(pthread_self(), buffer.data(), buffer.size()) != 0) {
    return "";
  }
  return buffer.data();
}

}  // namespace koord
