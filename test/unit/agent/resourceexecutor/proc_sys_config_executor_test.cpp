#include "agent/resourceexecutor/proc_sys_config_executor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using system::SysPaths;
using system::testing::FakeRoot;
using ::testing::HasSubstr;

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

// "resource,result value" lines of koord_agent_executor_writes_total.
std::vector<std::string> writeCounts(const metrics::MetricsRegistry& registry) {
  std::vector<std::string> out;
  std::istringstream in(registry.serialize());
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("koord_agent_executor_writes_total{", 0) == 0) {
      out.push_back(line);
    }
  }
  return out;
}

// A proc tree with the two vm files as a host has them (values of a 2-CPU, 8 GiB machine).
struct ProcTree {
  ProcTree() {
    root.write("proc/sys/vm/min_free_kbytes", "67584\n");
    root.write("proc/sys/vm/watermark_scale_factor", "10\n");
  }
  std::filesystem::path vm(const std::string& name) const {
    return root.path() / "proc/sys/vm" / name;
  }
  FakeRoot root;
  FakeClock clock;
};

TEST(ProcSysConfigExecutor, SettingNames) {
  EXPECT_EQ(systemSettingName(SystemSetting::kMinFreeKbytes), "min_free_kbytes");
  EXPECT_EQ(systemSettingName(SystemSetting::kWatermarkScaleFactor), "watermark_scale_factor");
}

TEST(ProcSysConfigExecutor, GetReadsTheVmFilesUnderProcRoot) {
  ProcTree tree;
  auto executor =
      ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock).value();
  EXPECT_EQ(executor->file(SystemSetting::kMinFreeKbytes), tree.vm("min_free_kbytes"));
  EXPECT_EQ(executor->get(SystemSetting::kMinFreeKbytes).value(), 67584);
  EXPECT_EQ(executor->get(SystemSetting::kWatermarkScaleFactor).value(), 10);
  tree.root.remove("proc/sys/vm/watermark_scale_factor");
  const auto missing = executor->get(SystemSetting::kWatermarkScaleFactor);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

// A new value is written, audited (old and new) and counted; the same value again is skipped.
TEST(ProcSysConfigExecutor, WritesAuditsAndSkipsUnchanged) {
  ProcTree tree;
  metrics::MetricsRegistry registry;
  std::vector<std::string> infos;
  log::Logger logger(log::LogSink::toCallback([&](log::LogLevel level, std::string_view line) {
                       if (level == log::LogLevel::kInfo) {
                         infos.emplace_back(line);
                       }
                     }),
                     {});
  auto executor = ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock,
                                                &logger, &registry)
                      .value();
  ASSERT_TRUE(
      executor->set(SystemSetting::kMinFreeKbytes, 83886, "system_config: factor 100").isOk());
  EXPECT_EQ(readFile(tree.vm("min_free_kbytes")), "83886");
  EXPECT_EQ(executor->get(SystemSetting::kMinFreeKbytes).value(), 83886);

  ASSERT_TRUE(executor->set(SystemSetting::kMinFreeKbytes, 83886, "again").isOk());
  EXPECT_EQ(executor->skippedWrites(), 1u);

  const auto records = executor->auditLog();
  ASSERT_EQ(records.size(), 1u);  // the skip is not audited
  EXPECT_EQ(records[0].setting, SystemSetting::kMinFreeKbytes);
  EXPECT_EQ(records[0].file, tree.vm("min_free_kbytes").string());
  EXPECT_EQ(records[0].old_value, 67584);
  EXPECT_EQ(records[0].new_value, 83886);
  EXPECT_EQ(records[0].reason, "system_config: factor 100");
  EXPECT_EQ(records[0].result, WriteResult::kOk);
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_THAT(infos[0], HasSubstr("system setting written"));
  EXPECT_THAT(
      writeCounts(registry),
      ::testing::UnorderedElementsAre(
          R"(koord_agent_executor_writes_total{resource="min_free_kbytes",result="ok"} 1)",
          R"(koord_agent_executor_writes_total{resource="min_free_kbytes",result="skipped"} 1)"));
}

// No cache: a value changed behind the executor's back is written again.
TEST(ProcSysConfigExecutor, RewritesWhatSomethingElseChanged) {
  ProcTree tree;
  auto executor =
      ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock).value();
  ASSERT_TRUE(executor->set(SystemSetting::kWatermarkScaleFactor, 150, "r").isOk());
  tree.root.write("proc/sys/vm/watermark_scale_factor", "10\n");
  ASSERT_TRUE(executor->set(SystemSetting::kWatermarkScaleFactor, 150, "r").isOk());
  EXPECT_EQ(readFile(tree.vm("watermark_scale_factor")), "150");
  EXPECT_EQ(executor->auditLog().size(), 2u);
  EXPECT_EQ(executor->skippedWrites(), 0u);
}

