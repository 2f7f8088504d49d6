// The net-QoS writer (target_writer.hpp): the rate and ceil of an existing HTB class, through
// rtnetlink in the network namespace of the calling thread.
//
// Change, not create-or-replace. A write is RTM_NEWTCLASS without NLM_F_CREATE, the netlink
// form of `tc class change` (vishvananda/netlink's ClassChange, not ClassReplace): the classes
// belong to whoever set up the agent's qdisc, a missing class is kNotFound as for every other
// target (the resctrl writer never creates a group either), and no parent has to be known, so
// `dir` stays "<device>/<classid>". The class is dumped first: a missing device or class, or a
// class that is not HTB, is answered without writing, and the class's prio, overhead, mpu and
// link layer are kept (a change sends every field of tc_htb_opt; the quantum is left to the
// kernel to derive from the new rate, as `tc class change` does).
#include <net/if.h>

#include <cerrno>
#include <charconv>
#include <optional>
#include <string>
#include <utility>

#include "agent/resourceexecutor/rtnetlink.hpp"
#include "agent/resourceexecutor/target_writer.hpp"
#include "agent/resourceexecutor/tc_htb.hpp"

namespace koord::agent::resourceexecutor {

namespace {

// The device and class of a net-QoS `dir`.
struct NetQosClassRef {
  std::string device;
  uint32_t handle = 0;
  std::string location;  // "tc class <classid> dev <device>"
};

// The number after `key=` in the canonical value "rate=<n> ceil=<n>".
std::optional<uint64_t> netQosField(std::string_view value, std::string_view key) {
  const size_t at = value.find(std::string(key) + "=");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view digits = value.substr(at + key.size() + 1);
  uint64_t number = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  return ec == std::errc() && end != digits.data() ? std::optional<uint64_t>(number) : std::nullopt;
}

class NetQosWriter final : public TargetWriter {
 public:
  [[nodiscard]] Result<std::string> location(KernelTarget target,
                                             const std::filesystem::path& dir) const override {
    KOORD_ASSIGN_OR_RETURN(NetQosClassRef ref, classRef("find", target, dir));
    return ref.location;
  }

  [[nodiscard]] Status write(KernelTarget target, const std::filesystem::path& dir,
                             std::string_view value) override {
    KOORD_ASSIGN_OR_RETURN(NetQosClassRef ref, classRef("write", target, dir));
    const std::string context = "failed to write '" + ref.location + "'";
    KOORD_ASSIGN_OR_RETURN(std::string canonical, canonicalTargetValue(target, value));
    const uint64_t rate_bytes = netQosField(canonical, "rate").value_or(0) / 8;
    const uint64_t ceil_bytes = netQosField(canonical, "ceil").value_or(0) / 8;
    if (rate_bytes == 0) {
      return Status::invalidArgument(context + ": rate below 8 bit/s (HTB counts bytes/s)");
    }
    KOORD_ASSIGN_OR_RETURN(rtnl::Socket socket, rtnl::Socket::open(context));
    KOORD_ASSIGN_OR_RETURN(tc::DumpedClass current, findClass(socket, ref, context));
    tc::HtbChange change;
    change.ifindex = current.ifindex;
    change.handle = current.handle;
    change.parent = current.parent;
    change.rate_bytes = rate_bytes;
    change.ceil_bytes = ceil_bytes;
    change.prio = current.htb->prio;
    change.rate_spec = current.htb->rate;
    change.ceil_spec = current.htb->ceil;
    const uint32_t seq = socket.nextSeq();
    const rtnl::Bytes request = tc::encodeHtbChange(change, seq, tc::readPsched());
    return socket.transact(request, seq, context + " (value '" + canonical + "')").status();
  }

  [[nodiscard]] Result<std::string> read(KernelTarget target,
                                         const std::filesystem::path& dir) const override {
    KOORD_ASSIGN_OR_RETURN(NetQosClassRef ref, classRef("read", target, dir));
    const std::string context = "failed to read '" + ref.location + "'";
    KOORD_ASSIGN_OR_RETURN(rtnl::Socket socket, rtnl::Socket::open(context));
    KOORD_ASSIGN_OR_RETURN(tc::DumpedClass current, findClass(socket, ref, context));
    return "rate=" + std::to_string(current.rate_bytes * 8) +
           " ceil=" + std::to_string(current.ceil_bytes * 8);
  }

 private:
  // kUnimplemented for a resctrl target; kInvalidArgument for a dir that is not
  // "<device>/<classid>" (the executor has confined it already).
  [[nodiscard]] static Result<NetQosClassRef> classRef(std::string_view verb, KernelTarget target,
                                                       const std::filesystem::path& dir) {
    if (target != KernelTarget::kNetQosClass) {
      return Status::unimplemented("failed to " + std::string(verb) + " '" +
                                   std::string(kernelTargetName(target)) +
                                   "': not a net-QoS target");
    }
    const std::string device = dir.parent_path().string();
    const std::string classid = dir.filename().string();
    const std::optional<uint32_t> handle = tc::parseClassId(classid);
    if (device.empty() || device.size() >= IF_NAMESIZE || device.find('/') != std::string::npos ||
        !handle.has_value()) {
      return Status::invalidArgument("failed to " + std::string(verb) + " net-QoS class '" +
                                     dir.string() + "': want '<device>/<classid>'");
    }
    return NetQosClassRef{device, *handle, "tc class " + classid + " dev " + device};
  }

  // The class `ref` of the dump of its device: kNotFound when the device or the class does not
  // exist; kInvalidArgument when it is not an HTB class.
  [[nodiscard]] static Result<tc::DumpedClass> findClass(rtnl::Socket& socket,
                                                         const NetQosClassRef& ref,
                                                         const std::string& context) {
    const unsigned ifindex = ::if_nametoindex(ref.device.c_str());
    if (ifindex == 0) {
      return rtnl::errnoStatus(errno, context, "no network device '" + ref.device + "'");
    }
    const uint32_t seq = socket.nextSeq();
    KOORD_ASSIGN_OR_RETURN(
        std::vector<rtnl::Bytes> messages,
        socket.transact(tc::encodeClassDump(static_cast<int>(ifindex), seq), seq, context));
    for (const rtnl::Bytes& message : messages) {
      std::optional<tc::DumpedClass> dumped = tc::decodeClass(message);
      if (!dumped.has_value() || dumped->handle != ref.handle ||
          dumped->ifindex != static_cast<int>(ifindex)) {
        continue;
      }
      if (!dumped->htb.has_value()) {
        return Status::invalidArgument(context + ": a '" + dumped->kind +
                                       "' class, not an HTB class");
      }
      return std::move(*dumped);
    }
    return Status::notFound(context + ": no class " + tc::formatClassId(ref.handle) +
                            " on device '" + ref.device + "'");
  }
};

}  // namespace

std::unique_ptr<TargetWriter> newNetQosWriter() {
  return std::make_unique<NetQosWriter>();
}

}  // namespace koord::agent::resourceexecutor
