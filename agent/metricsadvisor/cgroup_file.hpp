// Reading and parsing the small text files of cgroupfs and procfs that the collectors poll:
// one number per file (cpuacct.usage, memory.current) and "key value" lines (cpu.stat,
// memory.stat, /proc/meminfo). Shared by the cgroup readers and the node collector.
//
// Errors follow agent/system/sysfs_file.hpp and name the file: kNotFound "failed to read
// '<path>': no such file", kPermissionDenied, kUnavailable, and kInvalidArgument "failed to
// parse '<path>': <what was expected and what was found>". Stateless and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::agent::metricsadvisor {

// Ok when `dir` is a path relative to a cgroup hierarchy's root: not absolute, no ".."
// component. Else kInvalidArgument "failed to read cgroup '<dir>': <why>".
[[nodiscard]] Status checkRelativeDir(std::string_view dir);

// "<prefix>/<dir>/<file>" ("<prefix>/<file>" for the root, dir ""), with one allocation.
[[nodiscard]] std::string joinCgroupPath(std::string_view prefix, std::string_view dir,
                                         std::string_view file);

// The whole file into `*content` (replacing it; its capacity is reused). Files of cgroupfs and
// procfs report a size of 0, so the file is read until end of file.
[[nodiscard]] Status readWholeFile(const std::string& path, std::string* content);

// How readDescriptor reads.
enum class ReadMode {
  // read(2) from the current offset until a read returns 0.
  kStream,
  // pread(2) from offset 0; a read that returns less than asked ends the file. Right for regular
  // files and for single-record kernfs files (every cgroup file read here: the kernel writes the
  // whole content at once and hands it out in one read when the buffer is large enough), not for
  // multi-record seq_files such as cgroup.procs.
  kWholeFromStart,
};

// The content of the open file `fd` into `*content` (replacing it). Errors name `path`; EISDIR
// is kInvalidArgument "failed to parse '<path>': is a directory, expected a file".
[[nodiscard]] Status readDescriptor(int fd, ReadMode mode, const std::string& path,
                                    std::string* content);

// The status for errno `err` from opening or reading `path` (see the contract above).
[[nodiscard]] Status fileError(const std::string& path, int err);

// `content` as one unsigned decimal (surrounding whitespace ignored), else kInvalidArgument
// "failed to parse '<path>': expected an unsigned integer, got '<text>'".
[[nodiscard]] Result<uint64_t> parseUint64Content(std::string_view content,
                                                  const std::string& path);

// The value of the first line "<key> <value>" (cgroupfs) or "<key>:   <value> kB" (meminfo): the
// key starts a line and is followed by a colon, spaces or a tab; the value is an unsigned
// decimal, optionally followed by " kB" (returned as written, not scaled). False when no line
// has that key or its value does not parse (then `*out` is unchanged).
[[nodiscard]] bool findKeyValue(std::string_view text, std::string_view key, uint64_t* out);

// Parses an unsigned decimal with nothing else around it.
[[nodiscard]] bool parseUint64(std::string_view text, uint64_t* out);

// kInvalidArgument "failed to parse '<path>': expected a line '<key> <unsigned integer>'".
[[nodiscard]] Status missingKey(const std::string& path, std::string_view key);

}  // namespace koord::agent::metricsadvisor
