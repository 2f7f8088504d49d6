// A temporary folder removed at the end of the test.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace koord::k8s::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "koord-k8s-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data()) != nullptr ? tmpl : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  // Writes `content` to <dir>/<name> and returns the full path.
  std::string write(const std::string& name, const std::string& content) const {
    const std::string full = path_ + "/" + name;
    std::ofstream(full, std::ios::binary | std::ios::trunc) << content;
    return full;
  }

 private:
  std::string path_;
};

}  // namespace koord::k8s::testing
