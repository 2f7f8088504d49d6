// The net-QoS writer's rtnetlink messages as bytes (no root, no socket): the class change and the
// dump request it sends, the replies it collects (data, acks, extended-ack errors) and the classes
// it decodes from a dump; and the writer's answers that need no kernel class.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "agent/resourceexecutor/rtnetlink.hpp"
#include "agent/resourceexecutor/target_writer.hpp"
#include "agent/resourceexecutor/tc_htb.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using ::testing::HasSubstr;

constexpr size_t kTcHeaders = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(tcmsg));  // 16 + 20

nlmsghdr nlHeaderOf(const rtnl::Bytes& message) {
  nlmsghdr header{};
  std::memcpy(&header, message.data(), sizeof(header));
  return header;
}

tcmsg tcHeaderOf(const rtnl::Bytes& message) {
  tcmsg header{};
  std::memcpy(&header, message.data() + NLMSG_HDRLEN, sizeof(header));
  return header;
}

std::vector<rtnl::Attr> tcAttrsOf(const rtnl::Bytes& message) {
  return rtnl::parseAttrs(std::span<const uint8_t>(message).subspan(kTcHeaders));
}

template <typename T>
T attrValue(const rtnl::Attr& attr) {
  T value{};
  EXPECT_EQ(attr.value.size(), sizeof(T));
  std::memcpy(&value, attr.value.data(), std::min(sizeof(T), attr.value.size()));
  return value;
}

tc::HtbChange htbChange(uint64_t rate_bytes, uint64_t ceil_bytes) {
  tc::HtbChange change;
  change.ifindex = 7;
  change.handle = 0x00010002;
  change.parent = 0x00010000;
  change.rate_bytes = rate_bytes;
  change.ceil_bytes = ceil_bytes;
  change.prio = 3;
  return change;
}

// An RTM_NEWTCLASS message of a dump, as the kernel sends it (htb_dump_class()).
rtnl::Bytes dumpedClass(uint32_t seq, uint32_t handle, const std::string& kind, uint64_t rate_bytes,
                        uint64_t ceil_bytes) {
  rtnl::MessageBuilder message(RTM_NEWTCLASS, NLM_F_MULTI, seq);
  tcmsg header{};
  header.tcm_ifindex = 7;
  header.tcm_handle = handle;
  header.tcm_parent = 0x00010000;
  message.appendRaw(&header, sizeof(header));
  message.addString(TCA_KIND, kind);
  const size_t options = message.beginNested(TCA_OPTIONS);
  if (kind == "htb") {
    tc_htb_opt opt{};
    opt.rate.rate = static_cast<uint32_t>(std::min<uint64_t>(rate_bytes, 0xffffffffULL));
    opt.ceil.rate = static_cast<uint32_t>(std::min<uint64_t>(ceil_bytes, 0xffffffffULL));
    opt.prio = 5;
    message.addAttr(TCA_HTB_PARMS, &opt, sizeof(opt));
    if (rate_bytes > 0xffffffffULL) {
      message.addAttr(TCA_HTB_PAD, nullptr, 0);
      message.addU64(TCA_HTB_RATE64, rate_bytes);
    }
  }
  message.endNested(options);
  const uint32_t stats = 42;
  message.addAttr(TCA_STATS2, &stats, sizeof(stats));
  return std::move(message).finish();
}

// NLMSG_ERROR (an ack when `error` is 0) or NLMSG_DONE, with an extended-ack text when given.
rtnl::Bytes nlTerminator(uint16_t type, uint32_t seq, int error, const std::string& text = {}) {
  uint16_t flags = 0;
  if (type == NLMSG_ERROR) {
    flags = NLM_F_CAPPED | (text.empty() ? 0 : NLM_F_ACK_TLVS);
  }
  rtnl::MessageBuilder message(type, flags, seq);
  if (type == NLMSG_ERROR) {
    nlmsgerr err{};
    err.error = error;
    err.msg.nlmsg_len = 64;  // the request's; capped, so only its header is echoed
    err.msg.nlmsg_type = RTM_NEWTCLASS;
    err.msg.nlmsg_seq = seq;
    message.appendRaw(&err, sizeof(err));
    if (!text.empty()) {
      message.addString(NLMSGERR_ATTR_MSG, text);
    }
  } else {
    message.appendRaw(&error, sizeof(error));
  }
  return std::move(message).finish();
}

