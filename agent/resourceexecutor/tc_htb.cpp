#include "agent/resourceexecutor/tc_htb.hpp"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace koord::agent::resourceexecutor::tc {

namespace {

constexpr uint32_t kHtbMtu = 1600;  // iproute2's default mtu for HTB's burst
constexpr uint64_t kU32Max = 0xffffffffULL;

// 1 to 4 hex digits.
std::optional<uint32_t> tcHandlePart(std::string_view text) {
  if (text.empty() || text.size() > 4) {
    return std::nullopt;
  }
  uint32_t value = 0;
  for (char c : text) {
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) {
      return std::nullopt;
    }
    value = value * 16 + static_cast<uint32_t>(digit);
  }
  return value;
}

// A ratespec of `rate_bytes` bytes/s keeping `kept`'s overhead, mpu and linklayer.
tc_ratespec tcRateSpec(uint64_t rate_bytes, const tc_ratespec& kept) {
  tc_ratespec spec{};
  spec.overhead = kept.overhead;
  spec.mpu = kept.mpu;
  spec.linklayer = kept.linklayer != TC_LINKLAYER_UNAWARE
                       ? kept.linklayer
                       : static_cast<unsigned char>(TC_LINKLAYER_ETHERNET);
  spec.cell_align = -1;  // as tc_calc_rtable() sets it
  spec.rate = static_cast<uint32_t>(std::min(rate_bytes, kU32Max));
  return spec;
}

}  // namespace

PschedClock parsePsched(std::string_view text) {
  unsigned t2us = 0;
  unsigned us2t = 0;
  unsigned clock_res = 0;
  unsigned hz = 0;
  const std::string copy(text);
  const int fields = std::sscanf(copy.c_str(), "%08x%08x%08x%08x", &t2us, &us2t, &clock_res, &hz);
  if (fields < 3 || us2t == 0 || clock_res == 0) {
    return {};
  }
  if (clock_res == 1000000000) {
    t2us = us2t;  // iproute2's compatibility rule for nanosecond clocks
  }
  PschedClock clock;
  clock.tick_in_usec = static_cast<double>(t2us) / us2t * (static_cast<double>(clock_res) / 1e6);
  clock.hz = fields == 4 && clock_res == 1000000 && hz != 0 ? hz : 100;
  return clock;
}

