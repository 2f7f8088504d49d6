// The Kubernetes resources the webhook certificate controller reads and writes (the core library
// names only those the rest of koord uses).
#pragma once

#include "koord/k8s/resource.hpp"

namespace koord::manager::cert {

// NOLINTBEGIN(cert-err58-cpp): built before main, as koord/k8s/resource.hpp's constants are.
inline const k8s::GroupVersionResource kSecrets{"", "v1", "secrets", true};
inline const k8s::GroupVersionResource kMutatingWebhookConfigurations{
    "admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations", false};
inline const k8s::GroupVersionResource kValidatingWebhookConfigurations{
    "admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", false};
// NOLINTEND(cert-err58-cpp)

}  // namespace koord::manager::cert