rtnl::Bytes concat(const std::vector<rtnl::Bytes>& messages) {
  rtnl::Bytes out;
  for (const rtnl::Bytes& message : messages) {
    out.insert(out.end(), message.begin(), message.end());
  }
  return out;
}

TEST(TcHtbTest, ClassIdsAreHexMajorColonMinorAsTcPrintsThem) {
  EXPECT_EQ(tc::parseClassId("1:2"), 0x00010002u);
  EXPECT_EQ(tc::parseClassId("ffff:A"), 0xffff000au);
  EXPECT_EQ(tc::parseClassId("0001:0010"), 0x00010010u);
  for (const char* bad : {"", "1", ":1", "1:", "12345:1", "x:1", "1:2:3"}) {
    EXPECT_FALSE(tc::parseClassId(bad).has_value()) << bad;
  }
  EXPECT_EQ(tc::formatClassId(0x00010002), "1:2");
  EXPECT_EQ(tc::formatClassId(0xffff000a), "ffff:a");
}

TEST(TcHtbTest, ThePschedClockIsReadAsIproute2ReadsIt) {
  const tc::PschedClock modern = tc::parsePsched("000003e8 00000040 000f4240 3b9aca00\n");
  EXPECT_DOUBLE_EQ(modern.tick_in_usec, 15.625);
  EXPECT_EQ(modern.hz, 1000000000u);
  const tc::PschedClock low_res = tc::parsePsched("000003e8 00000040 000f4240 000003e8\n");
  EXPECT_EQ(low_res.hz, 1000u);
  const tc::PschedClock nanosecond = tc::parsePsched("00000001 00000001 3b9aca00 3b9aca00\n");
  EXPECT_DOUBLE_EQ(nanosecond.tick_in_usec, 1000.0);
  EXPECT_EQ(nanosecond.hz, 100u);  // iproute2's HZ when the resolution is not 1e6
  const tc::PschedClock garbage = tc::parsePsched("not a clock");
  EXPECT_DOUBLE_EQ(garbage.tick_in_usec, 15.625);
  EXPECT_EQ(garbage.hz, 1000000000u);
}

TEST(TcHtbTest, BuffersAreTheTimeOfOneMtuBurstInTicksAsTcComputesThem) {
  const tc::PschedClock clock;
  // `tc class add ... htb rate 10mbit ceil 20mbit` shows "tokens: 20000 ctokens: 10000".
  EXPECT_EQ(tc::htbBufferTicks(1250000, clock), 20000u);
  EXPECT_EQ(tc::htbBufferTicks(2500000, clock), 10000u);
  // 1 byte/s: 1600 s of burst, more ticks than 32 bits hold: clamped.
  EXPECT_EQ(tc::htbBufferTicks(1, clock), 0xffffffffu);
  // 5 GB/s: 1605 bytes take 0.321 us, truncated to 0 us as tc_calc_xmittime() does.
  EXPECT_EQ(tc::htbBufferTicks(5000000000ULL, clock), 0u);
  EXPECT_EQ(tc::htbBufferTicks(0, clock), 0u);
}

