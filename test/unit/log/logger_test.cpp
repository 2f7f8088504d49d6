#include "koord/log/logger.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

namespace koord::log {
namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

// 2024-05-01T12:00:00.123Z
system_clock::time_point fixedTime() {
  return system_clock::time_point(milliseconds(1714564800123));
}

// Collects lines (with their level) written through a callback sink.
struct Captured {
  std::mutex mu;
  std::vector<std::pair<LogLevel, std::string>> lines;

  LogSink sink() {
    return LogSink::toCallback([this](LogLevel level, std::string_view line) {
      std::lock_guard<std::mutex> lock(mu);
      lines.emplace_back(level, std::string(line));
    });
  }
  std::vector<std::string> text() {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<std::string> out;
    for (const auto& entry : lines) {
      out.push_back(entry.second);
    }
    return out;
  }
};

TEST(ParseLogOptionsTest, AcceptsEveryLevelAndFormat) {
  struct Case {
    std::string level;
    std::string format;
    LogLevel want_level;
    LogFormat want_format;
  };
  const Case cases[] = {
      {"trace", "text", LogLevel::kTrace, LogFormat::kText},
      {"debug", "json", LogLevel::kDebug, LogFormat::kJson},
      {"info", "text", LogLevel::kInfo, LogFormat::kText},
      {"warn", "json", LogLevel::kWarn, LogFormat::kJson},
      {"error", "text", LogLevel::kError, LogFormat::kText},
      {"off", "json", LogLevel::kOff, LogFormat::kJson},
      {"INFO", "JSON", LogLevel::kInfo, LogFormat::kJson},
  };
  for (const Case& c : cases) {
    auto options = parseLogOptions(c.level, c.format);
    ASSERT_TRUE(options.ok()) << options.status();
    EXPECT_EQ(options->level, c.want_level) << c.level;
    EXPECT_EQ(options->format, c.want_format) << c.format;
    EXPECT_EQ(logLevelName(c.want_level), c.level == "INFO" ? "info" : c.level);
  }
}

TEST(ParseLogOptionsTest, ErrorsNameTheBadValue) {
  const std::pair<std::pair<std::string, std::string>, std::string> cases[] = {
      {{"verbose", "text"},
       "failed to parse log level 'verbose': expected one of trace, debug, info, warn, error, off"},
      {{"", "text"},
       "failed to parse log level '': expected one of trace, debug, info, warn, error, off"},
      {{"info", "yaml"}, "failed to parse log format 'yaml': expected text or json"},
      {{"warning", "json"},
       "failed to parse log level 'warning': expected one of trace, debug, info, warn, error, "
       "off"},
  };
  for (const auto& [input, message] : cases) {
    auto options = parseLogOptions(input.first, input.second);
    ASSERT_FALSE(options.ok());
    EXPECT_EQ(options.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(options.status().message(), message);
  }
}

TEST(LoggerTest, JsonFormatIsExact) {
  Captured captured;
  const Logger root(captured.sink(), {LogLevel::kTrace, LogFormat::kJson}, "", fixedTime);
  const Logger named = root.child("extender").child("filter");
  root.info("started");
  named.info("pod bound", {{"pod", "default/web"}, {"score", 3}, {"ratio", 0.25}, {"ok", true}});
  named.warn(
      "quote \" backslash \\ newline \n tab \t ctrl \x01 utf8 é",
      {{"k\"ey", std::string("v\nal")}, {"neg", -5}, {"big", uint64_t{18446744073709551615u}}});
  named.error("reserved", {{"msg", "shadow"}, {"level", 1}, {"ts", "x"}, {"logger", "y"}});
  named.debug("bad utf8 \xff", {{"status", Status::notFound("no pod 'x'")}});
  named.trace("duration", {{"took", milliseconds(1500)}});

  const std::vector<std::string> want = {
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"info","msg":"started"})",
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"info","logger":"extender.filter","msg":"pod bound","pod":"default/web","score":3,"ratio":0.25,"ok":true})",
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"warn","logger":"extender.filter","msg":"quote \" backslash \\ newline \n tab \t ctrl \u0001 utf8 é","k\"ey":"v\nal","neg":-5,"big":18446744073709551615})",
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"error","logger":"extender.filter","msg":"reserved","_msg":"shadow","_level":1,"_ts":"x","_logger":"y"})",
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"debug","logger":"extender.filter","msg":"bad utf8 �","status":"not found: no pod 'x'"})",
      R"({"ts":"2024-05-01T12:00:00.123Z","level":"trace","logger":"extender.filter","msg":"duration","took":1.5})",
  };
  EXPECT_EQ(captured.text(), want);
  for (const std::string& line : captured.text()) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
  }
}

TEST(LoggerTest, TextFormatIsExact) {
  Captured captured;
  const Logger root(captured.sink(), {LogLevel::kTrace, LogFormat::kText}, "", fixedTime);
  const Logger named = root.child("agent");
  root.info("started");
  named.info("pod bound", {{"pod", "default/web"}, {"score", 3}, {"ratio", 0.25}, {"ok", false}});
  named.warn("two\nlines\tand \x01", {{"reason", "has space"}, {"empty", ""}, {"eq", "a=b"}});
  named.error("failed", {{"err", Status::unavailable("connection refused")}});
  named.debug("d");
  named.trace("t", {{"quote", "say \"hi\""}});

  const std::vector<std::string> want = {
      "2024-05-01T12:00:00.123Z INFO  started",
      "2024-05-01T12:00:00.123Z INFO  agent: pod bound pod=default/web score=3 ratio=0.25 ok=false",
      R"(2024-05-01T12:00:00.123Z WARN  agent: two\nlines\tand \x01 reason="has space" empty="" eq="a=b")",
      R"(2024-05-01T12:00:00.123Z ERROR agent: failed err="unavailable: connection refused")",
      "2024-05-01T12:00:00.123Z DEBUG agent: d",
      R"(2024-05-01T12:00:00.123Z TRACE agent: t quote="say \"hi\"")",
  };
  EXPECT_EQ(captured.text(), want);
}

