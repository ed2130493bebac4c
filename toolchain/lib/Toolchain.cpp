// Parsing and checking tenant modules, kernel signatures, and compile(): the entry
// points of the toolchain. PassPipeline.cpp holds the IR passes, Codegen.cpp the NVPTX
// backend.
#include "atoll/toolchain/Toolchain.h"
#include "ToolchainInternal.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace Atoll::toolchain {

char ToolchainError::ID = 0;

// The message only: callers that want the diagnostics ask for them, so that a
// one-line error stays one line.
void ToolchainError::log(raw_ostream &OS) const { OS << Message; }

std::error_code ToolchainError::convertToErrorCode() const {
  switch (Kind) {
  case FailureKind::InvalidInput:
  case FailureKind::WrongTarget:
    return std::make_error_code(std::errc::invalid_argument);
  case FailureKind::Refused:
    return std::make_error_code(std::errc::operation_not_permitted);
  case FailureKind::CompileError:
    break;
  }
  return std::make_error_code(std::errc::not_supported);
}

namespace detail {

Error makeError(FailureKind Kind, const Twine &Message, std::string Diagnostics) {
  return make_error<ToolchainError>(Kind, Message.str(), std::move(Diagnostics));
}

} // namespace detail

using namespace detail;

namespace {

/// Textual IR never contains NUL or most control characters; bytes that do are
/// neither IR nor bitcode, and "expected top-level entity at 1:1" would only
/// confuse.
bool looksBinary(StringRef Bytes) {
  for (unsigned char C : Bytes.take_front(4096))
    if (C == 0 || (C < 0x20 && C != '\t' && C != '\n' && C != '\r' && C != '\f' && C != '\v'))
      return true;
  return false;
}

std::string typeName(const Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  // "%struct.S", not the struct's body.
  T->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
  return S;
}

ParamInfo paramOf(const Argument &A, const DataLayout &DL) {
  ParamInfo P;
  Type *T = A.getType();
  if (Type *ByVal = A.getParamByValType()) {
    P.kind = ParamKind::ByVal;
    P.size = DL.getTypeAllocSize(ByVal);
    P.align = A.getParamAlign().value_or(DL.getABITypeAlign(ByVal)).value();
    P.type = typeName(ByVal);
    return P;
  }
  P.type = typeName(T);
  if (T->isPointerTy()) {
    P.kind = ParamKind::Pointer;
    P.size = 8;
    P.align = 8;
    return P;
  }
  if (T->isAggregateType()) {
    // An aggregate passed directly (not produced by clang, possible in hand-written
    // IR): the host passes its bytes like a byval struct.
    P.kind = ParamKind::ByVal;
    P.size = DL.getTypeAllocSize(T);
    P.align = DL.getABITypeAlign(T).value();
    return P;
  }
  P.kind = ParamKind::Scalar;
  // The PTX .param is the allocation size (<3 x i32>: .b8 [16], <3 x half>: [8]);
  // the runtime must pack (zero-padded) that many bytes, not the store size.
  P.size = DL.getTypeAllocSize(T);
  P.align = DL.getABITypeAlign(T).value();
  P.isFloat = T->isFPOrFPVectorTy();
  P.isSigned = A.hasSExtAttr();
  return P;
}

} // namespace

