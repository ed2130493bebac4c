// The toolchain shared by the runtime and atoll-harden: LLVM bitcode or IR ->
// verified NVVM module -> libdevice linked, NVVMReflect, optimised -> hardened by
// the AToLL passes -> PTX from LLVM's NVPTX backend. Both users call exactly these
// functions, so what atoll-harden --emit=ptx shows is what the runtime loads.
#pragma once

#include "atoll/kernel_info.h"
#include "atoll/passes/AtollMem.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace Atoll {
class HardeningReport;
}

namespace Atoll::toolchain {

/// Why a toolchain step failed; the runtime maps it to Atoll::ErrorCode and
/// atoll-harden to its exit code (Refused -> 1, everything else -> 2).
enum class FailureKind { InvalidInput, WrongTarget, Refused, CompileError };

class ToolchainError : public llvm::ErrorInfo<ToolchainError> {
public:
  static char ID;
  ToolchainError(FailureKind Kind, std::string Message, std::string Diagnostics = {})
      : Kind(Kind), Message(std::move(Message)), Diagnostics(std::move(Diagnostics)) {}
  FailureKind kind() const { return Kind; }
  /// One sentence: what failed and why (also what llvm::toString() gives). By
  /// value because it overrides llvm::ErrorInfoBase::message().
  std::string message() const override { return Message; }
  /// Pass diagnostics (one per line, LLVM format) or the LLVM error text.
  const std::string &diagnostics() const { return Diagnostics; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  FailureKind Kind;
  std::string Message;
  std::string Diagnostics;
};

struct CompileOptions {
  ClampingMode Mode = ClampingMode::MaskBased;
  std::string GpuArch = "sm_90";   // -mcpu for the NVPTX backend
  std::string PtxVersion;          // e.g. "+ptx86"; empty = the backend's default for GpuArch
  std::string LibdevicePath;       // empty = the configured CUDA toolkit's libdevice.10.bc
  /// libdevice already in memory (LibdevicePath then only names it in messages):
  /// the compile worker reads it before its seccomp filter forbids opening files.
  llvm::StringRef LibdeviceBitcode;
  unsigned OptLevel = 2;           // optimisation before hardening (0-3)
  bool Harden = true;              // false only for native baselines (benchmarks)
  bool Preempt = true;             // false only to measure the checks' cost (benchmarks)
  bool Assemble = true;            // compileModule: validated PTX -> cubin (Harden only) when
                                   // loadAssembler() succeeds
  HardeningReport *Report = nullptr; // optional: per-access records of the passes
};

// Kernel signatures are Atoll::KernelInfo / Atoll::ParamInfo (atoll/kernel_info.h):
// one description from here to the launch, no conversions.

// Thread-safety: every function may be called from many threads at once, provided
// each thread works on its own LLVMContext (compile() creates one per call). The
// only process-wide state is set up once: the NVPTX target registration and LLVM's
// crash recovery (fatal errors and crashes inside LLVM during a step become a
// CompileError instead of ending the process; the module is then unusable).
// Diagnostics are collected per step and the context's previous diagnostic
// handler is restored afterwards.

/// Parses bitcode or textual IR, verifies it and checks the nvptx64 target.
llvm::Expected<std::unique_ptr<llvm::Module>>
parseModule(llvm::MemoryBufferRef Input, llvm::LLVMContext &Ctx);

/// Kernels of the module (functions with the ptx_kernel calling convention or
/// nvvm.annotations kernel metadata), with their tenant-visible signatures.
std::vector<KernelInfo> kernelSignatures(const llvm::Module &M);

/// Links libdevice when the module calls __nv_* functions, applies NVVMReflect,
/// internalises everything but the kernels and optimises at Opts.OptLevel.
llvm::Error prepareModule(llvm::Module &M, const CompileOptions &Opts);

/// Runs promote-ptx-constant-globals and atoll-mem in-process. A refusal returns a
/// ToolchainError of kind Refused whose diagnostics list every refusal.
llvm::Error hardenModule(llvm::Module &M, const CompileOptions &Opts);

/// NVPTX code generation for Opts.GpuArch.
llvm::Expected<std::string> emitPTX(llvm::Module &M, const CompileOptions &Opts);

struct CompiledModule {
  std::string ptx;
  /// The PTX assembled for the target GPU (an ELF cubin) by assembleCubin; empty
  /// when no assembler is available (see loadAssembler). Only ever produced from
  /// PTX that passed the validator.
  std::string cubin;
  std::vector<KernelInfo> kernels;
};

/// Loads the PTX assembler (nvJitLink, dlopen'ed from the CUDA toolkit:
/// ATOLL_CUDA_PATH alone when set, else the first of CUDA_HOME, the toolkit found
/// at configure time and /usr/local/cuda that has it). Idempotent and thread-safe; the first call does the dlopen,
/// so a sandboxed worker calls it before it installs its seccomp filter. A
/// CompileError naming the paths tried when no usable library is found.
llvm::Error loadAssembler();

/// True once loadAssembler() has succeeded (it is not attempted here).
bool assemblerLoaded();

/// Whether assembleCubin keeps nvJitLink off the CUDA driver's JIT cache
/// (~/.nv/ComputeCache): nvJitLink's -no-cache, passed with every assembly, and
/// refused only by a library too old to know it (then assembled without it).
/// Unknown (nullopt) before the first assembly in this process.
std::optional<bool> assemblerBypassesJitCache();

/// Assembles validated PTX into a cubin for Arch (e.g. "sm_90") with nvJitLink:
/// a library call (no exec, no temporary files), so it also runs under the compile
/// worker's seccomp filter. Calls loadAssembler() first. A CompileError carrying
/// the assembler's error log when the PTX does not assemble or the library is
/// missing.
llvm::Expected<std::string> assembleCubin(llvm::StringRef Ptx, llvm::StringRef Arch);

/// The kernels of the final module (after hardening and code generation), with
/// their tenant-visible signatures. With Hardened, every function definition must
/// be a kernel that atoll-mem hardened (ATOLL_HARDENED_ATTR, the hidden i64
/// parameters last, which are left out of the signature); anything else is a
/// CompileError: nothing unhardened may reach the PTX.
llvm::Expected<std::vector<KernelInfo>> finalKernelSignatures(const llvm::Module &M,
                                                                   bool Hardened);

/// After code generation (M is then the IR the backend selected instructions from,
/// after its own IR passes, memory-intrinsic lowering included): every CFG cycle of
/// every hardened kernel must still contain a preemption check (a volatile load of
/// the control block's cancel word, through the control parameter, and a branch
/// that can leave the cycle). A CompileError otherwise: a pass bug must never
/// become a kernel that cancel cannot stop. No IR exists after this point; NVPTX
/// instruction selection makes no loops of its own (memory intrinsics are lowered
/// to IR loops by the IR pass above, and atoll-mem leaves only constant lengths of
/// at most 256 bytes).
llvm::Error checkCyclesPolled(llvm::Module &M);

/// Runs the PTX validator (ptx/PtxValidator.h) on PTX emitted for M: the entries
/// must be exactly Kernels (with the hidden parameters), module-scope variables
/// exactly M's shared/constant globals. A violation is a Refused error naming the
/// PTX line.
llvm::Error validateEmittedPTX(llvm::StringRef PTX, const llvm::Module &M,
                               const std::vector<KernelInfo> &Kernels);

/// prepareModule, hardenModule (unless !Opts.Harden), emitPTX, then the
/// signatures of the final module and (when hardening) the PTX validator: the part
/// of compile() after parsing, shared with atoll-harden --emit=ptx so that both
/// produce and check the same PTX for the same input and options.
llvm::Expected<CompiledModule> compileModule(llvm::Module &M, const CompileOptions &Opts);

/// All of the above: parse, prepare, harden (unless !Opts.Harden), PTX, final
/// signatures, validation.
llvm::Expected<CompiledModule> compile(llvm::MemoryBufferRef Input,
                                       const CompileOptions &Opts);

} // namespace Atoll::toolchain