TEST(LoggerTest, LevelFiltering) {
  const LogLevel all[] = {LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn,
                          LogLevel::kError};
  struct Case {
    LogLevel threshold;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {LogLevel::kTrace, {"trace", "debug", "info", "warn", "error"}},
      {LogLevel::kDebug, {"debug", "info", "warn", "error"}},
      {LogLevel::kInfo, {"info", "warn", "error"}},
      {LogLevel::kWarn, {"warn", "error"}},
      {LogLevel::kError, {"error"}},
      {LogLevel::kOff, {}},
  };
  for (const Case& c : cases) {
    Captured captured;
    const Logger logger(captured.sink(), {c.threshold, LogFormat::kJson}, "x", fixedTime);
    for (LogLevel level : all) {
      logger.log(level, "m");
      EXPECT_EQ(logger.enabled(level), level >= c.threshold && c.threshold != LogLevel::kOff);
    }
    logger.log(LogLevel::kOff, "never written");
    std::vector<std::string> got;
    for (const auto& [level, line] : captured.lines) {
      got.push_back(nlohmann::json::parse(line)["level"].get<std::string>());
      EXPECT_EQ(logLevelName(level), got.back());
    }
    EXPECT_EQ(got, c.want) << "threshold " << logLevelName(c.threshold);
  }
}

TEST(LoggerTest, LevelIsSharedWithChildrenAndChangesAtRunTime) {
  Captured captured;
  const Logger root(captured.sink(), {LogLevel::kWarn, LogFormat::kText}, "root", fixedTime);
  const Logger kid = root.child("kid");
  kid.info("hidden");
  root.setLevel(LogLevel::kDebug);
  EXPECT_EQ(kid.level(), LogLevel::kDebug);
  kid.debug("shown");
  kid.setLevel(LogLevel::kError);
  root.warn("hidden too");
  EXPECT_EQ(captured.text(),
            std::vector<std::string>{"2024-05-01T12:00:00.123Z DEBUG root.kid: shown"});
}

TEST(LoggerTest, WithFieldsAddsContextToEveryLine) {
  Captured json_lines;
  Captured text_lines;
  const Logger json = Logger(json_lines.sink(), {LogLevel::kInfo, LogFormat::kJson}, "m", fixedTime)
                          .withFields({{"plugin", "Reservation"}})
                          .child("c")
                          .withFields({{"n", 1}});
  const Logger text = Logger(text_lines.sink(), {LogLevel::kInfo, LogFormat::kText}, "", fixedTime)
                          .withFields({{"plugin", "Reservation"}});
  json.info("hello", {{"extra", "x"}});
  text.info("hello", {{"extra", "x"}});
  EXPECT_EQ(
      json_lines.text(),
      std::vector<std::string>{
          R"({"ts":"2024-05-01T12:00:00.123Z","level":"info","logger":"m.c","msg":"hello","plugin":"Reservation","n":1,"extra":"x"})"});
  EXPECT_EQ(
      text_lines.text(),
      std::vector<std::string>{"2024-05-01T12:00:00.123Z INFO  hello plugin=Reservation extra=x"});
}

TEST(LoggerTest, StreamSinkWritesNewlineTerminatedLines) {
  std::ostringstream out;
  const Logger logger(LogSink::toStream(out), {LogLevel::kInfo, LogFormat::kText}, "s", fixedTime);
  logger.info("one");
  logger.warn("two", {{"k", "v"}});
  logger.flush();
  EXPECT_EQ(out.str(),
            "2024-05-01T12:00:00.123Z INFO  s: one\n2024-05-01T12:00:00.123Z WARN  s: two k=v\n");
}

TEST(LoggerTest, DefaultLoggerDiscardsAndDiscardSinkWritesNothing) {
  const Logger quiet;
  EXPECT_FALSE(quiet.enabled(LogLevel::kError));
  quiet.error("nowhere");
  const Logger discard(LogSink::discard(), {LogLevel::kTrace, LogFormat::kJson});
  EXPECT_TRUE(discard.enabled(LogLevel::kTrace));
  discard.error("nowhere either");
}

TEST(LoggerTest, ConcurrentWritersNeverInterleaveLines) {
  std::ostringstream out;
  const Logger logger(LogSink::toStream(out), {LogLevel::kInfo, LogFormat::kJson}, "mt");
  constexpr int kThreads = 8;
  constexpr int kLines = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&logger, t] {
      const Logger mine = logger.child("w" + std::to_string(t));
      for (int i = 0; i < kLines; ++i) {
        mine.info("line", {{"thread", t}, {"i", i}, {"pad", std::string(100, 'p')}});
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  std::istringstream in(out.str());
  std::vector<int> next(kThreads, 0);
  std::string line;
  int count = 0;
  while (std::getline(in, line)) {
    const auto entry = nlohmann::json::parse(line);
    const int t = entry["thread"].get<int>();
    EXPECT_EQ(entry["logger"], "mt.w" + std::to_string(t));
    EXPECT_EQ(entry["i"].get<int>(), next[t]++) << "lines of one thread out of order";
    ++count;
  }
  EXPECT_EQ(count, kThreads * kLines);
}

}  // namespace
}  // namespace koord::log
