#include "koord/k8s/store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace koord::k8s {
namespace {

using api::core::Pod;
using PodPtr = std::shared_ptr<const Pod>;

PodPtr makePod(const std::string& ns, const std::string& name, const std::string& node,
               const std::string& rv = "1") {
  auto pod = std::make_shared<Pod>();
  pod->metadata.namespace_ = ns;
  pod->metadata.name = name;
  pod->metadata.resourceVersion = rv;
  pod->spec.nodeName = node;
  return pod;
}

std::vector<std::string> namesOf(const std::vector<PodPtr>& pods) {
  std::vector<std::string> out;
  for (const PodPtr& p : pods) {
    out.push_back(p->metadata.name);
  }
  return out;
}

void addPodIndexers(Store<Pod>& store) {
  ASSERT_TRUE(store.addIndexer(kNodeNameIndex, podNodeNameIndexFunc).isOk());
  ASSERT_TRUE(store.addIndexer(kNamespaceIndex, namespaceIndexFunc<Pod>).isOk());
}

// Recomputes every index from list() and compares it with what the store's indexes answer.
void expectIndexesConsistent(const Store<Pod>& store) {
  std::map<std::string, std::set<std::string>> by_node;
  std::map<std::string, std::set<std::string>> by_ns;
  for (const PodPtr& p : store.list()) {
    const std::string key = *store.keyOf(*p);
    if (!p->spec.nodeName.empty()) {
      by_node[p->spec.nodeName].insert(key);
    }
    by_ns[p->metadata.namespace_].insert(key);
  }
  for (const auto& [index, expected] :
       {std::pair{std::string(kNodeNameIndex), by_node}, {std::string(kNamespaceIndex), by_ns}}) {
    SCOPED_TRACE(index);
    auto values = store.indexValues(index);
    ASSERT_TRUE(values.ok());
    std::vector<std::string> expected_values;
    for (const auto& [value, keys] : expected) {
      expected_values.push_back(value);
      auto got = store.byIndex(index, value);
      ASSERT_TRUE(got.ok());
      std::set<std::string> got_keys;
      for (const PodPtr& p : *got) {
        got_keys.insert(*store.keyOf(*p));
      }
      EXPECT_EQ(got_keys, keys) << "value " << value;
    }
    EXPECT_EQ(*values, expected_values);
  }
}

TEST(StoreKeysTest, MetaNamespaceKey) {
  const struct {
    std::string ns, name, key;
    bool ok;
  } cases[] = {
      {"default", "web-0", "default/web-0", true},
      {"", "node-1", "node-1", true},
      {"default", "", "", false},
  };
  for (const auto& c : cases) {
    api::core::ObjectMeta meta;
    meta.namespace_ = c.ns;
    meta.name = c.name;
    auto key = metaNamespaceKey(meta);
    ASSERT_EQ(key.ok(), c.ok) << c.ns << "/" << c.name;
    if (c.ok) {
      EXPECT_EQ(*key, c.key);
      auto split = splitMetaNamespaceKey(*key);
      ASSERT_TRUE(split.ok());
      EXPECT_EQ(split->first, c.ns);
      EXPECT_EQ(split->second, c.name);
    }
  }
}

TEST(StoreKeysTest, SplitRejectsMalformedKeys) {
  for (const char* key : {"", "/", "a/", "/b", "a/b/c"}) {
    auto split = splitMetaNamespaceKey(key);
    EXPECT_FALSE(split.ok()) << key;
    EXPECT_EQ(split.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(StoreTest, AddGetUpdateRemove) {
  Store<Pod> store;
  addPodIndexers(store);
  auto first = store.add(makePod("ns", "a", "n1", "1"));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, nullptr);
  EXPECT_EQ(store.get("ns/a")->metadata.resourceVersion, "1");
  EXPECT_EQ(store.get("a"), nullptr);

  auto replaced = store.update(makePod("ns", "a", "n1", "2"));
  ASSERT_TRUE(replaced.ok());
  ASSERT_NE(*replaced, nullptr);
  EXPECT_EQ((*replaced)->metadata.resourceVersion, "1");
  EXPECT_EQ(store.get("ns/a")->metadata.resourceVersion, "2");
  EXPECT_EQ(store.size(), 1u);

  auto removed = store.remove(*makePod("ns", "a", ""));
  ASSERT_TRUE(removed.ok());
  ASSERT_NE(*removed, nullptr);
  EXPECT_EQ((*removed)->metadata.resourceVersion, "2");
  EXPECT_EQ(store.get("ns/a"), nullptr);
  EXPECT_EQ(store.removeKey("ns/a"), nullptr);
  EXPECT_EQ(store.size(), 0u);
  expectIndexesConsistent(store);
}

TEST(StoreTest, RejectsObjectsWithoutKey) {
  Store<Pod> store;
  addPodIndexers(store);
  EXPECT_EQ(store.add(makePod("ns", "", "n1")).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.add(nullptr).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.size(), 0u);
  EXPECT_TRUE(store.indexValues(kNodeNameIndex)->empty());
}

TEST(StoreTest, IndexFollowsChangedValues) {
  Store<Pod> store;
  addPodIndexers(store);
  ASSERT_TRUE(store.add(makePod("ns", "a", "")).ok());
  ASSERT_TRUE(store.add(makePod("ns", "b", "n1")).ok());
  EXPECT_TRUE(store.byIndex(kNodeNameIndex, "")->empty());  // unscheduled pods are not indexed

  ASSERT_TRUE(store.update(makePod("ns", "a", "n1")).ok());  // bound
  EXPECT_EQ(namesOf(*store.byIndex(kNodeNameIndex, "n1")), (std::vector<std::string>{"a", "b"}));

  ASSERT_TRUE(store.update(makePod("ns", "b", "n2")).ok());  // moved
  EXPECT_EQ(namesOf(*store.byIndex(kNodeNameIndex, "n1")), std::vector<std::string>{"a"});
  EXPECT_EQ(namesOf(*store.byIndex(kNodeNameIndex, "n2")), std::vector<std::string>{"b"});

  ASSERT_TRUE(store.update(makePod("ns", "a", "n2")).ok());
  EXPECT_TRUE(store.byIndex(kNodeNameIndex, "n1")->empty());
  EXPECT_EQ(*store.indexValues(kNodeNameIndex), std::vector<std::string>{"n2"});
  expectIndexesConsistent(store);
}

TEST(StoreTest, IndexerAddedLaterSeesExistingObjects) {
  Store<Pod> store;
  ASSERT_TRUE(store.add(makePod("x", "a", "n1")).ok());
  ASSERT_TRUE(store.add(makePod("y", "b", "n1")).ok());
  EXPECT_EQ(store.byIndex(kNodeNameIndex, "n1").status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store.addIndexer(kNodeNameIndex, podNodeNameIndexFunc).isOk());
  EXPECT_EQ(namesOf(*store.byIndex(kNodeNameIndex, "n1")), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(store.addIndexer(kNodeNameIndex, podNodeNameIndexFunc).code(),
            StatusCode::kAlreadyExists);
}

TEST(StoreTest, MultiValuedIndex) {
  Store<Pod> store;
  ASSERT_TRUE(store
                  .addIndexer("labels",
                              [](const Pod& p) {
                                std::vector<std::string> out;
                                for (const auto& [k, v] : p.metadata.labels) {
                                  out.push_back(k + "=" + v);
                                }
                                return out;
                              })
                  .isOk());
  auto pod = std::make_shared<Pod>(*makePod("ns", "a", ""));
  pod->metadata.labels = {{"app", "web"}, {"tier", "fe"}};
  ASSERT_TRUE(store.add(pod).ok());
  EXPECT_EQ(store.byIndex("labels", "tier=fe")->size(), 1u);
  auto changed = std::make_shared<Pod>(*pod);
  changed->metadata.labels = {{"app", "web"}};
  ASSERT_TRUE(store.update(changed).ok());
  EXPECT_TRUE(store.byIndex("labels", "tier=fe")->empty());
  EXPECT_EQ(*store.indexValues("labels"), std::vector<std::string>{"app=web"});
}

TEST(StoreTest, ReplaceReportsTheDifference) {
  Store<Pod> store;
  addPodIndexers(store);
  ASSERT_TRUE(store.add(makePod("ns", "a", "n1")).ok());
  ASSERT_TRUE(store.add(makePod("ns", "b", "n1")).ok());
  ASSERT_TRUE(store.add(makePod("ns", "c", "n2")).ok());

  auto result = store.replace(
      {makePod("ns", "d", "n3", "7"), makePod("ns", "b", "n2", "7"), makePod("ns", "c", "n2", "7")},
      "700");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(namesOf(result->added), std::vector<std::string>{"d"});
  EXPECT_EQ(namesOf(result->deleted), std::vector<std::string>{"a"});
  ASSERT_EQ(result->updated.size(), 2u);
  EXPECT_EQ(result->updated[0].first->metadata.name, "b");
  EXPECT_EQ(result->updated[0].first->spec.nodeName, "n1");
  EXPECT_EQ(result->updated[0].second->spec.nodeName, "n2");
  EXPECT_EQ(result->updated[1].second->metadata.name, "c");

  EXPECT_EQ(store.resourceVersion(), "700");
  EXPECT_EQ(store.listKeys(), (std::vector<std::string>{"ns/b", "ns/c", "ns/d"}));
  EXPECT_TRUE(store.byIndex(kNodeNameIndex, "n1")->empty());
  EXPECT_EQ(namesOf(*store.byIndex(kNodeNameIndex, "n2")), (std::vector<std::string>{"b", "c"}));
  expectIndexesConsistent(store);
}

TEST(StoreTest, FailedReplaceChangesNothing) {
  const struct {
    const char* name;
    std::vector<PodPtr> items;
  } cases[] = {
      {"duplicate key", {makePod("ns", "x", "n1"), makePod("ns", "x", "n2")}},
      {"no name", {makePod("ns", "x", "n1"), makePod("ns", "", "n2")}},
      {"null", {makePod("ns", "x", "n1"), nullptr}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Store<Pod> store;
    addPodIndexers(store);
    ASSERT_TRUE(store.replace({makePod("ns", "a", "n1")}, "5").ok());
    auto result = store.replace(c.items, "6");
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(store.listKeys(), std::vector<std::string>{"ns/a"});
    EXPECT_EQ(store.resourceVersion(), "5");
    expectIndexesConsistent(store);
  }
}

TEST(StoreTest, RandomOperationsKeepIndexesConsistent) {
  Store<Pod> store;
  addPodIndexers(store);
  std::mt19937 rng(7);
  const std::vector<std::string> nodes = {"", "n1", "n2", "n3"};
  const std::vector<std::string> namespaces = {"", "a", "b"};
  auto pick = [&](const std::vector<std::string>& v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  for (int step = 0; step < 500; ++step) {
    const std::string name = "p" + std::to_string(std::uniform_int_distribution<>(0, 15)(rng));
    const int op = std::uniform_int_distribution<>(0, 9)(rng);
    if (op < 6) {
      ASSERT_TRUE(store.add(makePod(pick(namespaces), name, pick(nodes))).ok());
    } else if (op < 9) {
      (void)store.removeKey(pick(namespaces).empty() ? name : "a/" + name);
    } else {
      std::vector<PodPtr> items;
      for (int i = 0; i < 5; ++i) {
        items.push_back(makePod("b", "r" + std::to_string(i), pick(nodes)));
      }
      ASSERT_TRUE(store.replace(items, std::to_string(step)).ok());
    }
    if (step % 25 == 0) {
      expectIndexesConsistent(store);
    }
  }
  expectIndexesConsistent(store);
}

TEST(StoreTest, ConcurrentWritersAndReaders) {
  Store<Pod> store;
  addPodIndexers(store);
  constexpr int kWriters = 4;
  constexpr int kPodsPerWriter = 50;
  constexpr int kRounds = 20;
  std::atomic<bool> done{false};
  std::atomic<int> inconsistencies{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      const std::string ns = "w" + std::to_string(w);
      for (int round = 0; round < kRounds; ++round) {
        for (int i = 0; i < kPodsPerWriter; ++i) {
          const std::string node = "n" + std::to_string((i + round) % 5);
          if (!store.add(makePod(ns, "p" + std::to_string(i), node, std::to_string(round))).ok()) {
            ++inconsistencies;
          }
        }
        // Remove every odd pod, except in the last round.
        for (int i = 1; i < kPodsPerWriter && round + 1 < kRounds; i += 2) {
          (void)store.removeKey(ns + "/p" + std::to_string(i));
        }
      }
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&] {
      while (!done.load()) {
        for (int n = 0; n < 5; ++n) {
          const std::string node = "n" + std::to_string(n);
          const auto pods = store.byIndex(kNodeNameIndex, node);
          for (const PodPtr& p : *pods) {
            if (p->spec.nodeName != node) {
              ++inconsistencies;
            }
          }
        }
        const PodPtr p = store.get("w0/p0");
        if (p != nullptr && p->metadata.name != "p0") {
          ++inconsistencies;
        }
      }
    });
  }
  for (int w = 0; w < kWriters; ++w) {
    threads[w].join();
  }
  done = true;
  for (size_t t = kWriters; t < threads.size(); ++t) {
    threads[t].join();
  }
  EXPECT_EQ(inconsistencies.load(), 0);
  EXPECT_EQ(store.size(), static_cast<size_t>(kWriters * kPodsPerWriter));
  for (int i = 0; i < kPodsPerWriter; ++i) {
    const PodPtr p = store.get("w3/p" + std::to_string(i));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->metadata.resourceVersion, std::to_string(kRounds - 1));
    EXPECT_EQ(p->spec.nodeName, "n" + std::to_string((i + kRounds - 1) % 5));
  }
  expectIndexesConsistent(store);
}

}  // namespace
}  // namespace koord::k8s