TEST(TcHtbTest, TheChangeIsAnHtbClassMessageWithoutCreate) {
  const rtnl::Bytes message = tc::encodeHtbChange(htbChange(1250000, 2500000), 9, {});
  const nlmsghdr header = nlHeaderOf(message);
  EXPECT_EQ(header.nlmsg_len, message.size());
  EXPECT_EQ(header.nlmsg_type, RTM_NEWTCLASS);
  EXPECT_EQ(header.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);  // no NLM_F_CREATE / NLM_F_REPLACE
  EXPECT_EQ(header.nlmsg_seq, 9u);
  const tcmsg tc_header = tcHeaderOf(message);
  EXPECT_EQ(tc_header.tcm_family, AF_UNSPEC);
  EXPECT_EQ(tc_header.tcm_ifindex, 7);
  EXPECT_EQ(tc_header.tcm_handle, 0x00010002u);
  EXPECT_EQ(tc_header.tcm_parent, 0x00010000u);

  const std::vector<rtnl::Attr> attrs = tcAttrsOf(message);
  ASSERT_EQ(attrs.size(), 2u);
  EXPECT_EQ(attrs[0].type, TCA_KIND);
  EXPECT_EQ(std::string(attrs[0].value.begin(), attrs[0].value.end()), std::string("htb\0", 4));
  EXPECT_EQ(attrs[1].type, TCA_OPTIONS);
  // The attributes fill the message exactly: 8 bytes of kind, 4 + 4 + sizeof(tc_htb_opt).
  EXPECT_EQ(message.size(), kTcHeaders + 8 + 4 + 4 + sizeof(tc_htb_opt));
  const std::vector<rtnl::Attr> options = rtnl::parseAttrs(attrs[1].value);
  ASSERT_EQ(options.size(), 1u);  // no 64-bit rates below 2^32 bytes/s
  EXPECT_EQ(options[0].type, TCA_HTB_PARMS);
  const auto opt = attrValue<tc_htb_opt>(options[0]);
  EXPECT_EQ(opt.rate.rate, 1250000u);
  EXPECT_EQ(opt.ceil.rate, 2500000u);
  EXPECT_EQ(opt.rate.linklayer, TC_LINKLAYER_ETHERNET);
  EXPECT_EQ(opt.buffer, 20000u);
  EXPECT_EQ(opt.cbuffer, 10000u);
  EXPECT_EQ(opt.prio, 3u);
  EXPECT_EQ(opt.quantum, 0u);  // the kernel derives it from the rate
}

TEST(TcHtbTest, RatesAbove32BitsGoIn64BitAttributes) {
  const uint64_t rate = 0x100000000ULL;  // 2^32 bytes/s: the first that does not fit
  const uint64_t ceil = 5000000000ULL;
  const rtnl::Bytes message = tc::encodeHtbChange(htbChange(rate, ceil), 1, {});
  const std::vector<rtnl::Attr> attrs = tcAttrsOf(message);
  ASSERT_EQ(attrs.size(), 2u);
  const std::vector<rtnl::Attr> options = rtnl::parseAttrs(attrs[1].value);
  ASSERT_EQ(options.size(), 3u);
  const auto opt = attrValue<tc_htb_opt>(options[0]);
  EXPECT_EQ(opt.rate.rate, 0xffffffffu);
  EXPECT_EQ(opt.ceil.rate, 0xffffffffu);
  EXPECT_EQ(options[1].type, TCA_HTB_RATE64);
  EXPECT_EQ(attrValue<uint64_t>(options[1]), rate);
  EXPECT_EQ(options[2].type, TCA_HTB_CEIL64);
  EXPECT_EQ(attrValue<uint64_t>(options[2]), ceil);

  // 2^32 - 1 still fits the u32 field.
  const rtnl::Bytes fits = tc::encodeHtbChange(htbChange(0xffffffffULL, 0xffffffffULL), 1, {});
  EXPECT_EQ(rtnl::parseAttrs(tcAttrsOf(fits)[1].value).size(), 1u);
}

