#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

#include "extender/framework/runtime.hpp"
#include "runtime_fixture.hpp"

namespace koord::extender::framework {
namespace {

using testing::makeNode;
using testing::makePodInfo;
using testing::RuntimeFixture;
using testing::ScriptedPlugin;

class RecordingBinder final : public Binder {
 public:
  // `log`: where patch and bind calls are appended; nullptr for none.
  explicit RecordingBinder(std::vector<std::string>* log) : log_(log) {}
  Status patchPod(const PodInfo& pod, const BindPatch& patch, BindDeadline deadline) override {
    if (log_ != nullptr)
      log_->push_back("binder.patch");
    deadlines.push_back(deadline);
    patched_pod = pod.key;
    last_patch = patch;
    return patch_error;
  }
  Status bindPod(const PodInfo& pod, const std::string& node, BindDeadline deadline) override {
    if (log_ != nullptr)
      log_->push_back("binder.bind");
    deadlines.push_back(deadline);
    bound = pod.key + "->" + node;
    return bind_error;
  }
  Status patch_error;
  Status bind_error;
  std::string patched_pod;
  BindPatch last_patch;
  std::string bound;
  std::vector<BindDeadline> deadlines;  // of every call, in order

 private:
  std::vector<std::string>* log_;
};

class RuntimeBindTest : public RuntimeFixture {
 protected:
  RuntimeBindTest() : binder_(&log_) {}
  std::shared_ptr<const NodeInfo> node_ =
      std::make_shared<NodeInfo>(makeNode("n1"), std::vector<std::shared_ptr<const PodInfo>>{});
  RecordingBinder binder_;
};

// Drives FakeClock-based waits: blocks until `count` threads wait on the clock.
void waitForWaiters(const FakeClock& clock, size_t count) {
  while (clock.waiterCount() < count)
    std::this_thread::yield();
}

TEST_F(RuntimeBindTest, HappyPathRunsEveryPointThenPatchesThenBinds) {
  add("A");
  add("B", [](ScriptedPlugin& p) {
    p.on_pre_bind = [](BindPatch& patch) {
      patch.annotations["scheduling.koordinator.sh/resource-status"] = "{}";
      return PluginStatus::success();
    };
  });
  auto runtime = make({{"A", {}, 1}, {"B", {}, 1}});
  PluginStatus status = runtime->bind(*makePodInfo("p"), *node_, binder_);
  ASSERT_TRUE(status.isSuccess()) << status.message();
  EXPECT_EQ(log_, (std::vector<std::string>{"A.preFilter", "B.preFilter", "A.reserve", "B.reserve",
                                            "A.permit", "B.permit", "A.preBind", "B.preBind",
                                            "binder.patch", "binder.bind"}));
  EXPECT_EQ(binder_.last_patch.annotations.at("scheduling.koordinator.sh/resource-status"), "{}");
  EXPECT_EQ(binder_.bound, "default/p->n1");
}

TEST_F(RuntimeBindTest, PatchAndBindShareOneDeadlineFromTheBindsStart) {
  add("B", [](ScriptedPlugin& p) {
    p.on_pre_bind = [](BindPatch& patch) {
      patch.annotations["scheduling.koordinator.sh/resource-status"] = "{}";
      return PluginStatus::success();
    };
  });
  RuntimeOptions options;
  options.plugins = {{"B", {}, 1}};
  options.parallelism = 1;
  options.bind_timeout = std::chrono::milliseconds(1500);
  auto runtime = Runtime::create(registry_, handle_, std::move(options), &metrics_);
  ASSERT_TRUE(runtime.ok()) << runtime.status();
  const auto before = std::chrono::steady_clock::now();
  ASSERT_TRUE((*runtime)->bind(*makePodInfo("p"), *node_, binder_).isSuccess());
  const auto after = std::chrono::steady_clock::now();
  // One budget for the whole bind: the binding gets what the patch left, not a fresh 1.5 s.
  ASSERT_EQ(binder_.deadlines.size(), 2u);
  EXPECT_EQ(binder_.deadlines[0], binder_.deadlines[1]);
  EXPECT_GE(binder_.deadlines[0], before + std::chrono::milliseconds(1500));
  EXPECT_LE(binder_.deadlines[0], after + std::chrono::milliseconds(1500));
}

TEST_F(RuntimeBindTest, EmptyPatchIsNotSent) {
  add("A");
  auto runtime = make({{"A", {}, 1}});
  ASSERT_TRUE(runtime->bind(*makePodInfo("p"), *node_, binder_).isSuccess());
  EXPECT_EQ(std::count(log_.begin(), log_.end(), "binder.patch"), 0);
  EXPECT_EQ(log_.back(), "binder.bind");
}

TEST_F(RuntimeBindTest, RecheckFailureReservesNothing) {
  add("A", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo&) {
      return PluginStatus::unschedulable("Insufficient cpu");
    };
  });
  auto runtime = make({{"A", {}, 1}});
  PluginStatus status = runtime->bind(*makePodInfo("p"), *node_, binder_);
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.plugin(), "A");
  EXPECT_EQ(log_, std::vector<std::string>{"A.preFilter"});
}

