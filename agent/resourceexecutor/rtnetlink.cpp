#include "agent/resourceexecutor/rtnetlink.hpp"

#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace koord::agent::resourceexecutor::rtnl {

namespace {

constexpr size_t kNlHeaderSize = sizeof(nlmsghdr);  // 16, already 4-aligned
constexpr size_t kAttrHeaderSize = 4;               // rtattr: u16 length, u16 type
constexpr size_t kReceiveBufferSize = 64 * 1024;    // above the kernel's 32 KiB dump chunks

size_t nlAlign(size_t size) {
  return (size + 3) & ~size_t{3};
}

template <typename T>
T nlLoad(std::span<const uint8_t> data, size_t offset) {
  T value{};
  std::memcpy(&value, data.data() + offset, sizeof(T));
  return value;
}

// The extended-ack text (NLMSGERR_ATTR_MSG) of an NLMSG_ERROR message, or "".
std::string nlExtackText(const nlmsghdr& header, std::span<const uint8_t> payload) {
  if ((header.nlmsg_flags & NLM_F_ACK_TLVS) == 0 || payload.size() < sizeof(nlmsgerr)) {
    return {};
  }
  // The request's header is echoed, and its payload too unless the ack is capped.
  const auto echoed = nlLoad<nlmsghdr>(payload, offsetof(nlmsgerr, msg));
  const size_t tlvs =
      offsetof(nlmsgerr, msg) +
      ((header.nlmsg_flags & NLM_F_CAPPED) != 0 ? kNlHeaderSize : nlAlign(echoed.nlmsg_len));
  if (tlvs > payload.size()) {
    return {};
  }
  for (const Attr& attr : parseAttrs(payload.subspan(tlvs))) {
    if (attr.type == NLMSGERR_ATTR_MSG && !attr.value.empty()) {
      const auto* text = reinterpret_cast<const char*>(attr.value.data());
      return {text, strnlen(text, attr.value.size())};
    }
  }
  return {};
}

}  // namespace

MessageBuilder::MessageBuilder(uint16_t type, uint16_t flags, uint32_t seq) {
  nlmsghdr header{};
  header.nlmsg_type = type;
  header.nlmsg_flags = flags;
  header.nlmsg_seq = seq;
  appendRaw(&header, sizeof(header));
}

void MessageBuilder::appendRaw(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  buf_.insert(buf_.end(), bytes, bytes + size);
  buf_.resize(nlAlign(buf_.size()), 0);
}

void MessageBuilder::addAttr(uint16_t type, const void* data, size_t size) {
  const auto length = static_cast<uint16_t>(kAttrHeaderSize + size);
  const uint16_t header[2] = {length, type};
  const size_t start = buf_.size();
  buf_.resize(start + kAttrHeaderSize);
  std::memcpy(buf_.data() + start, header, sizeof(header));
  if (size > 0) {
    appendRaw(data, size);
  }
}

void MessageBuilder::addString(uint16_t type, std::string_view text) {
  std::string value(text);
  addAttr(type, value.c_str(), value.size() + 1);
}

void MessageBuilder::addU64(uint16_t type, uint64_t value) {
  addAttr(type, &value, sizeof(value));
}

size_t MessageBuilder::beginNested(uint16_t type) {
  const size_t start = buf_.size();
  addAttr(type, nullptr, 0);
  return start;
}

void MessageBuilder::endNested(size_t start) {
  const auto length = static_cast<uint16_t>(buf_.size() - start);
  std::memcpy(buf_.data() + start, &length, sizeof(length));
}

Bytes MessageBuilder::finish() && {
  const auto length = static_cast<uint32_t>(buf_.size());
  std::memcpy(buf_.data() + offsetof(nlmsghdr, nlmsg_len), &length, sizeof(length));
  return std::move(buf_);
}

std::vector<Attr> parseAttrs(std::span<const uint8_t> data) {
  std::vector<Attr> attrs;
  size_t offset = 0;
  while (offset + kAttrHeaderSize <= data.size()) {
    const auto length = nlLoad<uint16_t>(data, offset);
    const auto type = nlLoad<uint16_t>(data, offset + 2);
    if (length < kAttrHeaderSize || offset + length > data.size()) {
      break;
    }
    attrs.push_back({static_cast<uint16_t>(type & NLA_TYPE_MASK),
                     data.subspan(offset + kAttrHeaderSize, length - kAttrHeaderSize)});
    offset += nlAlign(length);
  }
  return attrs;
}