TEST(TcHtbTest, KeptRateSpecFieldsAreSent) {
  tc::HtbChange change = htbChange(1000, 2000);
  change.rate_spec.overhead = 24;
  change.rate_spec.mpu = 64;
  change.rate_spec.linklayer = TC_LINKLAYER_ATM;
  const rtnl::Bytes message = tc::encodeHtbChange(change, 1, {});
  const auto opt = attrValue<tc_htb_opt>(rtnl::parseAttrs(tcAttrsOf(message)[1].value)[0]);
  EXPECT_EQ(opt.rate.overhead, 24u);
  EXPECT_EQ(opt.rate.mpu, 64u);
  EXPECT_EQ(opt.rate.linklayer, TC_LINKLAYER_ATM);
  EXPECT_EQ(opt.ceil.linklayer, TC_LINKLAYER_ETHERNET);  // unset: ethernet, as tc sends it
}

TEST(TcHtbTest, TheDumpRequestNamesTheDevice) {
  const rtnl::Bytes message = tc::encodeClassDump(7, 4);
  const nlmsghdr header = nlHeaderOf(message);
  EXPECT_EQ(header.nlmsg_len, kTcHeaders);
  EXPECT_EQ(message.size(), kTcHeaders);
  EXPECT_EQ(header.nlmsg_type, RTM_GETTCLASS);
  EXPECT_EQ(header.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
  EXPECT_EQ(header.nlmsg_seq, 4u);
  EXPECT_EQ(tcHeaderOf(message).tcm_ifindex, 7);
}

TEST(RtnetlinkTest, ADumpReplyIsCollectedUpToDoneAndItsClassesDecoded) {
  const rtnl::Bytes first = concat({dumpedClass(4, 0x00010002, "htb", 1250000, 2500000),
                                    dumpedClass(3, 0x00010003, "htb", 1, 1),  // another request
                                    dumpedClass(4, 0x00020001, "mq", 0, 0)});
  const rtnl::Bytes second =
      concat({dumpedClass(4, 0x00010004, "htb", 5000000000ULL, 6000000000ULL),
              nlTerminator(NLMSG_DONE, 4, 0)});
  rtnl::Replies replies;
  ASSERT_TRUE(rtnl::collectReplies(first, 4, "failed to read", replies).isOk());
  EXPECT_FALSE(replies.done);
  ASSERT_TRUE(rtnl::collectReplies(second, 4, "failed to read", replies).isOk());
  EXPECT_TRUE(replies.done);
  EXPECT_TRUE(replies.status.isOk()) << replies.status;
  ASSERT_EQ(replies.messages.size(), 3u);

  const std::optional<tc::DumpedClass> htb = tc::decodeClass(replies.messages[0]);
  ASSERT_TRUE(htb.has_value());
  EXPECT_EQ(htb->ifindex, 7);
  EXPECT_EQ(htb->handle, 0x00010002u);
  EXPECT_EQ(htb->parent, 0x00010000u);
  EXPECT_EQ(htb->kind, "htb");
  ASSERT_TRUE(htb->htb.has_value());
  EXPECT_EQ(htb->htb->prio, 5u);
  EXPECT_EQ(htb->rate_bytes, 1250000u);
  EXPECT_EQ(htb->ceil_bytes, 2500000u);

  const std::optional<tc::DumpedClass> mq = tc::decodeClass(replies.messages[1]);
  ASSERT_TRUE(mq.has_value());
  EXPECT_EQ(mq->kind, "mq");
  EXPECT_FALSE(mq->htb.has_value());

  const std::optional<tc::DumpedClass> wide = tc::decodeClass(replies.messages[2]);
  ASSERT_TRUE(wide.has_value());
  EXPECT_EQ(wide->rate_bytes, 5000000000ULL);  // from TCA_HTB_RATE64, past TCA_HTB_PAD
  EXPECT_EQ(wide->ceil_bytes, 0xffffffffULL);  // no TCA_HTB_CEIL64 sent: the u32 field

  EXPECT_FALSE(tc::decodeClass(nlTerminator(NLMSG_DONE, 4, 0)).has_value());
  const rtnl::Bytes truncated(replies.messages[0].begin(), replies.messages[0].begin() + 20);
  EXPECT_FALSE(tc::decodeClass(truncated).has_value());
}

TEST(RtnetlinkTest, AnAckEndsTheRequestAndAnErrorCarriesTheKernelText) {
  rtnl::Replies ok;
  ASSERT_TRUE(rtnl::collectReplies(nlTerminator(NLMSG_ERROR, 2, 0), 2, "ctx", ok).isOk());
  EXPECT_TRUE(ok.done);
  EXPECT_TRUE(ok.status.isOk());
  EXPECT_TRUE(ok.messages.empty());

  const struct {
    int err;
    StatusCode code;
  } cases[] = {{ENOENT, StatusCode::kNotFound},
               {ENODEV, StatusCode::kNotFound},
               {EPERM, StatusCode::kPermissionDenied},
               {EINVAL, StatusCode::kInvalidArgument}};
  for (const auto& c : cases) {
    rtnl::Replies replies;
    const rtnl::Bytes error = nlTerminator(NLMSG_ERROR, 2, -c.err, "Specified class not found");
    ASSERT_TRUE(rtnl::collectReplies(error, 2, "failed to write 'x'", replies).isOk());
    EXPECT_TRUE(replies.done);
    EXPECT_EQ(replies.status.code(), c.code) << replies.status;
    EXPECT_THAT(replies.status.message(), HasSubstr("failed to write 'x': "));
    EXPECT_THAT(replies.status.message(), HasSubstr(": Specified class not found"));
  }

  // A failed dump: NLMSG_DONE with a negative error, no extended ack.
  rtnl::Replies dump;
  ASSERT_TRUE(rtnl::collectReplies(nlTerminator(NLMSG_DONE, 2, -EPERM), 2, "ctx", dump).isOk());
  EXPECT_EQ(dump.status.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(dump.status.message(), "ctx: " + std::string(std::strerror(EPERM)));
}

TEST(RtnetlinkTest, AMalformedDatagramIsInternal) {
  rtnl::Bytes broken = dumpedClass(1, 0x00010002, "htb", 1, 1);
  broken.resize(broken.size() - 4);  // nlmsg_len now past the end
  rtnl::Replies replies;
  const Status status = rtnl::collectReplies(broken, 1, "ctx", replies);
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_EQ(status.message(), "ctx: malformed netlink reply");
}

TEST(RtnetlinkTest, AttributesStopAtTheFirstMalformedOne) {
  const uint8_t bytes[] = {8, 0, 1, 0, 'h', 't', 'b', 0, 64, 0, 2, 0, 0, 0};
  const std::vector<rtnl::Attr> attrs = rtnl::parseAttrs(bytes);
  ASSERT_EQ(attrs.size(), 1u);
  EXPECT_EQ(attrs[0].type, 1);
  EXPECT_EQ(attrs[0].value.size(), 4u);
}

TEST(NetQosWriterTest, AnswersThatNeedNoKernelClass) {
  const std::unique_ptr<TargetWriter> writer = newNetQosWriter();
  EXPECT_EQ(writer->location(KernelTarget::kNetQosClass, "eth0/1:2").valueOr(""),
            "tc class 1:2 dev eth0");
  EXPECT_EQ(writer->location(KernelTarget::kResctrlTasks, "eth0/1:2").status().code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(writer->write(KernelTarget::kNetQosClass, "eth0", "rate=8 ceil=8").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(writer->write(KernelTarget::kNetQosClass, "eth0/1:2", "rate=7 ceil=8").code(),
            StatusCode::kInvalidArgument);  // 0 bytes/s

  const Status missing =
      writer->write(KernelTarget::kNetQosClass, "koordnodev0/1:2", "rate=800 ceil=800");
  EXPECT_EQ(missing.code(), StatusCode::kNotFound) << missing;
  EXPECT_THAT(missing.message(), HasSubstr("failed to write 'tc class 1:2 dev koordnodev0'"));
  EXPECT_EQ(writer->read(KernelTarget::kNetQosClass, "koordnodev0/1:2").status().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
