// ensureCaBundle: puts the CA certificate into clientConfig.caBundle of every webhook of an
// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration or ValidatingWebhookConfiguration,
// so that kube-apiserver trusts the serving certificate. Every replica may call it: it writes only
// when some webhook's caBundle differs from `ca_pem` (compared as decoded bytes), with a PUT of the
// object as read (its resourceVersion, every other field kept); on Conflict it reads the object
// again and retries, at most kCaBundleAttempts times in all.
//
// Returns whether it wrote. A configuration that does not exist is kNotFound (the caller logs it
// and tries again later; the configuration may be created after koord-manager starts). Performs
// blocking API calls; thread-safe as the client is.
#pragma once

#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"

namespace koord::manager::cert {

inline constexpr int kCaBundleAttempts = 3;

[[nodiscard]] Result<bool> ensureCaBundle(k8s::Client& client,
                                          const k8s::GroupVersionResource& resource,
                                          const std::string& name, std::string_view ca_pem);

}  // namespace koord::manager::cert
