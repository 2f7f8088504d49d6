// Loading the manifests of deploy/ for the deploy tests.
#pragma once

#include <string>
#include <vector>

#include "koord/config/yaml.hpp"
#include "test/support/schema/crd.hpp"

namespace koord::deploy_test {

struct Manifest {
  std::string file;  // file name, e.g. "reservation.yaml"
  int index = 0;     // document index within the file
  config::YamlDocument doc;
};

// "<KOORD_SOURCE_DIR>/<relative>".
std::string sourcePath(const std::string& relative);

// The *.yaml files of a directory under the source tree, sorted by name.
std::vector<std::string> yamlFiles(const std::string& relative_dir);

// Every document of every *.yaml file of the directory; a parse failure is a test failure.
std::vector<Manifest> loadManifests(const std::string& relative_dir);

// A catalog of every CRD in deploy/crds/ (test failure when one does not load).
testing::schema::CrdCatalog loadCatalog();

// Reads a file under the source tree (test failure when it cannot).
std::string readSource(const std::string& relative);

}  // namespace koord::deploy_test