Status errnoStatus(int err, std::string_view context, std::string_view detail) {
  Status status = Status::fromErrno(err, context);
  const StatusCode code = err == ENODEV ? StatusCode::kNotFound : status.code();
  return {code, detail.empty() ? status.message() : status.message() + ": " + std::string(detail)};
}

Status collectReplies(std::span<const uint8_t> datagram, uint32_t seq, std::string_view context,
                      Replies& replies) {
  size_t offset = 0;
  while (offset < datagram.size() && !replies.done) {
    if (offset + kNlHeaderSize > datagram.size()) {
      return Status::internal(std::string(context) + ": malformed netlink reply");
    }
    const auto header = nlLoad<nlmsghdr>(datagram, offset);
    if (header.nlmsg_len < kNlHeaderSize || offset + header.nlmsg_len > datagram.size()) {
      return Status::internal(std::string(context) + ": malformed netlink reply");
    }
    const std::span<const uint8_t> message = datagram.subspan(offset, header.nlmsg_len);
    const std::span<const uint8_t> payload = message.subspan(kNlHeaderSize);
    offset += nlAlign(header.nlmsg_len);
    if (header.nlmsg_seq != seq || header.nlmsg_type == NLMSG_NOOP) {
      continue;
    }
    if (header.nlmsg_type == NLMSG_ERROR || header.nlmsg_type == NLMSG_DONE) {
      const int error = payload.size() >= sizeof(int) ? nlLoad<int>(payload, 0) : 0;
      replies.done = true;
      if (error < 0) {
        replies.status = errnoStatus(-error, context, nlExtackText(header, payload));
      }
      continue;
    }
    replies.messages.emplace_back(message.begin(), message.end());
  }
  return Status::ok();
}

Result<Socket> Socket::open(std::string_view context) {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) {
    return errnoStatus(errno, context);
  }
  Socket socket(fd);
  const int one = 1;
  // Extended acks carry the kernel's reason ("Specified class not found"); both are best effort
  // (kernels before 4.12 have no extended acks).
  (void)::setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
  (void)::setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
  const timeval timeout{5, 0};
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) != 0 ||
      ::bind(fd, reinterpret_cast<const sockaddr*>(&local), sizeof(local)) != 0) {
    return errnoStatus(errno, context);
  }
  return socket;
}

Socket::Socket(Socket&& other) noexcept : fd_(other.fd_), seq_(other.seq_) {
  other.fd_ = -1;
}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = other.fd_;
    seq_ = other.seq_;
    other.fd_ = -1;
  }
  return *this;
}

Socket::~Socket() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Result<std::vector<Bytes>> Socket::transact(const Bytes& request, uint32_t seq,
                                            std::string_view context) {
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  ssize_t sent = 0;
  do {
    sent = ::sendto(fd_, request.data(), request.size(), 0,
                    reinterpret_cast<const sockaddr*>(&kernel), sizeof(kernel));
  } while (sent < 0 && errno == EINTR);
  if (sent < 0) {
    return errnoStatus(errno, context);
  }
  Replies replies;
  Bytes buffer(kReceiveBufferSize);
  while (!replies.done) {
    sockaddr_nl from{};
    iovec iov{buffer.data(), buffer.size()};
    msghdr header{};
    header.msg_name = &from;
    header.msg_namelen = sizeof(from);
    header.msg_iov = &iov;
    header.msg_iovlen = 1;
    const ssize_t received = ::recvmsg(fd_, &header, 0);
    if (received < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errnoStatus(errno, context);
    }
    if ((header.msg_flags & MSG_TRUNC) != 0) {
      return Status::internal(std::string(context) + ": truncated netlink reply");
    }
    if (from.nl_pid != 0) {
      continue;  // not from the kernel
    }
    KOORD_RETURN_IF_ERROR(
        collectReplies(std::span<const uint8_t>(buffer.data(), static_cast<size_t>(received)), seq,
                       context, replies));
  }
  if (!replies.status.isOk()) {
    return replies.status;
  }
  return std::move(replies.messages);
}

}  // namespace koord::agent::resourceexecutor::rtnl
