// CommandArgs: the argument parser of koord's offline subcommands (`koord-extender simulate`,
// `koord-manager calculate`), which take kubectl-style flags: short aliases (`-f`, `-o`), a
// repeatable `-f`, `--name=value` or `--name value`, and `-h`/`--help`. The daemons' flags use
// FlagSet (flags.hpp) instead.
//
//   CommandArgs args({{"-f", "--filename", true}, {"-o", "--output", false}});
//   if (std::string problem = args.parse(argc, argv); !problem.empty()) { usage error }
//   args.values("--filename");  // every -f given, in order
//   args.value("--output", "table");
//
// parse() returns "" when the arguments parse, else one message: "unknown argument '--x'",
// "flag -f needs a value". argv[0] (the subcommand) is skipped. A non-repeatable flag given twice
// keeps the last value. Not thread-safe; parse once.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace koord {

struct CommandFlag {
  std::string short_name;  // "-f", or "" for none
  std::string long_name;   // "--filename": the key of values() and value()
  bool repeated = false;
};

class CommandArgs {
 public:
  explicit CommandArgs(std::vector<CommandFlag> flags) : flags_(std::move(flags)) {}

  [[nodiscard]] std::string parse(int argc, const char* const* argv);

  [[nodiscard]] bool help() const { return help_; }
  // Every value given for the flag, in order (the last one only for a non-repeatable flag).
  [[nodiscard]] const std::vector<std::string>& values(std::string_view long_name) const;
  // The value given, else `fallback`.
  [[nodiscard]] std::string value(std::string_view long_name, std::string fallback) const;

 private:
  std::vector<CommandFlag> flags_;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  bool help_ = false;
};

}  // namespace koord
