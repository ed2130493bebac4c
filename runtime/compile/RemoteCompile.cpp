#include "compile/RemoteCompile.h"

#include "ModuleValidation.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
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

size_t warmFloorFor(size_t poolSize) { return poolSize >= 16 ? 2 : 0; }

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
  // While loads are in flight, replacements start only for waiting requests and
  // open claims, and to keep a small floor warm (PoolConfig::warmFloor): a burst's
  // compiles do not share the cores with the starts of the workers that replace them.
  c.warmFloor = warmFloorFor(c.size);
  c.memoryLimit = w.memoryLimit;
  c.cpuLimitSeconds = w.cpuLimitSeconds;
  c.timeout = w.timeout;
  // Derived caps (runtime.h): a compile answer at most 5x the largest cubin, an
  // assemble answer the largest cubin plus its framing, both at least 1 MiB (so that
  // a tiny maxCubinBytes is still enforced by the load, with its own error, and not
  // by the frame cap); a frame's length is 32-bit.
  constexpr uint64_t kFrameMax = UINT32_MAX, kFraming = 4096, kFloor = 1u << 20;
  uint64_t cubinCap = std::min<uint64_t>(std::max<uint64_t>(options.maxCubinBytes, 1), kFrameMax);
  c.maxOutputBytes = compileAnswerBytes(options);
  c.maxAssembledBytes = uint32_t(std::min(std::max(cubinCap + kFraming, kFloor), kFrameMax));
  c.answerBudget = w.answerBudget ? w.answerBudget
                                  : 2 * (2 * uint64_t(c.maxOutputBytes) + c.maxAssembledBytes);
  // An answer with more kernels than a module may have is refused when it is
  // decoded, before its kernels are copied or the PTX is scanned (R10-F1, R10-F2).
  c.maxKernels = options.maxKernelsPerModule;
  c.libdevicePath = options.libdevicePath;
  return compile::CompilePool::create(std::move(c));
}

Result<CompiledEntry> compileInWorkers(compile::CompilePool &pool, compile::CompileJob job,
                                       bool assemble,
                                       const std::function<Status(const CompiledEntry &)> &validate,
                                       compile::AnswerBudget::Charge *held) {
  std::string arch = job.arch;
  // The load's whole charge, taken once when the compile answer's header arrives
  // (never a second wait while holding the first: two loads cannot deadlock on the
  // budget): its PTX twice (the answer, then the assemble request built from it)
  // plus room for the largest cubin. Released when this returns, or passed to
  // `held` on success (cut to what the entry holds).
  compile::AnswerBudget::Charge charge;
  // One order for the two shared resources (review R7-F5): a worker, then the
  // budget; never the budget, then a wait for a worker. Once charged, the load
  // claims its assemble worker while it still holds its compile worker, whose slot
  // it hands over to it, and takes it ahead of requests without a claim
  // (CompilePool::Claim): a load holding a charge never waits behind compile
  // answers that wait for the budget.
  compile::CompilePool::Claim assembler;
  uint64_t cubinRoom = 0;
  auto r = pool.runHandingOver(
      compile::Request(std::move(job)),
                    [&](uint32_t bytes, compile::Clock::time_point deadline) -> Status {
                      // Known by now: the worker answering said whether it has an
                      // assembler (nvJitLink) before it was ever used. Without one
                      // the cubin stays empty, as in process; the device load then
                      // reports it.
                      assemble = assemble && pool.assemblerAvailable();
                      cubinRoom = assemble ? pool.maxAssembledBytes() : 0;
                      auto c = pool.budget().acquire((assemble ? 2 : 1) * uint64_t(bytes) + cubinRoom,
                                                     deadline);
                      if (!c)
                        return std::move(c).error();
                      charge = std::move(*c);
                      if (assemble)
                        assembler = pool.claim();
                      return {};
                    },
      assembler);
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
  auto keep = [&](CompiledEntry &e) {
    if (held) {
      charge.shrinkTo(e.ptx.size() + e.cubin.size());
      *held = std::move(charge);
    }
  };
  if (!assemble) {
    keep(entry);
    return entry;
  }
  // The PTX travels into the request and back, never copied: with the frame
  // decoded in place (Protocol.h) and the request sent from the builder's buffer,
  // a worker's answer of P bytes is held by the service at most twice at once (the
  // validated entry.ptx and the assemble request's builder), where it was up to
  // five times (R4-F2): the frame, its decoded copy, the AssembleJob copy, the
  // builder and the framed request. Later, the disk cache's serialisation makes one
  // transient copy, and LoadedModule keeps entry.ptx only with RuntimeOptions::keepPtx
  // (R7-F10). Every answer is capped by compileWorkers.maxOutputBytes, and all of
  // them in flight by the answer budget.
  compile::Request assembleRequest(compile::AssembleJob{std::move(entry.ptx), arch});
  // The cubin comes out of the room charged above (capped at it): no second charge.
  auto a = pool.run(
      assembleRequest,
      [&](uint32_t bytes, compile::Clock::time_point) -> Status {
        if (bytes > cubinRoom)
          return Error(ErrorCode::CompileResources,
                       fmt::format("the compile worker's cubin of {} bytes exceeds the room "
                                   "charged for it ({} bytes)",
                                   bytes, cubinRoom));
        return {};
      },
      assembler);
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
  keep(entry);
  return entry;
}

} // namespace Atoll::detail
