#include "koord/config/file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace koord::config {
namespace {

class ReadFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("koord-file-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(ReadFileTest, ReadsWholeFile) {
  const std::string content = std::string("a: 1\n\0b", 7) + std::string(200000, 'x');
  auto text = readFile(write("ok.yaml", content));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, content);
  auto empty = readFile(write("empty.yaml", ""));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "");
}

TEST_F(ReadFileTest, ErrorsNameThePathAndMapToCodes) {
  const std::string big = write("big.yaml", std::string(101, 'x'));
  const std::string exact = write("exact.yaml", std::string(100, 'x'));
  struct Case {
    std::string path;
    size_t cap;
    StatusCode code;
    std::string message_prefix;
  };
  const Case cases[] = {
      {big, 100, StatusCode::kResourceExhausted,
       "failed to read '" + big + "': file is 101 bytes, more than the 100 allowed"},
      {(dir_ / "missing").string(), 100, StatusCode::kNotFound,
       "failed to read '" + (dir_ / "missing").string() + "': "},
      {dir_.string(), 100, StatusCode::kInvalidArgument,
       "failed to read '" + dir_.string() + "': "},
  };
  for (const Case& c : cases) {
    auto text = readFile(c.path, c.cap);
    ASSERT_FALSE(text.ok()) << c.path;
    EXPECT_EQ(text.status().code(), c.code) << text.status();
    EXPECT_EQ(text.status().message().substr(0, c.message_prefix.size()), c.message_prefix);
  }
  auto at_cap = readFile(exact, 100);
  ASSERT_TRUE(at_cap.ok()) << at_cap.status();
  EXPECT_EQ(at_cap->size(), 100u);
}

TEST_F(ReadFileTest, CapAppliesToStreamsOfUnknownSize) {
  // /dev/zero never ends: only the cap stops the read.
  auto text = readFile("/dev/zero", 1000);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(text.status().message(),
            "failed to read '/dev/zero': more than the 1000 bytes allowed");
}

}  // namespace
}  // namespace koord::config
