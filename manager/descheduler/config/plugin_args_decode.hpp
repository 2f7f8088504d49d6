// Decoding of the typed plugin args (private to this folder).
#pragma once

#include <nlohmann/json.hpp>

#include "koord/config/field_reader.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::config::detail {

using Json = nlohmann::json;
using koord::config::Field;
using koord::config::FieldReader;

// Decodes `args` (absent: all defaults) into `out`, which starts from the defaults. Unknown keys
// are warnings and kept in out.extra; wrong types and invalid values are errors.
void decodeMigrationControllerArgs(FieldReader& reader, const Field& args,
                                   MigrationControllerArgs& out);
void decodeLowNodeLoadArgs(FieldReader& reader, const Field& args, LowNodeLoadArgs& out);

}  // namespace koord::manager::descheduler::config::detail
