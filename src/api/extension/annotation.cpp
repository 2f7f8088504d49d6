#include "koord/api/extension/annotation.hpp"

namespace koord::api::extension {

Status annotationError(std::string_view key, const Status& cause) {
  std::string msg = "failed to parse annotation '";
  msg += key;
  msg += "': ";
  msg += cause.message();
  return Status(cause.code(), std::move(msg));
}

Result<Json> parseAnnotationValue(std::string_view key, std::string_view value) {
  auto parsed = parseJson(value);
  if (!parsed.ok()) {
    constexpr std::string_view kPrefix = "failed to parse JSON: ";
    std::string cause = parsed.status().message();
    if (cause.rfind(kPrefix, 0) == 0) {
      cause = "invalid JSON: " + cause.substr(kPrefix.size());
    }
    return annotationError(key, Status::invalidArgument(std::move(cause)));
  }
  return std::move(parsed).value();
}

Result<resource::ResourceList> parseResourceListAnnotation(std::string_view key,
                                                           std::string_view value) {
  return parseAnnotationJson<resource::ResourceList>(key, value);
}

std::string formatResourceList(const resource::ResourceList& list) {
  return formatAnnotationJson(list);
}

Result<std::vector<std::string>> parseStringListAnnotation(std::string_view key,
                                                           std::string_view value) {
  return parseAnnotationJson<std::vector<std::string>>(key, value);
}

std::string formatStringList(const std::vector<std::string>& values) {
  return formatAnnotationJson(values);
}

}  // namespace koord::api::extension
