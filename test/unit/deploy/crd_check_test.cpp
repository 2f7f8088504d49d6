// koord::testing::schema::checkCrd() and CrdCatalog on hand-made CRDs.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "test/support/schema/crd.hpp"

namespace koord::testing::schema {
namespace {

Json goodCrd() {
  Json schema = {
      {"type", "object"},
      {"properties",
       {{"apiVersion", {{"type", "string"}}},
        {"kind", {{"type", "string"}}},
        {"metadata", {{"type", "object"}}},
        {"spec", {{"type", "object"}, {"properties", {{"size", {{"type", "integer"}}}}}}},
        {"status", {{"type", "object"}, {"properties", {{"phase", {{"type", "string"}}}}}}}}}};
  Json version = {
      {"name", "v1alpha1"},
      {"served", true},
      {"storage", true},
      {"schema", {{"openAPIV3Schema", schema}}},
      {"subresources", {{"status", Json::object()}}},
      {"additionalPrinterColumns",
       Json::array(
           {{{"name", "Phase"}, {"type", "string"}, {"jsonPath", ".status.phase"}},
            {{"name", "Age"}, {"type", "date"}, {"jsonPath", ".metadata.creationTimestamp"}}})}};
  return Json{{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"metadata", {{"name", "widgets.example.koordinator.sh"}}},
              {"spec",
               {{"group", "example.koordinator.sh"},
                {"names",
                 {{"kind", "Widget"},
                  {"listKind", "WidgetList"},
                  {"plural", "widgets"},
                  {"singular", "widget"},
                  {"shortNames", {"wdg"}}}},
                {"scope", "Cluster"},
                {"versions", Json::array({version})}}}};
}

struct CrdCase {
  std::string name;
  std::function<void(Json&)> mutate;
  std::string problem;  // a substring of one problem; "" when the CRD is fine
};

TEST(CheckCrdTest, Table) {
  const std::vector<CrdCase> cases = {
      {"good", [](Json&) {}, ""},
      {"name is not plural.group",
       [](Json& c) { c["metadata"]["name"] = "widget.example.koordinator.sh"; },
       "metadata.name: Invalid value: \"widget.example.koordinator.sh\""},
      {"group without a dot",
       [](Json& c) {
         c["spec"]["group"] = "example";
         c["metadata"]["name"] = "widgets.example";
       },
       "spec.group: Invalid value: \"example\""},
      {"bad scope", [](Json& c) { c["spec"]["scope"] = "Global"; },
       "spec.scope: Unsupported value"},
      {"upper-case plural", [](Json& c) { c["spec"]["names"]["plural"] = "Widgets"; },
       "spec.names.plural: Invalid value"},
      {"upper-case short name", [](Json& c) { c["spec"]["names"]["shortNames"] = {"W"}; },
       "spec.names.shortNames: Invalid value: \"W\""},
      {"wrong list kind", [](Json& c) { c["spec"]["names"]["listKind"] = "Widgets"; },
       "spec.names.listKind: Invalid value"},
      {"no storage version", [](Json& c) { c["spec"]["versions"][0]["storage"] = false; },
       "must have exactly one version marked as storage version, found 0"},
      {"two storage versions",
       [](Json& c) {
         Json v2 = c["spec"]["versions"][0];
         v2["name"] = "v1";
         c["spec"]["versions"].push_back(v2);
       },
       "found 2"},
      {"bad version name", [](Json& c) { c["spec"]["versions"][0]["name"] = "version1"; },
       "spec.versions[0].name: Invalid value: \"version1\""},
      {"version with a leading zero",
       [](Json& c) { c["spec"]["versions"][0]["name"] = "v1alpha01"; },
       "spec.versions[0].name: Invalid value: \"v1alpha01\""},
      {"beta version", [](Json& c) { c["spec"]["versions"][0]["name"] = "v2beta3"; }, ""},
      {"schema not structural",
       [](Json& c) {
         c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
          ["size"]
              .erase("type");
       },
       "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].type: Required "
       "value"},
      {"printer column on an undeclared field",
       [](Json& c) {
         c["spec"]["versions"][0]["additionalPrinterColumns"][0]["jsonPath"] = ".status.nodeName";
       },
       "additionalPrinterColumns[0].jsonPath: Invalid value: \".status.nodeName\""},
      {"printer column of an unknown type",
       [](Json& c) { c["spec"]["versions"][0]["additionalPrinterColumns"][0]["type"] = "text"; },
       "additionalPrinterColumns[0].type: Unsupported value: \"text\""},
      {"duplicate printer column",
       [](Json& c) { c["spec"]["versions"][0]["additionalPrinterColumns"][1]["name"] = "Phase"; },
       "additionalPrinterColumns[1].name: Duplicate value"},
      {"status subresource without status",
       [](Json& c) {
         c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"].erase("status");
         c["spec"]["versions"][0].erase("additionalPrinterColumns");
       },
       "subresources.status: Invalid value: the schema has no status"},
      {"webhook conversion",
       [](Json& c) {
         c["spec"]["conversion"] = {{"strategy", "Webhook"}};
       },
       "spec.conversion.strategy: Unsupported value: \"Webhook\""},
      {"preserveUnknownFields", [](Json& c) { c["spec"]["preserveUnknownFields"] = true; },
       "spec.preserveUnknownFields"},
      {"wrong apiVersion", [](Json& c) { c["apiVersion"] = "apiextensions.k8s.io/v1beta1"; },
       "apiVersion: Unsupported value"},
      {"missing plural", [](Json& c) { c["spec"]["names"].erase("plural"); },
       "spec.names.plural: Required value"},
  };
  for (const CrdCase& c : cases) {
    SCOPED_TRACE(c.name);
    Json crd = goodCrd();
    c.mutate(crd);
    std::string all;
    for (const std::string& problem : checkCrd(crd)) {
      all += problem + "\n";
    }
    if (c.problem.empty()) {
      EXPECT_TRUE(all.empty()) << all;
    } else {
      EXPECT_NE(all.find(c.problem), std::string::npos) << all;
    }
  }
}

TEST(CrdCatalogTest, FindsEveryServedVersionAndRefusesDuplicates) {
  Json crd = goodCrd();
  Json v1 = crd["spec"]["versions"][0];
  v1["name"] = "v1";
  v1["storage"] = false;
  crd["spec"]["versions"].push_back(v1);
  Json unserved = v1;
  unserved["name"] = "v2";
  unserved["served"] = false;
  crd["spec"]["versions"].push_back(unserved);

  CrdCatalog catalog;
  ASSERT_TRUE(catalog.add(crd).isOk());
  EXPECT_EQ(catalog.size(), 2u);
  EXPECT_NE(catalog.find("example.koordinator.sh/v1alpha1", "Widget"), nullptr);
  EXPECT_NE(catalog.find("example.koordinator.sh/v1", "Widget"), nullptr);
  EXPECT_EQ(catalog.find("example.koordinator.sh/v2", "Widget"), nullptr) << "not served";
  EXPECT_EQ(catalog.find("example.koordinator.sh/v1", "Gadget"), nullptr);
  auto summary = catalog.summary("example.koordinator.sh/v1", "Widget");
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->storage_version, "v1alpha1");
  EXPECT_EQ(summary->short_names, std::vector<std::string>{"wdg"});

  Status again = catalog.add(crd);
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.message().find("example.koordinator.sh/v1alpha1, Kind=Widget"), std::string::npos)
      << again;
  Status malformed = catalog.add(Json{{"spec", {{"group", "g.io"}}}});
  EXPECT_EQ(malformed.code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::testing::schema