struct RangeCase {
  SystemSetting setting;
  int64_t value;
  bool ok;
};

TEST(ProcSysConfigExecutor, RangesAreCheckedBeforeWriting) {
  const std::vector<RangeCase> cases = {
      {SystemSetting::kMinFreeKbytes, 0, false},
      {SystemSetting::kMinFreeKbytes, -1, false},
      {SystemSetting::kMinFreeKbytes, 1, true},
      {SystemSetting::kMinFreeKbytes, 10485760, true},
      {SystemSetting::kWatermarkScaleFactor, 0, false},
      {SystemSetting::kWatermarkScaleFactor, 1, true},
      {SystemSetting::kWatermarkScaleFactor, 1000, true},
      {SystemSetting::kWatermarkScaleFactor, 1001, false},
  };
  for (const RangeCase& c : cases) {
    SCOPED_TRACE(std::string(systemSettingName(c.setting)) + "=" + std::to_string(c.value));
    ProcTree tree;
    auto executor =
        ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock).value();
    const std::string before = readFile(tree.vm(std::string(systemSettingName(c.setting))));
    const Status status = executor->set(c.setting, c.value, "test");
    const std::string after = readFile(tree.vm(std::string(systemSettingName(c.setting))));
    if (c.ok) {
      EXPECT_TRUE(status.isOk()) << status;
      EXPECT_EQ(after, std::to_string(c.value));
    } else {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(status.message(),
                  HasSubstr("failed to set vm/" + std::string(systemSettingName(c.setting)) +
                            " to " + std::to_string(c.value) + ": must be "));
      EXPECT_EQ(after, before);  // nothing written
      ASSERT_EQ(executor->auditLog().size(), 1u);
      EXPECT_EQ(executor->auditLog()[0].result, WriteResult::kFailed);
    }
  }
}

// A kernel without the file: kNotFound, audited as failed, and no file is created.
TEST(ProcSysConfigExecutor, MissingFileIsNotFoundAndNotCreated) {
  ProcTree tree;
  tree.root.remove("proc/sys/vm/watermark_scale_factor");
  std::vector<std::string> warnings;
  log::Logger logger(log::LogSink::toCallback([&](log::LogLevel level, std::string_view line) {
                       if (level >= log::LogLevel::kWarn) {
                         warnings.emplace_back(line);
                       }
                     }),
                     {});
  auto executor =
      ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock, &logger).value();
  const Status status = executor->set(SystemSetting::kWatermarkScaleFactor, 100, "r");
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("watermark_scale_factor"));
  EXPECT_FALSE(std::filesystem::exists(tree.vm("watermark_scale_factor")));
  ASSERT_EQ(executor->auditLog().size(), 1u);
  EXPECT_EQ(executor->auditLog()[0].result, WriteResult::kFailed);
  EXPECT_FALSE(executor->auditLog()[0].old_value.has_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("system setting not written"));
}

TEST(ProcSysConfigExecutor, AuditKeepsTheLastRecords) {
  ProcTree tree;
  auto executor = ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock,
                                                nullptr, nullptr, 2)
                      .value();
  for (int64_t value : {100, 200, 300}) {
    ASSERT_TRUE(executor->set(SystemSetting::kWatermarkScaleFactor, value, "r").isOk());
  }
  const auto records = executor->auditLog();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].old_value, 100);
  EXPECT_EQ(records[0].new_value, 200);
  EXPECT_EQ(records[1].new_value, 300);
}

// Concurrent set() calls are serialised: every write is audited, and the file holds one of the
// values written (never a mix).
TEST(ProcSysConfigExecutor, ConcurrentSetsAreSerialised) {
  ProcTree tree;
  auto executor = ProcSysConfigExecutor::create(SysPaths::under(tree.root.path()), tree.clock,
                                                nullptr, nullptr, 1000)
                      .value();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        (void)executor->set(SystemSetting::kMinFreeKbytes, 100000 + t, "r");
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  const auto records = executor->auditLog();
  EXPECT_EQ(records.size() + executor->skippedWrites(), 200u);
  for (const auto& record : records) {
    EXPECT_EQ(record.result, WriteResult::kOk);
  }
  const int64_t final_value = executor->get(SystemSetting::kMinFreeKbytes).value();
  EXPECT_GE(final_value, 100000);
  EXPECT_LE(final_value, 100003);
  EXPECT_EQ(records.back().new_value, final_value);
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
