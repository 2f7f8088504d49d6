#include "agent/resourceexecutor/target_executor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using system::testing::FakeRoot;
using ::testing::HasSubstr;

std::string readBack(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A net-QoS writer that records the classes it was given ("eth0/1:2" -> value).
class RecordingNetQos final : public TargetWriter {
 public:
  explicit RecordingNetQos(std::map<std::string, std::string>* classes) : classes_(classes) {}

  [[nodiscard]] Result<std::string> location(KernelTarget /*target*/,
                                             const std::filesystem::path& dir) const override {
    return "tc class " + dir.filename().string() + " dev " + dir.parent_path().string();
  }
  [[nodiscard]] Status write(KernelTarget /*target*/, const std::filesystem::path& dir,
                             std::string_view value) override {
    (*classes_)[dir.string()] = std::string(value);
    return Status::ok();
  }
  [[nodiscard]] Result<std::string> read(KernelTarget /*target*/,
                                         const std::filesystem::path& dir) const override {
    auto it = classes_->find(dir.string());
    if (it == classes_->end()) {
      return Status::notFound("no class " + dir.string());
    }
    return it->second;
  }

 private:
  std::map<std::string, std::string>* classes_;
};

// A resctrl root on a temporary tree with the root group and the group "koord-be", as the
// kernel shows them (schemata and tasks exist; the executor never creates files).
class TargetExecutorTest : public ::testing::Test {
 protected:
  TargetExecutorTest() {
    for (const std::string group : {"", "koord-be/"}) {
      root.write("sys/fs/resctrl/" + group + "schemata", "    L3:0=7ff\n      MB:0=100\n");
      root.write("sys/fs/resctrl/" + group + "tasks", "");
    }
    root.write("sys/fs/resctrl/info/L3/cbm_mask", "7ff\n");
  }

  std::unique_ptr<TargetExecutor> make(TargetExecutorOptions options = {}) {
    options.resctrl = newResctrlWriter(resctrl());
    options.net_qos = std::make_unique<RecordingNetQos>(&classes);
    auto executor = TargetExecutor::create(std::move(options), clock, nullptr, &registry);
    EXPECT_TRUE(executor.ok()) << executor.status();
    return executor.ok() ? std::move(executor).value() : nullptr;
  }

  [[nodiscard]] std::filesystem::path resctrl() const {
    return system::SysPaths::under(root.path()).resctrl_root;
  }

  [[nodiscard]] std::string writes(const std::string& resource, const std::string& result) const {
    std::istringstream lines(registry.serialize());
    const std::string prefix = "koord_agent_executor_writes_total{resource=\"" + resource +
                               "\",result=\"" + result + "\"} ";
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(prefix, 0) == 0) {
        return line.substr(prefix.size());
      }
    }
    return "0";
  }

  FakeRoot root;
  FakeClock clock;
  metrics::MetricsRegistry registry;
  std::map<std::string, std::string> classes;
};

TEST_F(TargetExecutorTest, WritesSchemataAndTasksUnderTheResctrlRoot) {
  auto executor = make();
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor
                  ->update({KernelTarget::kResctrlSchemata, "koord-be", "L3:0=3 \n MB:0=20",
                            "be llc limit"})
                  .isOk());
  EXPECT_EQ(readBack(resctrl() / "koord-be/schemata"), "L3:0=3\nMB:0=20\n");
  ASSERT_TRUE(executor->update({KernelTarget::kResctrlTasks, "koord-be", "4242", "be pod"}).isOk());
  EXPECT_EQ(readBack(resctrl() / "koord-be/tasks"), "4242\n");
  // The root group is "".
  ASSERT_TRUE(executor->update({KernelTarget::kResctrlTasks, "", "7", "back to the root"}).isOk());
  EXPECT_EQ(readBack(resctrl() / "tasks"), "7\n");

  const std::vector<TargetAuditRecord> audit = executor->auditLog();
  ASSERT_EQ(audit.size(), 3U);
  EXPECT_EQ(audit[0].location, (resctrl() / "koord-be/schemata").string());
  EXPECT_EQ(audit[0].old_value, "L3:0=7ff\n      MB:0=100");
  EXPECT_EQ(audit[0].new_value, "L3:0=3\nMB:0=20");
  EXPECT_EQ(audit[0].reason, "be llc limit");
  EXPECT_EQ(audit[0].result, WriteResult::kOk);
  EXPECT_EQ(writes("resctrl_schemata", "ok"), "1");
  EXPECT_EQ(writes("resctrl_tasks", "ok"), "2");
}

