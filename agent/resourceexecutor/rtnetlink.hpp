// The little of rtnetlink (NETLINK_ROUTE, rtnetlink(7)) that the net-QoS writer needs: building
// a request, reading attributes, collecting the replies of one request, and an RAII socket.
//
// Buffers are host-endian byte vectors laid out as the kernel's <linux/netlink.h>: a 16-byte
// nlmsghdr, the family header, then attributes (rtattr: u16 length, u16 type, value), each
// padded to 4 bytes. Pure functions and MessageBuilder are thread-compatible; a Socket is used by
// one thread at a time. No exceptions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor::rtnl {

using Bytes = std::vector<uint8_t>;

// One request: the header (nlmsg_len filled by finish()), a fixed family header, attributes.
class MessageBuilder {
 public:
  MessageBuilder(uint16_t type, uint16_t flags, uint32_t seq);

  // Appends `size` bytes as they are (the family header), padded to 4 bytes.
  void appendRaw(const void* data, size_t size);
  // Appends one attribute of `size` bytes of value.
  void addAttr(uint16_t type, const void* data, size_t size);
  void addString(uint16_t type, std::string_view text);  // with its terminating NUL
  void addU64(uint16_t type, uint64_t value);
  // Opens a nested attribute; attributes added until endNested(returned offset) are inside it.
  [[nodiscard]] size_t beginNested(uint16_t type);
  void endNested(size_t start);

  // The message, its nlmsg_len set. The builder is spent.
  [[nodiscard]] Bytes finish() &&;

 private:
  Bytes buf_;
};

// One attribute of a message or of a nested attribute; `type` without the NLA_F_NESTED and
// NLA_F_NET_BYTEORDER flags.
struct Attr {
  uint16_t type = 0;
  std::span<const uint8_t> value;
};

// The attributes packed in `data`, in order. A truncated or malformed attribute ends the list.
[[nodiscard]] std::vector<Attr> parseAttrs(std::span<const uint8_t> data);

// The status of an errno value `err` (positive) of a netlink request, for the writer's callers:
// Status::fromErrno(err, context), except that ENODEV (the device went away) is kNotFound, with
// the kernel's extended-ack text, when there is one, appended: "<context>: <strerror>: <text>".
[[nodiscard]] Status errnoStatus(int err, std::string_view context, std::string_view detail = {});

// What one request's replies have given so far.
struct Replies {
  std::vector<Bytes> messages;  // the data messages (whole, header included), in order
  bool done = false;            // the ack, NLMSG_DONE of a dump, or an error was seen
  Status status;                // the error of the ack or of NLMSG_DONE; ok otherwise
};

// Adds to `replies` what one received datagram holds for the request numbered `seq`: its data
// messages, and `done` with the status at its ack (NLMSG_ERROR; error 0 is ok) or NLMSG_DONE
// (whose int, when negative, is the dump's error). Messages of other sequence numbers are
// ignored. kInternal "<context>: malformed netlink reply" when the datagram cannot be split.
[[nodiscard]] Status collectReplies(std::span<const uint8_t> datagram, uint32_t seq,
                                    std::string_view context, Replies& replies);

// A NETLINK_ROUTE socket with extended acks (NETLINK_EXT_ACK, NETLINK_CAP_ACK) and a 5 s receive
// timeout; closed by the destructor. Sockets belong to the network namespace of the thread that
// opens them.
class Socket {
 public:
  // The failure of socket(2), bind(2) or setsockopt(2) as errnoStatus(context).
  [[nodiscard]] static Result<Socket> open(std::string_view context);

  Socket(Socket&& other) noexcept;
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket();

  // A fresh sequence number for the next request.
  [[nodiscard]] uint32_t nextSeq() { return ++seq_; }

  // Sends `request` (numbered `seq`) and receives until its ack or NLMSG_DONE: the data messages
  // of a dump, or none for an acked request. The kernel's error as errnoStatus(context, extack
  // text); a send, receive or timeout failure as errnoStatus(context); kInternal for a
  // truncated or malformed reply.
  [[nodiscard]] Result<std::vector<Bytes>> transact(const Bytes& request, uint32_t seq,
                                                    std::string_view context);

 private:
  explicit Socket(int fd) : fd_(fd) {}

  int fd_ = -1;
  uint32_t seq_ = 0;
};

}  // namespace koord::agent::resourceexecutor::rtnl
