# Sourced by cluster.sh and the device scripts.
# shellcheck shell=bash
# write_kubeconfig FILE SERVER CA_FILE TOKEN: a kubeconfig that reaches the API server at SERVER
# (https://host:port), trusts CA_FILE, and authenticates with the bearer TOKEN.
write_kubeconfig() {
  cat > "$1" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: koord-test
  cluster:
    server: $2
    certificate-authority: $3
contexts:
- name: koord-test
  context: {cluster: koord-test, user: admin}
current-context: koord-test
users:
- name: admin
  user: {token: $4}
KUBECONFIG
}