TEST_F(TargetExecutorTest, AnUnchangedValueIsSkippedUntilItsCacheEntryExpiresOrIsForgotten) {
  TargetExecutorOptions options;
  options.cache_max_age = std::chrono::minutes(10);
  auto executor = make(std::move(options));
  ASSERT_NE(executor, nullptr);
  const TargetUpdate update{KernelTarget::kResctrlSchemata, "koord-be", "L3:0=3", "be"};
  ASSERT_TRUE(executor->update(update).isOk());
  root.write("sys/fs/resctrl/koord-be/schemata", "changed behind the executor's back\n");
  ASSERT_TRUE(executor->update({update.target, "./koord-be", " L3:0=3\n", "be"}).isOk());
  EXPECT_EQ(executor->skippedWrites(), 1U);
  EXPECT_EQ(writes("resctrl_schemata", "skipped"), "1");
  clock.advance(std::chrono::minutes(10));
  ASSERT_TRUE(executor->update(update).isOk());
  EXPECT_EQ(readBack(resctrl() / "koord-be/schemata"), "L3:0=3\n");
  ASSERT_TRUE(executor->update(update).isOk());
  EXPECT_EQ(executor->skippedWrites(), 2U);
  executor->forget(KernelTarget::kResctrlTasks, "koord-be");  // the whole group
  ASSERT_TRUE(executor->update(update).isOk());
  EXPECT_EQ(executor->skippedWrites(), 2U);
  EXPECT_EQ(writes("resctrl_schemata", "ok"), "3");
}

TEST_F(TargetExecutorTest, ResctrlWritesAreConfinedToTheControlGroupsOfItsRoot) {
  auto executor = make();
  ASSERT_NE(executor, nullptr);
  for (const char* dir : {"/sys/fs/resctrl/koord-be", "../koord-be", "koord-be/../../etc",
                          "koord-be/mon_groups/x", "info", "info/L3", "mon_data"}) {
    SCOPED_TRACE(dir);
    Status status = executor->update({KernelTarget::kResctrlTasks, dir, "1", "evil"});
    EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
    EXPECT_THAT(status.message(), HasSubstr("refusing to write '"));
  }
  EXPECT_EQ(readBack(resctrl() / "info/L3/cbm_mask"), "7ff\n");
  EXPECT_EQ(writes("resctrl_tasks", "refused"), "7");
  const std::vector<TargetAuditRecord> audit = executor->auditLog();
  ASSERT_EQ(audit.size(), 7U);
  EXPECT_EQ(audit[1].location, "../koord-be/resctrl_tasks");
  EXPECT_EQ(audit[1].result, WriteResult::kRefused);
}

TEST_F(TargetExecutorTest, AGroupThatDoesNotExistIsNotCreated) {
  auto executor = make();
  ASSERT_NE(executor, nullptr);
  Status status = executor->update({KernelTarget::kResctrlSchemata, "missing", "L3:0=1", "x"});
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(resctrl() / "missing"));
  EXPECT_EQ(writes("resctrl_schemata", "failed"), "1");
}

TEST_F(TargetExecutorTest, InvalidValuesAreFailedAndNothingIsWritten) {
  auto executor = make();
  ASSERT_NE(executor, nullptr);
  Status status = executor->update({KernelTarget::kResctrlTasks, "koord-be", "1 2", "x"});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(readBack(resctrl() / "koord-be/tasks"), "");
  EXPECT_EQ(writes("resctrl_tasks", "failed"), "1");
}

