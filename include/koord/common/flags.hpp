// FlagSet: a small command-line parser for the koord programs.
//
// Accepts `--name=value`, `--name value`, boolean `--name` (and `--name=true|false`), `-h` for
// --help. Unknown flags and missing values are errors that name the flag. Every program gets
// --help and --version for free. Not thread-safe; parse once in main().
#pragma once

#include <map>
#include <string>
#include <vector>

#include "koord/common/result.hpp"

namespace koord {

class FlagSet {
 public:
  // `program` is the binary name; `summary` is the one-paragraph description printed by --help.
  FlagSet(std::string program, std::string summary);

  // Declares a flag taking a value; `fallback` is its value when not given.
  void addString(const std::string& name, std::string fallback, std::string help);
  // Declares a boolean flag (false unless given).
  void addBool(const std::string& name, std::string help);

  // Parses argv[1..]. Positional arguments are kept in positional(). On error the Status names
  // the offending flag.
  [[nodiscard]] Status parse(int argc, const char* const* argv);

  [[nodiscard]] const std::string& get(const std::string& name) const;
  [[nodiscard]] bool getBool(const std::string& name) const;
  [[nodiscard]] bool helpRequested() const { return getBool("help"); }
  [[nodiscard]] bool versionRequested() const { return getBool("version"); }
  [[nodiscard]] const std::vector<std::string>& positional() const { return positional_; }

  // The --help text: usage line, summary and one line per flag with its default.
  [[nodiscard]] std::string usage() const;

 private:
  struct Flag {
    std::string value;
    std::string fallback;
    std::string help;
    bool is_bool = false;
  };
  std::string program_;
  std::string summary_;
  std::map<std::string, Flag> flags_;
  std::vector<std::string> order_;
  std::vector<std::string> positional_;
};

}  // namespace koord
