#include "compile/RemoteCompile.h"

#include <fmt/format.h>

#include <thread>

namespace Atoll::detail {
namespace {

Error fromFailed(const compile::Failed &f, bool assembling) {
  ErrorCode code = ErrorCode::CompileError;
  switch (f.kind) {
  case compile::FailureKind::InvalidInput: code = ErrorCode::InvalidBitcode; break;
  case compile::FailureKind::WrongTarget: code = ErrorCode::WrongTarget; break;
  case compile::FailureKind::Refused: code = ErrorCode::Refused; break;
  case compile::FailureKind::CompileError: code = ErrorCode::CompileError; break;
  }
  // The worker's text is bounded by the frame cap; it is only ever shown, never
  // interpreted.
  if (assembling)
    return Error(code, "the PTX assembler refused the hardened PTX: " + f.message,
                 f.diagnostics);
  return Error(code, f.message, f.diagnostics);
}

} // namespace

Result<std::unique_ptr<compile::CompilePool>> startCompilePool(const RuntimeOptions &options) {
  const CompileWorkerOptions &w = options.compileWorkers;
  compile::PoolConfig c;
  c.workerPath = w.path.empty() ? compile::CompilePool::defaultWorkerPath() : w.path;
  if (c.workerPath.empty())
    return Error(ErrorCode::InvalidArgument,
                 "no atoll-compile-worker next to libatoll_runtime (looked in ../libexec/atoll "
                 "and ../bin): install it, set RuntimeOptions::compileWorkers.path, or set "
                 "RuntimeOptions::compileInProcess");
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // Two per core: a load's compile and assemble requests each take a fresh worker.
  c.size = w.poolSize ? w.poolSize : 2 * size_t(cores);
  c.cpuSlots = cores;
  c.memoryLimit = w.memoryLimit;
  c.cpuLimitSeconds = w.cpuLimitSeconds;
  c.timeout = w.timeout;
  c.maxOutputBytes = w.maxOutputBytes;
  c.libdevicePath = options.libdevicePath;
  return compile::CompilePool::create(std::move(c));
}

Result<CompiledEntry> compileInWorkers(compile::CompilePool &pool, compile::CompileJob job,
                                       bool assemble,
                                       const std::function<Status(const CompiledEntry &)> &validate) {
  std::string arch = job.arch;
  auto r = pool.run(compile::Request(std::move(job)));
  if (!r)
    return std::move(r).error();
  if (auto *f = std::get_if<compile::Failed>(&*r))
    return fromFailed(*f, false);
  auto *c = std::get_if<compile::Compiled>(&*r);
  if (!c)
    return Error(ErrorCode::CompileError,
                 "the compile worker answered a compile request with another kind of answer");
  CompiledEntry entry;
  entry.ptx = std::move(c->ptx);
  entry.kernels = std::move(c->kernels);
  // The service's own check of what the worker returned: only PTX that passes it
  // is ever assembled or loaded.
  if (Status s = validate(entry); !s)
    return std::move(s).error();
  // Without an assembler (no nvJitLink in the worker's toolkit) the cubin stays
  // empty, as in process; the device load then reports it. Known by now: the worker
  // that answered said whether it had one before it was ever used.
  if (!assemble || !pool.assemblerAvailable())
    return entry;
  // The PTX travels into the request and back, never copied: with the frame
  // decoded in place (Protocol.h) and the request sent from the builder's buffer,
  // a worker's answer of P bytes is held by the service at most twice at once (the
  // validated entry.ptx and the assemble request's builder), where it was up to
  // five times (R4-F2): the frame, its decoded copy, the AssembleJob copy, the
  // builder and the framed request. Later, the disk cache's serialisation makes one
  // transient copy and LoadedModule keeps entry.ptx. Every answer is capped by
  // compileWorkers.maxOutputBytes and the number in flight by poolSize.
  compile::Request assembleRequest(compile::AssembleJob{std::move(entry.ptx), arch});
  auto a = pool.run(assembleRequest);
  entry.ptx = std::move(std::get<compile::AssembleJob>(assembleRequest).ptx);
  if (!a)
    return std::move(a).error();
  if (auto *f = std::get_if<compile::Failed>(&*a))
    return fromFailed(*f, true);
  auto *cubin = std::get_if<compile::Assembled>(&*a);
  if (!cubin)
    return Error(ErrorCode::CompileError,
                 "the compile worker answered an assemble request with another kind of answer");
  entry.cubin = std::move(cubin->cubin);
  return entry;
}

} // namespace Atoll::detail
