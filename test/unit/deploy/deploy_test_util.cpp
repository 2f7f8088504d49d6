#include "deploy_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "koord/config/file.hpp"

namespace koord::deploy_test {

std::string sourcePath(const std::string& relative) {
  return std::string(KOORD_SOURCE_DIR) + "/" + relative;
}

std::vector<std::string> yamlFiles(const std::string& relative_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sourcePath(relative_dir), ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      files.push_back(entry.path().filename().string());
    }
  }
  EXPECT_FALSE(ec) << relative_dir << ": " << ec.message();
  std::sort(files.begin(), files.end());
  return files;
}

std::string readSource(const std::string& relative) {
  Result<std::string> text = config::readFile(sourcePath(relative));
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : std::string();
}

std::vector<Manifest> loadManifests(const std::string& relative_dir) {
  std::vector<Manifest> out;
  for (const std::string& file : yamlFiles(relative_dir)) {
    const std::string text = readSource(relative_dir + "/" + file);
    auto docs = config::parseYamlDocuments(text, file);
    EXPECT_TRUE(docs.ok()) << docs.status();
    if (!docs.ok()) {
      continue;
    }
    for (size_t i = 0; i < docs->size(); ++i) {
      out.push_back(Manifest{file, static_cast<int>(i), std::move((*docs)[i])});
    }
  }
  return out;
}

testing::schema::CrdCatalog loadCatalog() {
  testing::schema::CrdCatalog catalog;
  for (const Manifest& crd : loadManifests("deploy/crds")) {
    Status status = catalog.add(crd.doc.value);
    EXPECT_TRUE(status.isOk()) << crd.file << ": " << status;
  }
  return catalog;
}

}  // namespace koord::deploy_test