TEST_F(TargetExecutorTest, NetQosClassesGoThroughTheSameCacheConfinementAndAudit) {
  TargetExecutorOptions options;
  options.net_qos_devices = {"eth0"};
  options.net_qos_major = "0001";
  auto executor = make(std::move(options));
  ASSERT_NE(executor, nullptr);
  const TargetUpdate be{KernelTarget::kNetQosClass, "eth0/1:3", "ceil=2000 rate=1000", "be"};
  ASSERT_TRUE(executor->update(be).isOk());
  EXPECT_EQ(classes.at("eth0/1:3"), "rate=1000 ceil=2000");
  ASSERT_TRUE(executor->update(be).isOk());
  EXPECT_EQ(executor->skippedWrites(), 1U);
  const std::vector<TargetAuditRecord> audit = executor->auditLog();
  ASSERT_EQ(audit.size(), 1U);
  EXPECT_EQ(audit[0].location, "tc class 1:3 dev eth0");
  EXPECT_EQ(audit[0].old_value, std::nullopt);

  for (const char* dir : {"eth1/1:3", "eth0/2:3", "eth0/1:0", "eth0/1", "eth0", "eth0/1:3/x",
                          "a-name-too-long-for-linux/1:3", "../eth0/1:3", "eth0/1:zz"}) {
    SCOPED_TRACE(dir);
    EXPECT_EQ(executor->update({KernelTarget::kNetQosClass, dir, "rate=1 ceil=1", "x"}).code(),
              StatusCode::kPermissionDenied);
  }
  EXPECT_EQ(classes.size(), 1U);
  EXPECT_EQ(writes("net_qos_class", "refused"), "9");
  EXPECT_EQ(writes("net_qos_class", "ok"), "1");

  // Forgetting a resctrl group leaves the classes alone; forgetting the device drops them.
  executor->forget(KernelTarget::kResctrlTasks, "eth0");
  ASSERT_TRUE(executor->update(be).isOk());
  EXPECT_EQ(executor->skippedWrites(), 2U);
  executor->forget(KernelTarget::kNetQosClass, "eth0");
  ASSERT_TRUE(executor->update(be).isOk());
  EXPECT_EQ(executor->skippedWrites(), 2U);
  EXPECT_EQ(writes("net_qos_class", "ok"), "2");
}

TEST_F(TargetExecutorTest, AFamilyWithoutAWriterIsUnimplemented) {
  auto created = TargetExecutor::create({}, clock, nullptr, nullptr);
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(
      (*created)->update({KernelTarget::kNetQosClass, "eth0/1:2", "rate=1 ceil=1", "x"}).code(),
      StatusCode::kUnimplemented);
  EXPECT_EQ((*created)->update({KernelTarget::kResctrlTasks, "g", "1", "x"}).code(),
            StatusCode::kUnimplemented);
}

TEST_F(TargetExecutorTest, CreateRefusesABadQdiscMajor) {
  for (const char* major : {"", "0", "00", "12345", "x1"}) {
    TargetExecutorOptions options;
    options.net_qos_major = major;
    EXPECT_EQ(TargetExecutor::create(std::move(options), clock).status().code(),
              StatusCode::kInvalidArgument)
        << major;
  }
}

TEST_F(TargetExecutorTest, TheAuditRingKeepsTheLastRecords) {
  TargetExecutorOptions options;
  options.audit_capacity = 2;
  auto executor = make(std::move(options));
  ASSERT_NE(executor, nullptr);
  for (int pid = 1; pid <= 3; ++pid) {
    ASSERT_TRUE(
        executor->update({KernelTarget::kResctrlTasks, "koord-be", std::to_string(pid), "x"})
            .isOk());
  }
  const std::vector<TargetAuditRecord> audit = executor->auditLog();
  ASSERT_EQ(audit.size(), 2U);
  EXPECT_EQ(audit[0].new_value, "2");
  EXPECT_EQ(audit[1].new_value, "3");
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
