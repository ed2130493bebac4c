// The compile worker's protocol (Protocol.fbs): plain C++ messages, their
// FlatBuffers encoding in length-prefixed frames, and frame I/O on a socket with a
// deadline. Decoding a response is defensive: the worker parsed hostile input and
// may be compromised, so a malformed, truncated, oversize or wrong-version frame is
// a typed error (CompileError / CompileResources), never a crash.
#pragma once

#include "atoll/application.h"
#include "atoll/error.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace Atoll::detail::compile {

/// Bumped on every incompatible change of Protocol.fbs.
inline constexpr uint32_t kProtocolVersion = 1;
/// "ATWK" (little-endian), then the u32 payload length.
inline constexpr uint32_t kFrameMagic = 0x4b575441;
inline constexpr size_t kFrameHeaderBytes = 8;
/// Structural bounds of a response besides its byte size (kernels per module,
/// parameters per kernel): far above anything real, low enough to bound the work.
inline constexpr size_t kMaxKernels = 100000;
inline constexpr size_t kMaxParams = 4096;
/// The longest kernel name (and parameter type name) of a Compiled answer: far
/// above any real mangled name, low enough to bound one copy (review R10-F2).
inline constexpr size_t kMaxNameBytes = 16384;

struct CompileJob {
  std::string bitcode;
  std::string name;
  Clamping clamping = Clamping::MaskBased;
  std::string arch = "sm_90";
  std::string ptxVersion;
  uint32_t abiVersion = 0;
  unsigned optLevel = 2;
  bool harden = true;
  bool preempt = true;
  bool wantReport = false;
};

struct AssembleJob {
  std::string ptx;
  std::string arch;
};

using Request = std::variant<CompileJob, AssembleJob>;

/// The toolchain's own refusals and errors, passed through (toolchain::FailureKind).
enum class FailureKind : uint8_t { InvalidInput, WrongTarget, Refused, CompileError };

struct Compiled {
  std::string ptx;
  std::vector<KernelInfo> kernels;
  std::string report; // hardening report (JSON), when asked for
};
struct Assembled {
  std::string cubin;
};
struct Failed {
  FailureKind kind = FailureKind::CompileError;
  std::string message;
  std::string diagnostics;
};
struct Ready {
  bool assembler = false;
};

using Response = std::variant<Compiled, Assembled, Failed, Ready>;

/// The whole frame (header and payload).
std::string encodeRequest(const Request &request);
std::string encodeResponse(const Response &response);

/// Checks a frame header: the magic, and a length of at most `maxPayload`
/// (CompileResources past it, CompileError for a wrong magic).
Result<uint32_t> parseFrameHeader(std::string_view header, uint32_t maxPayload);

/// Verifies and decodes a payload (without its header). CompileError for anything
/// malformed or of another protocol version.
Result<Request> decodeRequest(std::string_view payload);
/// A response's decode is bounded by its encoded size (review R10-F2): FlatBuffers
/// lets any number of tables point at one string, table or vector, so a frame of
/// 1 MiB could name 100,000 kernels with one 1 MiB name. What the decode builds
/// besides the PTX or cubin (kernel and parameter records, names, types, the
/// report) is summed before each copy and refused past twice the payload's size
/// (CompileError: an honest answer decodes to about its own size); a Compiled
/// answer with more than `maxKernels` kernels (the module cap, at most kMaxKernels)
/// is refused before any is copied (CapacityExceeded), a name or type longer than
/// kMaxNameBytes is refused (CompileError), and an allocation failure while
/// decoding is CompileResources, never an exception.
Result<Response> decodeResponse(std::string_view payload, size_t maxKernels = kMaxKernels);
/// The same, consuming the frame: a Compiled's PTX or an Assembled's cubin is moved
/// to the front of `payload`'s own buffer and handed on, not copied (R4-F2).
Result<Response> decodeResponse(std::string &&payload, size_t maxKernels = kMaxKernels);

using Clock = std::chrono::steady_clock;

/// Writes all of `bytes` (send with MSG_NOSIGNAL: a dead peer is an error, not a
/// SIGPIPE) by `deadline`. CompileTimeout past it, CompileError when the peer is gone.
Status writeAll(int fd, std::string_view bytes, Clock::time_point deadline);
/// encodeRequest + writeAll without the framed copy (the builder's buffer is sent as
/// it is, after the header).
Status writeRequest(int fd, const Request &request, Clock::time_point deadline);
/// Reads one frame's payload, at most `maxPayload` bytes, by `deadline`.
/// CompileTimeout past the deadline, CompileResources for an oversize frame,
/// CompileError for end of stream (truncated) or a wrong magic.
Result<std::string> readFrame(int fd, uint32_t maxPayload, Clock::time_point deadline);
/// The same, calling `admit(payloadBytes)` after the header is checked and before
/// the payload is allocated or read (the answer budget's charge, AnswerBudget.h);
/// an error from it ends the read with that error.
Result<std::string> readFrame(int fd, uint32_t maxPayload, Clock::time_point deadline,
                              const std::function<Status(uint32_t)> &admit);

} // namespace Atoll::detail::compile
