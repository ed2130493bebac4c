#include "compile/Protocol.h"
#include "ModuleValidation.h"

#include "Protocol_generated.h"

#include <fmt/format.h>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace Atoll::detail::compile {
namespace {

namespace fb = ::flatbuffers;

Error malformed(std::string_view why) {
  return Error(ErrorCode::CompileError,
               fmt::format("the compile worker sent a malformed response ({})", why));
}

std::string frame(fb::FlatBufferBuilder &b) {
  std::string out(kFrameHeaderBytes, '\0');
  uint32_t magic = kFrameMagic, size = b.GetSize();
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &size, 4);
  out.append(reinterpret_cast<const char *>(b.GetBufferPointer()), size);
  return out;
}

fb::Offset<fb::Vector<uint8_t>> bytes(fb::FlatBufferBuilder &b, std::string_view s) {
  return b.CreateVector(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

std::string str(const fb::String *s) { return s ? std::string(s->string_view()) : std::string(); }

/// Verifier bounds: the byte size is bounded by the frame cap; these bound the
/// verification work of a deeply nested or table-heavy buffer.
fb::Verifier::Options verifierOptions() {
  fb::Verifier::Options o;
  o.max_depth = 16;
  o.max_tables = 4 * kMaxKernels + 8 * 1000000;
  o.check_alignment = true;
  return o;
}

} // namespace

namespace {
/// Sized for the payload up front: a builder that grows by doubling holds the old and
/// the new buffer at once (up to 3x a large PTX).
size_t requestBytes(const Request &request) {
  if (const auto *c = std::get_if<CompileJob>(&request))
    return c->bitcode.size() + c->name.size() + 1024;
  return std::get<AssembleJob>(request).ptx.size() + 1024;
}

void buildRequest(fb::FlatBufferBuilder &b, const Request &request) {
  fb::Offset<void> body;
  wire::Body type = wire::Body::NONE;
  if (const auto *c = std::get_if<CompileJob>(&request)) {
    auto bc = bytes(b, c->bitcode);
    auto name = b.CreateString(c->name);
    auto arch = b.CreateString(c->arch);
    auto ptxv = b.CreateString(c->ptxVersion);
    body = wire::CreateCompileRequest(
               b, bc, name,
               c->clamping == Clamping::MaskBased ? wire::Clamping::Mask : wire::Clamping::Modulo,
               arch, ptxv, c->abiVersion, uint8_t(c->optLevel), c->harden, c->preempt,
               c->wantReport)
               .Union();
    type = wire::Body::CompileRequest;
  } else {
    const auto &a = std::get<AssembleJob>(request);
    auto ptx = b.CreateString(a.ptx);
    auto arch = b.CreateString(a.arch);
    body = wire::CreateAssembleRequest(b, ptx, arch).Union();
    type = wire::Body::AssembleRequest;
  }
  b.Finish(wire::CreateRequest(b, kProtocolVersion, type, body));
}
} // namespace

std::string encodeRequest(const Request &request) {
  fb::FlatBufferBuilder b(requestBytes(request));
  buildRequest(b, request);
  return frame(b);
}

Status writeRequest(int fd, const Request &request, Clock::time_point deadline) {
  fb::FlatBufferBuilder b(requestBytes(request));
  buildRequest(b, request);
  // Header, then the builder's buffer as it is: no framed copy of the payload.
  char header[kFrameHeaderBytes];
  uint32_t magic = kFrameMagic, size = b.GetSize();
  std::memcpy(header, &magic, 4);
  std::memcpy(header + 4, &size, 4);
  if (Status s = writeAll(fd, std::string_view(header, sizeof header), deadline); !s)
    return s;
  return writeAll(fd, std::string_view(reinterpret_cast<const char *>(b.GetBufferPointer()), size),
                  deadline);
}

std::string encodeResponse(const Response &response) {
  fb::FlatBufferBuilder b(1024);
  fb::Offset<void> result;
  wire::Result type = wire::Result::NONE;
  if (const auto *c = std::get_if<Compiled>(&response)) {
    std::vector<fb::Offset<wire::Kernel>> kernels;
    for (const KernelInfo &k : c->kernels) {
      std::vector<fb::Offset<wire::Param>> params;
      for (const ParamInfo &p : k.params)
        params.push_back(wire::CreateParam(b, uint8_t(p.kind), p.size, p.align,
                                           b.CreateString(p.type), p.isFloat, p.isSigned));
      auto name = b.CreateString(k.name);
      kernels.push_back(wire::CreateKernel(b, name, b.CreateVector(params)));
    }
    auto ptx = b.CreateString(c->ptx);
    auto ks = b.CreateVector(kernels);
    auto report = b.CreateString(c->report);
    result = wire::CreateCompiled(b, ptx, ks, report).Union();
    type = wire::Result::Compiled;
  } else if (const auto *a = std::get_if<Assembled>(&response)) {
    result = wire::CreateAssembled(b, bytes(b, a->cubin)).Union();
    type = wire::Result::Assembled;
  } else if (const auto *f = std::get_if<Failed>(&response)) {
    auto msg = b.CreateString(f->message);
    auto diag = b.CreateString(f->diagnostics);
    result = wire::CreateFailed(b, wire::FailureKind(f->kind), msg, diag).Union();
    type = wire::Result::Failed;
  } else {
    result = wire::CreateReady(b, std::get<Ready>(response).assembler).Union();
    type = wire::Result::Ready;
  }
  b.Finish(wire::CreateResponse(b, kProtocolVersion, type, result));
  return frame(b);
}

Result<uint32_t> parseFrameHeader(std::string_view header, uint32_t maxPayload) {
  if (header.size() != kFrameHeaderBytes)
    return malformed("short frame header");
  uint32_t magic, size;
  std::memcpy(&magic, header.data(), 4);
  std::memcpy(&size, header.data() + 4, 4);
  if (magic != kFrameMagic)
    return malformed("bad frame magic");
  if (size > maxPayload)
    return Error(ErrorCode::CompileResources,
                 fmt::format("the compile worker's response of {} bytes exceeds the output "
                             "limit of {} bytes",
                             size, maxPayload));
  return size;
}

Result<Request> decodeRequest(std::string_view payload) {
  auto *data = reinterpret_cast<const uint8_t *>(payload.data());
  fb::Verifier v(data, payload.size(), verifierOptions());
  if (!v.VerifyBuffer<wire::Request>(nullptr))
    return Error(ErrorCode::InvalidArgument, "malformed compile request");
  const auto *r = fb::GetRoot<wire::Request>(data);
  if (r->version() != kProtocolVersion)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("compile request of protocol version {}, expected {}", r->version(),
                             kProtocolVersion));
  if (const auto *c = r->body_as_CompileRequest()) {
    CompileJob j;
    if (c->bitcode())
      j.bitcode.assign(reinterpret_cast<const char *>(c->bitcode()->data()), c->bitcode()->size());
    j.name = str(c->name());
    j.clamping = c->clamping() == wire::Clamping::Modulo ? Clamping::ModuloBased
                                                          : Clamping::MaskBased;
    j.arch = str(c->arch());
    j.ptxVersion = str(c->ptx_version());
    j.abiVersion = c->abi_version();
    j.optLevel = c->opt_level();
    j.harden = c->harden();
    j.preempt = c->preempt();
    j.wantReport = c->want_report();
    return Request(std::move(j));
  }
  if (const auto *a = r->body_as_AssembleRequest())
    return Request(AssembleJob{str(a->ptx()), str(a->arch())});
  return Error(ErrorCode::InvalidArgument, "compile request without a body");
}

