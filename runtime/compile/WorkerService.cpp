// The worker side of the compile protocol: runs inside atoll-compile-worker, never in
// the service. Everything that parses tenant input (bitcode, and PTX for the
// assembler) runs here, in a single-use process under rlimits and seccomp.
#include "compile/Protocol.h"
#include "compile/WorkerEntry.h"
#include "atoll/toolchain/Toolchain.h"

#include "atoll/abi.h"
#include "atoll/passes/HardeningReport.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <malloc.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>

#ifndef ATOLL_DEFAULT_LIBDEVICE
#define ATOLL_DEFAULT_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

using namespace Atoll::detail::compile;
namespace tc = Atoll::toolchain;

namespace {

std::string gLibdevicePath;
std::string gLibdevice; // read before the seccomp filter
bool gAssembler = false;

// The request cap inside the worker (the service bounds the bitcode it sends).
constexpr uint32_t kMaxRequest = 1u << 30;

constexpr const char *kWarmUp = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare float @__nv_sinf(float)
define ptx_kernel void @atoll_warm_up(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr inbounds float, ptr %p, i32 %i
  %x = load float, ptr %q, align 4
  %y = call float @__nv_sinf(float %x)
  store float %y, ptr %q, align 4
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
)";

[[noreturn]] void outOfMemory() { ::_exit(ATOLL_WORKER_EXIT_RESOURCES); }
void llvmBadAlloc(void *, const char *, bool) { outOfMemory(); }

Failed toFailed(llvm::Error err) {
  Failed out{FailureKind::CompileError, "compilation failed", {}};
  llvm::handleAllErrors(
      std::move(err),
      [&](const tc::ToolchainError &e) {
        switch (e.kind()) {
        case tc::FailureKind::InvalidInput: out.kind = FailureKind::InvalidInput; break;
        case tc::FailureKind::WrongTarget: out.kind = FailureKind::WrongTarget; break;
        case tc::FailureKind::Refused: out.kind = FailureKind::Refused; break;
        case tc::FailureKind::CompileError: out.kind = FailureKind::CompileError; break;
        }
        out.message = e.message();
        out.diagnostics = e.diagnostics();
      },
      [&](const llvm::ErrorInfoBase &e) { out.message = e.message(); });
  return out;
}

tc::CompileOptions optionsFor(const CompileJob &job) {
  tc::CompileOptions co;
  co.Mode = job.clamping == Atoll::Clamping::MaskBased ? Atoll::ClampingMode::MaskBased
                                                       : Atoll::ClampingMode::ModuloBased;
  co.GpuArch = job.arch;
  co.PtxVersion = job.ptxVersion;
  co.LibdevicePath = gLibdevicePath;
  co.LibdeviceBitcode = gLibdevice;
  co.OptLevel = job.optLevel;
  co.Harden = job.harden;
  co.Preempt = job.preempt;
  // Assembly is a request of its own, for PTX the service has validated.
  co.Assemble = false;
  return co;
}

Response compile(const CompileJob &job) {
  if (job.abiVersion != ATOLL_ABI_VERSION)
    return Failed{FailureKind::CompileError,
                  fmt::format("the service asks for ABI version {}, this worker implements {}",
                              job.abiVersion, ATOLL_ABI_VERSION),
                  {}};
  if (job.optLevel > 3)
    return Failed{FailureKind::InvalidInput, fmt::format("optLevel {} is not 0-3", job.optLevel),
                  {}};
  tc::CompileOptions co = optionsFor(job);
  Atoll::HardeningReport report;
  if (job.wantReport)
    co.Report = &report;
  llvm::MemoryBufferRef input(llvm::StringRef(job.bitcode.data(), job.bitcode.size()),
                              job.name.empty() ? "module" : job.name);
  auto compiled = tc::compile(input, co);
  if (!compiled)
    return toFailed(compiled.takeError());
  Compiled out;
  out.ptx = std::move(compiled->ptx);
  out.kernels = std::move(compiled->kernels);
  if (job.wantReport) {
    llvm::raw_string_ostream os(out.report);
    report.printJSON(os);
  }
  return out;
}

Response assemble(const AssembleJob &job) {
  // Never load the assembler now: after the filter, nothing can be opened.
  if (!gAssembler)
    return Failed{FailureKind::CompileError,
                  "no PTX assembler in this compile worker (nvJitLink was not loaded)", {}};
  auto cubin = tc::assembleCubin(job.ptx, job.arch);
  if (!cubin)
    return toFailed(cubin.takeError());
  return Assembled{std::move(*cubin)};
}

void copyError(char *err, size_t errLen, const std::string &msg) {
  if (!err || errLen == 0)
    return;
  size_t n = std::min(errLen - 1, msg.size());
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}

} // namespace