PschedClock readPsched() {
  std::ifstream in("/proc/net/psched");
  if (!in) {
    return {};
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parsePsched(text.str());
}

std::optional<uint32_t> parseClassId(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  const std::optional<uint32_t> major = tcHandlePart(text.substr(0, colon));
  const std::optional<uint32_t> minor = tcHandlePart(text.substr(colon + 1));
  if (!major.has_value() || !minor.has_value()) {
    return std::nullopt;
  }
  return (*major << 16) | *minor;
}

std::string formatClassId(uint32_t handle) {
  char text[16];
  std::snprintf(text, sizeof(text), "%x:%x", handle >> 16, handle & 0xffff);
  return text;
}

uint32_t htbBufferTicks(uint64_t rate_bytes, const PschedClock& clock) {
  if (rate_bytes == 0) {
    return 0;
  }
  const uint64_t size =
      std::min<uint64_t>(rate_bytes / std::max<uint32_t>(clock.hz, 1) + kHtbMtu, kU32Max);
  // tc_calc_xmittime(): whole microseconds first, then ticks, each truncated to 32 bits.
  const double usec = std::min(1e6 * (static_cast<double>(size) / static_cast<double>(rate_bytes)),
                               static_cast<double>(kU32Max));
  const double ticks =
      std::min(static_cast<double>(static_cast<uint32_t>(usec)) * clock.tick_in_usec,
               static_cast<double>(kU32Max));
  return static_cast<uint32_t>(ticks);
}

rtnl::Bytes encodeClassDump(int ifindex, uint32_t seq) {
  rtnl::MessageBuilder message(RTM_GETTCLASS, NLM_F_REQUEST | NLM_F_DUMP, seq);
  tcmsg header{};
  header.tcm_family = AF_UNSPEC;
  header.tcm_ifindex = ifindex;
  message.appendRaw(&header, sizeof(header));
  return std::move(message).finish();
}

rtnl::Bytes encodeHtbChange(const HtbChange& change, uint32_t seq, const PschedClock& clock) {
  rtnl::MessageBuilder message(RTM_NEWTCLASS, NLM_F_REQUEST | NLM_F_ACK, seq);
  tcmsg header{};
  header.tcm_family = AF_UNSPEC;
  header.tcm_ifindex = change.ifindex;
  header.tcm_handle = change.handle;
  header.tcm_parent = change.parent;
  message.appendRaw(&header, sizeof(header));
  message.addString(TCA_KIND, "htb");

  tc_htb_opt opt{};
  opt.rate = tcRateSpec(change.rate_bytes, change.rate_spec);
  opt.ceil = tcRateSpec(change.ceil_bytes, change.ceil_spec);
  opt.buffer = htbBufferTicks(change.rate_bytes, clock);
  opt.cbuffer = htbBufferTicks(change.ceil_bytes, clock);
  opt.prio = change.prio;
  const size_t options = message.beginNested(TCA_OPTIONS);
  message.addAttr(TCA_HTB_PARMS, &opt, sizeof(opt));
  if (change.rate_bytes > kU32Max) {
    message.addU64(TCA_HTB_RATE64, change.rate_bytes);
  }
  if (change.ceil_bytes > kU32Max) {
    message.addU64(TCA_HTB_CEIL64, change.ceil_bytes);
  }
  message.endNested(options);
  return std::move(message).finish();
}

std::optional<DumpedClass> decodeClass(std::span<const uint8_t> message) {
  constexpr size_t kHeaders = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(tcmsg));
  if (message.size() < kHeaders) {
    return std::nullopt;
  }
  nlmsghdr header{};
  std::memcpy(&header, message.data(), sizeof(header));
  if (header.nlmsg_type != RTM_NEWTCLASS) {
    return std::nullopt;
  }
  tcmsg tc_header{};
  std::memcpy(&tc_header, message.data() + NLMSG_HDRLEN, sizeof(tc_header));
  DumpedClass out;
  out.ifindex = tc_header.tcm_ifindex;
  out.handle = tc_header.tcm_handle;
  out.parent = tc_header.tcm_parent;
  std::optional<uint64_t> rate64;
  std::optional<uint64_t> ceil64;
  for (const rtnl::Attr& attr : rtnl::parseAttrs(message.subspan(kHeaders))) {
    if (attr.type == TCA_KIND && !attr.value.empty()) {
      const auto* text = reinterpret_cast<const char*>(attr.value.data());
      out.kind.assign(text, strnlen(text, attr.value.size()));
    } else if (attr.type == TCA_OPTIONS) {
      for (const rtnl::Attr& option : rtnl::parseAttrs(attr.value)) {
        uint64_t wide = 0;
        if (option.type == TCA_HTB_PARMS && option.value.size() >= sizeof(tc_htb_opt)) {
          tc_htb_opt opt{};
          std::memcpy(&opt, option.value.data(), sizeof(opt));
          out.htb = opt;
        } else if ((option.type == TCA_HTB_RATE64 || option.type == TCA_HTB_CEIL64) &&
                   option.value.size() >= sizeof(wide)) {
          std::memcpy(&wide, option.value.data(), sizeof(wide));
          (option.type == TCA_HTB_RATE64 ? rate64 : ceil64) = wide;
        }
      }
    }
  }
  if (out.kind != "htb") {
    out.htb.reset();  // TCA_OPTIONS of another qdisc means something else
  }
  if (out.htb.has_value()) {
    out.rate_bytes = rate64.value_or(out.htb->rate.rate);
    out.ceil_bytes = ceil64.value_or(out.htb->ceil.rate);
  }
  return out;
}

}  // namespace koord::agent::resourceexecutor::tc