TEST_F(RuntimeBindTest, FailureAtEachStepUnreservesInReverseOnce) {
  struct Case {
    std::string name;
    std::function<void(ScriptedPlugin&)> a;
    std::function<void(ScriptedPlugin&)> b;
    Status patch_error;
    Status bind_error;
    std::vector<std::string> want_log;
    Code want_code;
    std::string want_plugin;
  };
  auto set_patch = [](ScriptedPlugin& p) {
    p.on_pre_bind = [](BindPatch& patch) {
      patch.labels["x"] = "y";
      return PluginStatus::success();
    };
  };
  const std::vector<std::string> all_points = {"A.preFilter", "B.preFilter", "A.reserve",
                                               "B.reserve",   "A.permit",    "B.permit",
                                               "A.preBind",   "B.preBind"};
  auto with = [](std::vector<std::string> head, std::vector<std::string> tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  const std::vector<std::string> undo = {"B.unreserve", "A.unreserve"};
  const std::vector<Case> cases = {
      {"reserve of B fails",
       {},
       [](ScriptedPlugin& p) {
         p.on_reserve = [] { return PluginStatus::unschedulable("no cpus"); };
       },
       {},
       {},
       with({"A.preFilter", "B.preFilter", "A.reserve", "B.reserve"}, undo),
       Code::kUnschedulable,
       "B"},
      {"permit of A rejects",
       [](ScriptedPlugin& p) {
         p.on_permit = [](CycleState&, std::chrono::milliseconds&) {
           return PluginStatus::unschedulable("gang broken");
         };
       },
       {},
       {},
       {},
       with({"A.preFilter", "B.preFilter", "A.reserve", "B.reserve", "A.permit"}, undo),
       Code::kUnschedulable,
       "A"},
      {"preBind of B errors",
       {},
       [](ScriptedPlugin& p) {
         p.on_pre_bind = [](BindPatch&) { return PluginStatus::error("bad annotation"); };
       },
       {},
       {},
       with(all_points, undo),
       Code::kError,
       "B"},
      {"patch fails",
       set_patch,
       {},
       Status::unavailable("apiserver down"),
       {},
       with(all_points, with({"binder.patch"}, undo)),
       Code::kError,
       "binder"},
      {"bind fails",
       {},
       {},
       {},
       Status::conflict("already bound"),
       with(all_points, with({"binder.bind"}, undo)),
       Code::kError,
       "binder"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    registry_ = Registry();
    log_.clear();
    add("A", c.a);
    add("B", c.b);
    binder_.patch_error = c.patch_error;
    binder_.bind_error = c.bind_error;
    auto runtime = make({{"A", {}, 1}, {"B", {}, 1}});
    PluginStatus status = runtime->bind(*makePodInfo("p"), *node_, binder_);
    EXPECT_EQ(status.code(), c.want_code);
    EXPECT_EQ(status.plugin(), c.want_plugin);
    EXPECT_EQ(log_, c.want_log);
  }
}

TEST_F(RuntimeBindTest, APluginThatThrowsFailsThePodNamingItAndEverythingIsUnreserved) {
  struct Case {
    std::string name;
    std::function<void(ScriptedPlugin&)> b;
    std::vector<std::string> want_log;
    std::string want_message;
  };
  const std::vector<std::string> undo = {"B.unreserve", "A.unreserve"};
  auto with = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  const std::vector<std::string> reserved = {"A.preFilter", "B.preFilter", "A.reserve",
                                             "B.reserve"};
  const std::vector<Case> cases = {
      {"reserve throws",
       [](ScriptedPlugin& p) {
         p.on_reserve = []() -> PluginStatus { throw std::runtime_error("no cpu left"); };
       },
       with(reserved, undo), "reserve threw: no cpu left"},
      {"permit throws",
       [](ScriptedPlugin& p) {
         p.on_permit = [](CycleState&, std::chrono::milliseconds&) -> PluginStatus {
           throw std::runtime_error("gang table broken");
         };
       },
       with(with(reserved, {"A.permit", "B.permit"}), undo), "permit threw: gang table broken"},
      {"preBind throws something that is not an exception",
       [](ScriptedPlugin& p) { p.on_pre_bind = [](BindPatch&) -> PluginStatus { throw 42; }; },
       with(with(reserved, {"A.permit", "B.permit", "A.preBind", "B.preBind"}), undo),
       "preBind threw"},
      {"filter throws in bind's re-check",
       [](ScriptedPlugin& p) {
         p.on_filter = [](const PodInfo&, const NodeInfo&) -> PluginStatus {
           throw std::runtime_error("bad node");
         };
       },
       {"A.preFilter", "B.preFilter"},
       "filter threw: bad node"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    registry_ = Registry();
    log_.clear();
    add("A", nullptr);
    add("B", c.b);
    auto runtime = make({{"A", {}, 1}, {"B", {}, 1}});
    PluginStatus status = runtime->bind(*makePodInfo("p"), *node_, binder_);
    EXPECT_EQ(status.code(), Code::kError);
    EXPECT_EQ(status.plugin(), "B");
    EXPECT_EQ(status.message(), c.want_message);
    EXPECT_EQ(log_, c.want_log);
    EXPECT_TRUE(binder_.bound.empty());
  }
}

TEST_F(RuntimeBindTest, PermitWaitThenTimeout) {
  add("Gang", [](ScriptedPlugin& p) {
    p.on_permit = [](CycleState&, std::chrono::milliseconds& timeout) {
      timeout = std::chrono::seconds(10);
      return PluginStatus(Code::kWait, {});
    };
  });
  auto runtime = make({{"Gang", {}, 1}});
  PluginStatus status;
  std::thread binding([&] { status = runtime->bind(*makePodInfo("p"), *node_, binder_); });
  waitForWaiters(clock_, 1);
  EXPECT_EQ(runtime->waitingPods().keys(), std::vector<std::string>{"default/p"});
  clock_.advance(std::chrono::seconds(9));
  EXPECT_EQ(runtime->waitingPods().keys().size(), 1u);  // still waiting
  clock_.advance(std::chrono::seconds(1));
  binding.join();
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.plugin(), "Gang");
  EXPECT_NE(status.message().find("timeout"), std::string::npos);
  EXPECT_EQ(log_.back(), "Gang.unreserve");
  EXPECT_TRUE(binder_.bound.empty());
  EXPECT_TRUE(runtime->waitingPods().keys().empty());
}

TEST_F(RuntimeBindTest, PermitWaitThenAllowOrReject) {
  struct Case {
    std::string name;
    bool allow;
    Code want;
  };
  for (const auto& c :
       {Case{"allowed", true, Code::kSuccess}, Case{"rejected", false, Code::kUnschedulable}}) {
    SCOPED_TRACE(c.name);
    registry_ = Registry();
    binder_.bound.clear();
    add("Gang", [](ScriptedPlugin& p) {
      p.on_permit = [](CycleState&, std::chrono::milliseconds& timeout) {
        timeout = std::chrono::seconds(10);
        return PluginStatus(Code::kWait, {});
      };
    });
    auto runtime = make({{"Gang", {}, 1}});
    PluginStatus status;
    std::thread binding([&] { status = runtime->bind(*makePodInfo("p"), *node_, binder_); });
    waitForWaiters(clock_, 1);
    if (c.allow) {
      EXPECT_TRUE(runtime->waitingPods().allow("default/p", "Gang"));
    } else {
      EXPECT_TRUE(runtime->waitingPods().reject("default/p", "Gang", "gang timed out"));
    }
    binding.join();
    EXPECT_EQ(status.code(), c.want);
    EXPECT_EQ(binder_.bound.empty(), !c.allow);
    if (!c.allow) {
      EXPECT_EQ(status.message(), "gang timed out");
    }
  }
}

TEST_F(RuntimeBindTest, PermitOfLastMemberAllowsTheWaitingOnes) {
  // A two-member gang: the first waits, the second's permit allows it through the CycleState.
  add("Gang", [](ScriptedPlugin& p) {
    p.on_permit = [](CycleState& state, std::chrono::milliseconds& timeout) {
      WaitingPods* waiting = waitingPodsOf(state);
      if (waiting == nullptr)
        return PluginStatus::error("no waiting pods");
      if (waiting->keys().empty()) {
        timeout = std::chrono::seconds(30);
        return PluginStatus(Code::kWait, {});
      }
      for (const auto& key : waiting->keys())
        waiting->allow(key, "Gang");
      return PluginStatus::success();
    };
  });
  auto runtime = make({{"Gang", {}, 1}});
  PluginStatus first;
  RecordingBinder first_binder(nullptr);
  RecordingBinder second_binder(nullptr);
  std::thread binding([&] { first = runtime->bind(*makePodInfo("m1"), *node_, first_binder); });
  waitForWaiters(clock_, 1);
  EXPECT_TRUE(runtime->bind(*makePodInfo("m2"), *node_, second_binder).isSuccess());
  binding.join();
  EXPECT_TRUE(first.isSuccess()) << first.message();
  EXPECT_EQ(first_binder.bound, "default/m1->n1");
  EXPECT_EQ(second_binder.bound, "default/m2->n1");
}

}  // namespace
}  // namespace koord::extender::framework
