// The strict field lists of the slo-controller-config strategies: every key outside Koordinator's
// JSON fields of a strategy (nested objects included) is recorded on the reader as
// `unknown field "<key>"` with a did-you-mean, on the key's own line. The values themselves are
// decoded by the api models (FieldReader::read), which these checks do not replace.
#pragma once

#include "koord/config/field_reader.hpp"

namespace koord::manager::sloconfig {

// ResourceThresholdStrategy (resource-threshold-config's clusterStrategy and node strategies).
void checkResourceThresholdFields(config::FieldReader& reader, const config::Field& field);
// ResourceQOSStrategy: policies and the five classes, each ResourceQOS down to blkio's ioCfg.
void checkResourceQOSFields(config::FieldReader& reader, const config::Field& field);
// CPUBurstStrategy.
void checkCPUBurstFields(config::FieldReader& reader, const config::Field& field);
// SystemStrategy.
void checkSystemFields(config::FieldReader& reader, const config::Field& field);
// One HostApplicationSpec (cgroupPath included; `strategy` is free-form).
void checkHostApplicationFields(config::FieldReader& reader, const config::Field& field);

}  // namespace koord::manager::sloconfig