// A fresh process pays for every heap page at its first use (a page fault each), and
// glibc gives back free memory at the top of the heap above 128 KiB and maps blocks
// above a threshold (128 KiB, raised as it sees them freed, up to 32 MiB) anew each
// time, where a long-lived service mostly reuses pages it already has: the worker's
// one request would pay for that on the load's critical path, the in-process compile
// mostly not (on the development VM, a worker-like process's first gemm_tiled
// compile after the warm-up took 383 page faults; 6 with this). A
// single-use process gains nothing by giving memory back before it exits; the
// benchmark kernels' compiles use 2.4-3.9 MiB of heap each, so 8 MiB covers them
// (an idle worker holds that much more resident memory).
extern "C" void atoll_compile_worker_keep_heap(void) {
  (void)::mallopt(M_TRIM_THRESHOLD, INT_MAX);
  (void)::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  void *block = std::malloc(ATOLL_WORKER_WARM_HEAP_BYTES);
  if (!block)
    return;
  auto *bytes = static_cast<volatile char *>(block);
  for (size_t i = 0; i < ATOLL_WORKER_WARM_HEAP_BYTES; i += 4096)
    bytes[i] = 0;
  std::free(block);
}

extern "C" int atoll_compile_worker_prepare(const char *libdevice, char *err, size_t errLen) {
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(llvmBadAlloc);
  atoll_compile_worker_keep_heap();
  gLibdevicePath = libdevice && *libdevice ? libdevice : ATOLL_DEFAULT_LIBDEVICE;
  auto buf = llvm::MemoryBuffer::getFile(gLibdevicePath);
  if (!buf) {
    copyError(err, errLen,
              fmt::format("cannot read libdevice '{}': {}", gLibdevicePath,
                          buf.getError().message()));
    return ATOLL_WORKER_EXIT_INIT;
  }
  gLibdevice.assign((*buf)->getBufferStart(), (*buf)->getBufferSize());
  // No assembler is not fatal: assemble requests then fail and the runtime loads
  // PTX as before (the Ready frame says which).
  if (llvm::Error e = tc::loadAssembler())
    llvm::consumeError(std::move(e));
  else
    gAssembler = true;

  CompileJob warm;
  warm.bitcode = kWarmUp;
  warm.name = "warm-up";
  warm.abiVersion = ATOLL_ABI_VERSION;
  Response r = compile(warm);
  if (auto *f = std::get_if<Failed>(&r)) {
    copyError(err, errLen, "the warm-up compilation failed: " + f->message);
    return ATOLL_WORKER_EXIT_INIT;
  }
  if (gAssembler) {
    // The assembler may also initialise lazily (and open files): do it now.
    auto cubin = tc::assembleCubin(std::get<Compiled>(r).ptx, warm.arch);
    if (!cubin) {
      llvm::consumeError(cubin.takeError());
      gAssembler = false;
    }
  }
  return 0;
}

extern "C" int atoll_compile_worker_serve(int fd) {
  auto forever = Clock::time_point::max();
  if (!writeAll(fd, encodeResponse(Ready{gAssembler}), forever))
    return ATOLL_WORKER_EXIT_PROTOCOL;
  auto payload = readFrame(fd, kMaxRequest, forever);
  if (!payload)
    return ATOLL_WORKER_EXIT_PROTOCOL;
  auto request = decodeRequest(*payload);
  Response response = Failed{FailureKind::CompileError, "malformed request", {}};
  if (!request)
    response = Failed{FailureKind::CompileError, request.error().message(), {}};
  else if (const auto *c = std::get_if<CompileJob>(&*request))
    response = compile(*c);
  else
    response = assemble(std::get<AssembleJob>(*request));
  std::string().swap(*payload); // free the request's bytes before answering
  if (!writeAll(fd, encodeResponse(response), forever))
    return ATOLL_WORKER_EXIT_PROTOCOL;
  // Done; it waits, blocked, until the service ends it (SIGKILL; or the end of the
  // socket), and exits only then: its exit, unmapping LLVM, the toolkit's libraries
  // and its heap, takes CPU time of the order of a compile's and slowed the compiles
  // of other loads running next to it; the service ends it when none is in flight
  // (CompilePool, PoolConfig::holdAnswered). Nothing more is read: a byte from the
  // service ends it too.
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, -1) < 0 && errno == EINTR)
      continue;
    return 0;
  }
}

extern "C" void atoll_compile_worker_fail(int fd, const char *message) {
  (void)writeAll(fd, encodeResponse(Failed{FailureKind::CompileError, message ? message : "", {}}),
                 Clock::now() + std::chrono::seconds(5));
}
