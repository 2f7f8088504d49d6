#!/usr/bin/env python3
"""Checks koord-agent's GPU discovery on a real NVIDIA host against nvidia-smi.

    gpu_host_check.py --probe build/default/test/unit/agent/devices/agent_gpu_probe \
        [--load-seconds 20] [--report report.json]

What it checks, per GPU that `nvidia-smi -q -x` lists:
  - agent_gpu_probe (the agent's DlopenNvml + discoverGpus) reports the same index, name, UUID,
    minor number, memory (MiB), driver version and PCI bus id, and the GPU as healthy;
  - numa_node and local_cpulist agree with the GPU's sysfs folder;
  - the Device object the agent would report (`agent_gpu_probe --device`) has one gpu entry per
    GPU with that UUID, minor and memory, and the gpu-model / driver-version labels;
  - with --load-seconds and PyTorch present: while a matrix-product loop keeps the GPU busy, the
    agent reads utilization.gpu above 50%, and reads (near) 0% once the GPU is idle again.
Exit status 0 when everything agrees, 1 on any mismatch (each one printed), 2 when the host has
no nvidia-smi or NVIDIA GPU (nothing to check).
"""

import argparse
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

MIB = 1024 * 1024


def smi_gpus():
    """The GPUs of `nvidia-smi -q -x`, as dicts of the fields compared."""
    xml = subprocess.run(["nvidia-smi", "-q", "-x"], check=True, capture_output=True, text=True).stdout
    root = ET.fromstring(xml)
    driver = root.findtext("driver_version")
    gpus = []
    for gpu in root.findall("gpu"):
        total = gpu.findtext("fb_memory_usage/total")  # "143771 MiB"
        gpus.append({
            "name": gpu.findtext("product_name"),
            "uuid": gpu.findtext("uuid"),
            "minor": int(gpu.findtext("minor_number")) if gpu.findtext("minor_number", "N/A").isdigit() else -1,
            "memory_mib": int(total.split()[0]),
            "driver_version": driver,
            "pci_bus_id": gpu.findtext("pci/pci_bus_id"),  # "00000000:3B:00.0"
            "gpu_util": gpu.findtext("utilization/gpu_util"),
        })
    return gpus


def sysfs_bus_id(nvml_id):
    domain, bus, rest = nvml_id.split(":")
    return "%04x:%s:%s" % (int(domain, 16), bus.lower(), rest.lower())


def quantity_bytes(text):
    """A Kubernetes quantity of bytes ("143771Mi", "150754820096") as an int."""
    units = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return int(text[:-2]) * factor
    return int(text)


