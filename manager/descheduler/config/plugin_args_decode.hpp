// Decoding of the typed plugin args (private to this folder).
#pragma once

#include "decode_util.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::config::detail {

// Decodes `args` (absent: all defaults) into `out`, which starts from the defaults. Unknown keys
// are warnings and kept in out.extra; wrong types and invalid values are errors.
void decodeMigrationControllerArgs(Reader& reader, const Field& args, MigrationControllerArgs& out);
void decodeLowNodeLoadArgs(Reader& reader, const Field& args, LowNodeLoadArgs& out);

}  // namespace koord::manager::descheduler::config::detail
