// Lexical confinement of the paths the resource executor writes under (a kubepods folder, the
// resctrl root, a network device's classes): a path is judged by its components alone, before
// anything is read or written. Symbolic links are not resolved. Pure functions; thread-safe.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace koord::agent::resourceexecutor {

// The components of a relative `dir` without empty and "." ones; nullopt when `dir` is absolute
// or holds ".." or a NUL byte.
[[nodiscard]] std::optional<std::vector<std::string>> relativeComponents(
    const std::filesystem::path& dir);

// `parts` joined back into a relative path ("" for none).
[[nodiscard]] std::filesystem::path joinComponents(const std::vector<std::string>& parts);

// Whether `parts` starts with every component of `base` ("kubepods" holds "kubepods" and
// "kubepods/burstable", not "kubepods-evil").
[[nodiscard]] bool startsWith(const std::vector<std::string>& parts,
                              const std::vector<std::string>& base);

}  // namespace koord::agent::resourceexecutor