def read_or_none(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def probe(binary, *args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def eq(self, what, got, want):
        if got == want:
            self.passed += 1
            print("ok    %s: %r" % (what, got))
        else:
            self.failures.append("%s: agent %r, want %r" % (what, got, want))
            print("FAIL  %s: agent %r, want %r" % (what, got, want))


def check_discovery(c, binary, smi):
    gpus = probe(binary)
    c.eq("GPU count", len(gpus), len(smi))
    for i, (got, want) in enumerate(zip(gpus, smi)):
        c.eq("gpu %d index" % i, got["index"], i)
        c.eq("gpu %d model" % i, got["model"], want["name"])
        c.eq("gpu %d uuid" % i, got["uuid"], want["uuid"])
        c.eq("gpu %d minor" % i, got["minor"], want["minor"])
        c.eq("gpu %d memory MiB" % i, got["memory_total_bytes"] // MIB, want["memory_mib"])
        c.eq("gpu %d driver" % i, got["driver_version"], want["driver_version"])
        bus = sysfs_bus_id(want["pci_bus_id"])
        c.eq("gpu %d pci bus id" % i, got["pci_bus_id"], bus)
        c.eq("gpu %d healthy" % i, (got["healthy"], got["unhealthy_reason"]), (True, ""))
        folder = "/sys/bus/pci/devices/" + bus
        numa = read_or_none(folder + "/numa_node")
        c.eq("gpu %d numa_node (sysfs %s)" % (i, numa), got["numa_node"], int(numa) if numa else -1)
        cpus = read_or_none(folder + "/local_cpulist")
        if cpus is not None:
            c.eq("gpu %d local_cpus" % i, got["local_cpus"], cpus)
        c.eq("gpu %d utilization reported" % i, "utilization" in got, True)
        if want["minor"] >= 0:
            c.eq("gpu %d /dev/nvidia%d exists" % (i, want["minor"]),
                 os.path.exists("/dev/nvidia%d" % want["minor"]), True)
    return gpus


def check_device(c, binary, gpus):
    device = probe(binary, "--device", "gpu-host")[0]
    labels = device["metadata"].get("labels", {})
    c.eq("Device name", device["metadata"]["name"], "gpu-host")
    c.eq("Device label gpu-vendor", labels.get("node.koordinator.sh/gpu-vendor"), "nvidia")
    model = gpus[0]["model"].removeprefix("NVIDIA ").replace(" ", "-") if gpus else None
    c.eq("Device label gpu-model", labels.get("node.koordinator.sh/gpu-model"), model)
    c.eq("Device label gpu-driver-version", labels.get("node.koordinator.sh/gpu-driver-version"),
         gpus[0]["driver_version"] if gpus else None)
    entries = device["spec"].get("devices", [])
    c.eq("Device entries", len(entries), len(gpus))
    for got, gpu in zip(entries, gpus):
        i = gpu["index"]
        c.eq("Device gpu %d type/id/minor/health" % i,
             (got["type"], got["id"], got["minor"], got["health"]), ("gpu", gpu["uuid"], gpu["minor"], True))
        res = got["resources"]
        c.eq("Device gpu %d resources" % i,
             (res.get("koordinator.sh/gpu-core"), quantity_bytes(res.get("koordinator.sh/gpu-memory", "0")),
              res.get("koordinator.sh/gpu-memory-ratio")),
             ("100", gpu["memory_total_bytes"], "100"))
        topo = got.get("topology", {})
        c.eq("Device gpu %d topology busID" % i, topo.get("busID"), gpu["pci_bus_id"])
    return device


LOAD = """
import sys, time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
end = time.time() + float(sys.argv[1])
print("load started", flush=True)
while time.time() < end:
    for _ in range(20):
        a = (a @ a).clamp_(-1, 1)
    torch.cuda.synchronize()
"""


def check_utilization(c, binary, seconds):
    load = subprocess.Popen([sys.executable, "-c", LOAD, str(seconds)], stdout=subprocess.PIPE, text=True)
    line = load.stdout.readline()
    if "load started" not in line:
        load.wait()
        print("skip  utilization: the PyTorch load did not start (%r)" % line)
        return None
    time.sleep(2)
    busy = []
    while load.poll() is None and len(busy) < seconds - 3:
        busy.append((probe(binary)[0]["utilization"]["gpu_percent"], smi_gpus()[0]["gpu_util"]))
        time.sleep(1)
    load.wait()
    time.sleep(3)
    idle = [(probe(binary)[0]["utilization"]["gpu_percent"], smi_gpus()[0]["gpu_util"]) for _ in range(3)]
    busy_agent = sorted(b[0] for b in busy)
    median_busy = busy_agent[len(busy_agent) // 2] if busy_agent else None
    print("utilization under load (agent, nvidia-smi): %s" % busy)
    print("utilization idle (agent, nvidia-smi): %s" % idle)
    c.eq("utilization median under load above 50%", median_busy is not None and median_busy > 50, True)
    c.eq("utilization idle below 10%", max(i[0] for i in idle) < 10, True)
    return {"busy": busy, "idle": idle}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", required=True)
    parser.add_argument("--load-seconds", type=int, default=0)
    parser.add_argument("--report")
    args = parser.parse_args()
    try:
        smi = smi_gpus()
    except (OSError, subprocess.CalledProcessError) as err:
        print("no NVIDIA GPU here: %s" % err)
        return 2
    if not smi:
        print("nvidia-smi lists no GPU")
        return 2
    c = Checker()
    gpus = check_discovery(c, args.probe, smi)
    if not gpus:
        print("the agent's discovery found no GPU (is libnvidia-ml.so.1 loadable?): %s checks failed"
              % len(c.failures))
        return 1
    device = check_device(c, args.probe, gpus)
    util = check_utilization(c, args.probe, args.load_seconds) if args.load_seconds else None
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"nvidia_smi": smi, "probe": gpus, "device": device, "utilization": util,
                       "passed": c.passed, "failures": c.failures}, f, indent=2)
    print("%d checks passed, %d failed" % (c.passed, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
