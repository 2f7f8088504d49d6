#include "extender/framework/plugin_status.hpp"

namespace koord::extender::framework {

std::string PluginStatus::message() const {
  std::string out;
  for (const auto& reason : reasons_) {
    if (!out.empty()) {
      out += ", ";
    }
    out += reason;
  }
  return out;
}

}  // namespace koord::extender::framework