namespace {
/// Moves the bytes of `field` (inside `owner`) to the front of `owner` and cuts it
/// there: the decoded PTX or cubin reuses the frame's allocation instead of a copy.
std::string takeInPlace(std::string &owner, const uint8_t *field, size_t size) {
  size_t at = size_t(reinterpret_cast<const char *>(field) - owner.data());
  std::memmove(owner.data(), owner.data() + at, size);
  owner.resize(size);
  return std::move(owner);
}

Result<Response> decodeResponseImpl(std::string_view payload, std::string *owner,
                                    size_t maxKernels);

Result<Response> decodeGuarded(std::string_view payload, std::string *owner, size_t maxKernels) {
  // Whatever the decode allocates is bounded (below), but the service may be short
  // of memory: a failed allocation is the answer's failure, not the service's.
  try {
    return decodeResponseImpl(payload, owner, maxKernels);
  } catch (const std::bad_alloc &) {
    return Error(ErrorCode::CompileResources,
                 fmt::format("the service ran out of memory while decoding the compile worker's "
                             "answer of {} bytes",
                             payload.size()));
  }
}
} // namespace

Result<Response> decodeResponse(std::string_view payload, size_t maxKernels) {
  return decodeGuarded(payload, nullptr, maxKernels);
}

Result<Response> decodeResponse(std::string &&payload, size_t maxKernels) {
  return decodeGuarded(std::string_view(payload), &payload, maxKernels);
}

