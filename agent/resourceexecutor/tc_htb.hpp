// The tc messages of the net-QoS writer: the dump of a device's classes (RTM_GETTCLASS), the
// change of an HTB class's rate and ceil (RTM_NEWTCLASS), and the decoding of a dumped class, as
// byte buffers (rtnetlink.hpp). The encoding follows iproute2's `tc class change ... htb rate R
// ceil C` (tc/q_htb.c): rates in bytes/s, a 64-bit rate also in TCA_HTB_RATE64 / TCA_HTB_CEIL64,
// buffer and cbuffer the time one MTU-sized burst (1600 bytes plus rate/HZ) takes at the rate,
// in psched ticks; no rate tables (the kernel needs them only for link-layer-unaware rates).
//
// Pure functions but readPsched(); thread-safe.
#pragma once

#include <linux/pkt_sched.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "agent/resourceexecutor/rtnetlink.hpp"

namespace koord::agent::resourceexecutor::tc {

// The kernel's packet-scheduler clock as /proc/net/psched gives it (tc_core_init() and get_hz()
// of iproute2); the defaults are what every kernel since 2.6.31 with high-resolution timers
// reports ("000003e8 00000040 000f4240 3b9aca00": 64 ns ticks, HZ 1e9).
struct PschedClock {
  double tick_in_usec = 15.625;
  uint32_t hz = 1000000000;
};

// The clock of the text of /proc/net/psched; the defaults when it does not parse.
[[nodiscard]] PschedClock parsePsched(std::string_view text);
// parsePsched() of /proc/net/psched; the defaults when it cannot be read.
[[nodiscard]] PschedClock readPsched();

// "1:2" (hex "<major>:<minor>", as tc prints and parses it) as the 32-bit handle 0x00010002;
// nullopt unless both parts are 1 to 4 hex digits.
[[nodiscard]] std::optional<uint32_t> parseClassId(std::string_view text);
// The handle as tc prints it: "1:2", "ffff:a".
[[nodiscard]] std::string formatClassId(uint32_t handle);

// iproute2's buffer for `rate_bytes` bytes/s: tc_calc_xmittime(rate, rate / hz + 1600), in
// ticks. 0 for a rate of 0.
[[nodiscard]] uint32_t htbBufferTicks(uint64_t rate_bytes, const PschedClock& clock);

// RTM_GETTCLASS, NLM_F_REQUEST | NLM_F_DUMP, for the classes of device `ifindex`.
[[nodiscard]] rtnl::Bytes encodeClassDump(int ifindex, uint32_t seq);

// The new rate and ceil of an existing HTB class; the rest is kept from the class as dumped.
struct HtbChange {
  int ifindex = 0;
  uint32_t handle = 0;      // the class
  uint32_t parent = 0;      // its parent, as dumped (the kernel ignores it for an existing class)
  uint64_t rate_bytes = 0;  // bytes/s, > 0
  uint64_t ceil_bytes = 0;  // bytes/s, >= rate_bytes
  uint32_t prio = 0;        // kept: a change sends every field of tc_htb_opt
  tc_ratespec rate_spec{};  // overhead, mpu and linklayer kept (linklayer ethernet when unset)
  tc_ratespec ceil_spec{};
};

// RTM_NEWTCLASS, NLM_F_REQUEST | NLM_F_ACK and neither NLM_F_CREATE nor NLM_F_EXCL: the kernel
// changes the class and answers ENOENT when it does not exist. Attributes: TCA_KIND "htb",
// TCA_OPTIONS { TCA_HTB_PARMS (tc_htb_opt: rate, ceil, buffer, cbuffer, prio; quantum 0, so the
// kernel derives it from the rate as for `tc class change`), TCA_HTB_RATE64 and TCA_HTB_CEIL64
// when the value needs more than 32 bits (the u32 field then holds 0xffffffff) }.
[[nodiscard]] rtnl::Bytes encodeHtbChange(const HtbChange& change, uint32_t seq,
                                          const PschedClock& clock);

// One class of a dump.
struct DumpedClass {
  int ifindex = 0;
  uint32_t handle = 0;
  uint32_t parent = 0;
  std::string kind;               // TCA_KIND: "htb", "mq", ...
  std::optional<tc_htb_opt> htb;  // TCA_HTB_PARMS, for an HTB class
  uint64_t rate_bytes = 0;        // TCA_HTB_RATE64 when given, else htb->rate.rate
  uint64_t ceil_bytes = 0;
};

// The class of one RTM_NEWTCLASS message (header included); nullopt for another message type or
// a truncated one.
[[nodiscard]] std::optional<DumpedClass> decodeClass(std::span<const uint8_t> message);

}  // namespace koord::agent::resourceexecutor::tc