Expected<std::unique_ptr<Module>> parseModule(MemoryBufferRef Input, LLVMContext &Ctx) {
  StringRef Bytes = Input.getBuffer();
  if (Bytes.empty())
    return makeError(FailureKind::InvalidInput,
                     "empty input (expected LLVM bitcode or textual IR)");
  const auto *Begin = reinterpret_cast<const unsigned char *>(Bytes.begin());
  const auto *End = reinterpret_cast<const unsigned char *>(Bytes.end());
  bool IsBitcode = isBitcode(Begin, End);
  if (!IsBitcode && looksBinary(Bytes))
    return makeError(FailureKind::InvalidInput,
                     "not LLVM bitcode or textual IR (unrecognised binary data)");

  // The reader reports upgrade notes (e.g. stripped invalid debug info) as
  // diagnostics; keep them off the service's stderr.
  DiagnosticCollector Diags(Ctx);
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIR(Input, Err, Ctx);
  if (!M) {
    std::string Full;
    raw_string_ostream OS(Full);
    Err.print(nullptr, OS, /*ShowColors=*/false);
    if (IsBitcode)
      return makeError(FailureKind::InvalidInput,
                       "malformed bitcode: " + Err.getMessage(), Full);
    return makeError(FailureKind::InvalidInput,
                     "malformed IR at line " + Twine(Err.getLineNo()) + ", column " +
                         Twine(Err.getColumnNo() + 1) + ": " + Err.getMessage(),
                     Full);
  }
  if (Diags.hasErrors())
    return makeError(FailureKind::InvalidInput, "reading the module failed", Diags.errors());

  std::string Broken;
  raw_string_ostream OS(Broken);
  bool BrokenDebugInfo = false;
  if (verifyModule(*M, &OS, &BrokenDebugInfo)) {
    StringRef First = StringRef(Broken).split('\n').first;
    return makeError(FailureKind::InvalidInput,
                     "the module is not valid LLVM IR: " + First, Broken);
  }
  // Like opt and clang: broken debug info is dropped, not fatal.
  if (BrokenDebugInfo)
    StripDebugInfo(*M);

  const Triple &TT = M->getTargetTriple();
  if (TT.getArch() != Triple::nvptx64 || TT.getOS() != Triple::CUDA) {
    if (TT.str().empty())
      return makeError(FailureKind::WrongTarget,
                       "the module has no target triple (expected nvptx64-nvidia-cuda)");
    return makeError(FailureKind::WrongTarget, "the module targets '" + TT.str() +
                                                   "' (expected nvptx64-nvidia-cuda)");
  }

  // Sizes (kernel signatures, the passes' object sizes) are read with the module's
  // layout and codegen uses the target's: they must be the same. A module without
  // one gets the target's here, before anything reads a size; any other is refused
  // (LLVM's default layout makes {i8, i64} 12 bytes, the PTX parameter 16).
  std::string Want = TT.computeDataLayout();
  if (M->getDataLayoutStr().empty())
    M->setDataLayout(Want);
  else if (M->getDataLayoutStr() != Want)
    return makeError(FailureKind::Refused, "refused: the module's data layout '" +
                                                   M->getDataLayoutStr() +
                                                   "' is not the NVPTX target's '" + Want + "'");

  if (none_of(M->functions(),
              [](const Function &F) { return !F.isDeclaration() && isKernel(F); }))
    return makeError(FailureKind::InvalidInput,
                     "no kernels: the module defines no ptx_kernel function (nor an "
                     "nvvm.annotations kernel)");
  return M;
}

std::vector<KernelInfo> kernelSignatures(const Module &M) {
  std::vector<KernelInfo> Sigs;
  const DataLayout &DL = M.getDataLayout();
  for (const Function &F : M.functions()) {
    if (F.isDeclaration() || !isKernel(F))
      continue;
    KernelInfo S;
    S.name = F.getName().str();
    for (const Argument &A : F.args())
      S.params.push_back(paramOf(A, DL));
    Sigs.push_back(std::move(S));
  }
  return Sigs;
}

Expected<CompiledModule> compileModule(Module &M, const CompileOptions &Opts) {
  if (Error E = prepareModule(M, Opts))
    return E;
  if (Opts.Harden)
    if (Error E = hardenModule(M, Opts))
      return E;
  auto PTX = emitPTX(M, Opts);
  if (!PTX)
    return PTX.takeError();
  // M is now the IR after the backend's own IR passes: the last point to see loops.
  if (Opts.Harden && Opts.Preempt)
    if (Error E = checkCyclesPolled(M))
      return E;
  // Signatures and names come from the module as emitted: -O2 may have deleted a
  // kernel, and code generation renames symbols that PTX cannot spell.
  auto Kernels = finalKernelSignatures(M, Opts.Harden);
  if (!Kernels)
    return Kernels.takeError();
  if (Opts.Harden)
    if (Error E = validateEmittedPTX(*PTX, M, *Kernels))
      return E;
  CompiledModule Out;
  // Only PTX that passed the validator (above) is ever assembled: unhardened
  // baselines get none. Without an assembler the cubin stays empty; a runtime with
  // a device then refuses to load.
  if (Opts.Assemble && Opts.Harden) {
    if (Error E = loadAssembler()) {
      consumeError(std::move(E));
    } else {
      auto Cubin = assembleCubin(*PTX, Opts.GpuArch);
      if (!Cubin)
        return Cubin.takeError();
      Out.cubin = std::move(*Cubin);
    }
  }
  Out.ptx = std::move(*PTX);
  Out.kernels = std::move(*Kernels);
  return Out;
}

Expected<CompiledModule> compile(MemoryBufferRef Input, const CompileOptions &Opts) {
  // One context per call: nothing is shared between concurrent compilations.
  LLVMContext Ctx;
  auto M = parseModule(Input, Ctx);
  if (!M)
    return M.takeError();
  return compileModule(**M, Opts);
}

} // namespace Atoll::toolchain