namespace {
Result<Response> decodeResponseImpl(std::string_view payload, std::string *owner,
                                    size_t maxKernels) {
  auto *data = reinterpret_cast<const uint8_t *>(payload.data());
  if (payload.size() < 8)
    return malformed("payload too short");
  fb::Verifier v(data, payload.size(), verifierOptions());
  if (!v.VerifyBuffer<wire::Response>(nullptr))
    return malformed("it fails FlatBuffers verification");
  const auto *r = fb::GetRoot<wire::Response>(data);
  if (r->version() != kProtocolVersion)
    return Error(ErrorCode::CompileError,
                 fmt::format("the compile worker speaks protocol version {}, the runtime {}: "
                             "install the worker of this runtime's build",
                             r->version(), kProtocolVersion));
  switch (r->result_type()) {
  case wire::Result::Compiled: {
    const auto *c = r->result_as_Compiled();
    if (!c) // a union type without its value passes verification
      return malformed("no result");
    Compiled out;
    if (!c->ptx() || c->ptx()->size() == 0)
      return malformed("no PTX");
    if (!c->kernels())
      return malformed("no kernel list");
    // Review R10-F2: the verifier accepts tables and vectors that share offsets (one
    // name for every kernel, one parameter list for all), so the copies below are
    // not bounded by the frame. Everything decoded besides the PTX is added up
    // before it is copied and refused past twice the payload: an honest answer
    // holds each name, type and record once, next to the PTX declaring it.
    const uint64_t allowance = 2 * uint64_t(payload.size());
    uint64_t built = 0;
    auto charge = [&](uint64_t bytes) {
      built += bytes;
      return built <= allowance;
    };
    auto shared = [&] {
      return malformed(fmt::format("it decodes to more than twice its {} bytes: names, "
                                   "parameter lists or kernels shared between kernels",
                                   payload.size()));
    };
    size_t kernelCap = std::min(maxKernels, kMaxKernels);
    if (c->kernels()->size() > kernelCap)
      return tooManyKernels(c->kernels()->size(), kernelCap);
    if (c->report()) {
      if (!charge(c->report()->size()))
        return shared();
      out.report = str(c->report());
    }
    if (!charge(uint64_t(c->kernels()->size()) * sizeof(KernelInfo)))
      return shared();
    out.kernels.reserve(c->kernels()->size());
    for (const auto *k : *c->kernels()) {
      KernelInfo ki;
      if (!k->name() || k->name()->size() == 0)
        return malformed("a kernel without a name");
      if (k->name()->size() > kMaxNameBytes)
        return malformed(fmt::format("a kernel name of {} bytes (at most {})",
                                     k->name()->size(), kMaxNameBytes));
      if (!charge(k->name()->size()))
        return shared();
      ki.name = str(k->name());
      if (k->params()) {
        if (k->params()->size() > kMaxParams)
          return malformed(fmt::format("kernel '{}' has too many parameters", ki.name));
        if (!charge(uint64_t(k->params()->size()) * sizeof(ParamInfo)))
          return shared();
        ki.params.reserve(k->params()->size());
        for (const auto *p : *k->params()) {
          if (p->kind() > uint8_t(ParamKind::ByVal))
            return malformed(fmt::format("kernel '{}': parameter kind {}", ki.name, p->kind()));
          if (p->type() && p->type()->size() > kMaxNameBytes)
            return malformed(fmt::format("kernel '{}': a parameter type name of {} bytes (at "
                                         "most {})",
                                         ki.name, p->type()->size(), kMaxNameBytes));
          if (p->type() && !charge(p->type()->size()))
            return shared();
          ParamInfo pi;
          pi.kind = ParamKind(p->kind());
          pi.size = p->size();
          pi.align = p->align();
          pi.type = str(p->type());
          pi.isFloat = p->is_float();
          pi.isSigned = p->is_signed();
          ki.params.push_back(std::move(pi));
        }
      }
      out.kernels.push_back(std::move(ki));
    }
    // Last: in place, this ends the buffer that everything above was read from.
    if (owner)
      out.ptx = takeInPlace(*owner, reinterpret_cast<const uint8_t *>(c->ptx()->data()),
                            c->ptx()->size());
    else
      out.ptx = str(c->ptx());
    return Response(std::move(out));
  }
  case wire::Result::Assembled: {
    const auto *a = r->result_as_Assembled();
    if (!a)
      return malformed("no result");
    if (!a->cubin() || a->cubin()->size() == 0)
      return malformed("an empty cubin");
    if (owner)
      return Response(Assembled{takeInPlace(*owner, a->cubin()->data(), a->cubin()->size())});
    return Response(Assembled{
        std::string(reinterpret_cast<const char *>(a->cubin()->data()), a->cubin()->size())});
  }
  case wire::Result::Failed: {
    const auto *f = r->result_as_Failed();
    if (!f)
      return malformed("no result");
    if (uint8_t(f->kind()) > uint8_t(FailureKind::CompileError))
      return malformed(fmt::format("failure kind {}", int(f->kind())));
    return Response(Failed{FailureKind(f->kind()), str(f->message()), str(f->diagnostics())});
  }
  case wire::Result::Ready:
    if (!r->result_as_Ready())
      return malformed("no result");
    return Response(Ready{r->result_as_Ready()->assembler()});
  default:
    return malformed("no result");
  }
}
} // namespace

