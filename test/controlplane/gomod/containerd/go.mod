// Wrapper module that builds containerd and ctr for koord's real-node tests.
module koord.invalid/testbin/containerd

go 1.26.6

require github.com/containerd/containerd/v2 v2.4.2 // indirect