Status writeAll(int fd, std::string_view bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      bytes.remove_prefix(size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0)
        return Error(ErrorCode::CompileTimeout, "the compile worker did not take its request in time");
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, int(std::min<int64_t>(left.count() + 1, 1000)));
      continue;
    }
    return Error(ErrorCode::CompileError,
                 fmt::format("the compile worker went away while the request was sent ({})",
                             n < 0 ? std::strerror(errno) : "closed"));
  }
  return {};
}

namespace {
/// Reads exactly out.size() bytes by the deadline. 0 = done; otherwise the Error.
std::optional<Error> readExact(int fd, char *out, size_t size, Clock::time_point deadline,
                               std::string_view what) {
  size_t got = 0;
  while (got < size) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      return Error(ErrorCode::CompileTimeout,
                   "the compile worker did not answer within its deadline");
    pollfd p{fd, POLLIN, 0};
    int pr = ::poll(&p, 1, int(std::min<int64_t>(left.count() + 1, 1000)));
    if (pr < 0 && errno != EINTR)
      return Error(ErrorCode::CompileError, fmt::format("poll failed: {}", std::strerror(errno)));
    if (pr <= 0)
      continue;
    ssize_t n = ::recv(fd, out + got, size - got, MSG_DONTWAIT);
    if (n > 0) {
      got += size_t(n);
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    return malformed(fmt::format("truncated {}: {} of {} bytes", what, got, size));
  }
  return std::nullopt;
}
} // namespace

Result<std::string> readFrame(int fd, uint32_t maxPayload, Clock::time_point deadline) {
  return readFrame(fd, maxPayload, deadline, {});
}

Result<std::string> readFrame(int fd, uint32_t maxPayload, Clock::time_point deadline,
                              const std::function<Status(uint32_t)> &admit) {
  char header[kFrameHeaderBytes];
  if (auto e = readExact(fd, header, sizeof header, deadline, "frame header"))
    return std::move(*e);
  auto size = parseFrameHeader(std::string_view(header, sizeof header), maxPayload);
  if (!size)
    return std::move(size).error();
  if (admit)
    if (Status s = admit(*size); !s)
      return std::move(s).error();
  std::string payload;
  try {
    payload.resize(*size);
  } catch (const std::bad_alloc &) {
    return Error(ErrorCode::CompileResources,
                 fmt::format("the service has no memory for the compile worker's answer of {} "
                             "bytes",
                             *size));
  }
  if (auto e = readExact(fd, payload.data(), payload.size(), deadline, "frame"))
    return std::move(*e);
  return payload;
}

} // namespace Atoll::detail::compile
