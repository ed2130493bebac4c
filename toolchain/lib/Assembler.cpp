// PTX -> cubin with nvJitLink, loaded with dlopen from the CUDA toolkit.
//
// Why nvJitLink and not ptxas: it is a library. Assembling is a function call in
// the calling process: no fork/exec (which the compile worker's seccomp filter
// forbids), no temporary files (the PTX and the cubin stay in memory), and its
// error log comes back as a string. Why dlopen: nothing links against the toolkit,
// so every AToLL binary still starts on a machine without one, and a missing
// library is a typed error at the first assembly, not a loader failure.
#include "atoll/toolchain/Toolchain.h"
#include "ToolchainInternal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#ifndef ATOLL_DEFAULT_CUDA_PATH
#define ATOLL_DEFAULT_CUDA_PATH "/usr/local/cuda"
#endif

using namespace llvm;

namespace Atoll::toolchain {
namespace {

// The subset of nvJitLink.h this file uses (its C ABI, stable since CUDA 12.0),
// declared here so that the toolchain needs no toolkit header.
using Handle = void *;
using Result = int; // nvJitLinkResult; 0 = NVJITLINK_SUCCESS
constexpr int kInputPtx = 2; // NVJITLINK_INPUT_PTX
constexpr Result kUnrecognizedOption = 1; // NVJITLINK_ERROR_UNRECOGNIZED_OPTION

struct NvJitLink {
  Result (*create)(Handle *, uint32_t, const char **) = nullptr;
  Result (*destroy)(Handle *) = nullptr;
  Result (*addData)(Handle, int, const void *, size_t, const char *) = nullptr;
  Result (*complete)(Handle) = nullptr;
  Result (*cubinSize)(Handle, size_t *) = nullptr;
  Result (*cubin)(Handle, void *) = nullptr;
  Result (*errorLogSize)(Handle, size_t *) = nullptr;
  Result (*errorLog)(Handle, char *) = nullptr;
  std::string path;
};

/// The toolkit directories to look in. ATOLL_CUDA_PATH, when set, is the only one
/// tried (the service's explicit choice must not silently fall back to another
/// assembler); otherwise CUDA_HOME (a general variable, often set for other
/// tools), the toolkit configured at build time, then /usr/local/cuda.
SmallVector<std::string, 4> toolkitDirs() {
  if (const char *V = std::getenv("ATOLL_CUDA_PATH"); V && *V)
    return {V};
  SmallVector<std::string, 4> Dirs;
  if (const char *V = std::getenv("CUDA_HOME"); V && *V)
    Dirs.push_back(V);
  Dirs.push_back(ATOLL_DEFAULT_CUDA_PATH);
  Dirs.push_back("/usr/local/cuda");
  return Dirs;
}

Expected<NvJitLink> loadOnce() {
  std::string Tried, Why;
  for (const std::string &Dir : toolkitDirs()) {
    // The unversioned name is a development symlink; the runtime package has
    // only the SONAME.
    for (const char *Name : {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"}) {
      std::string Path = Dir + "/lib64/" + Name;
      if (!Tried.empty())
        Tried += ", ";
      Tried += Path;
      // Never dlclose: the library stays for the life of the process.
      void *H = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!H) {
        if (const char *E = dlerror())
          Why = E;
        continue;
      }
      NvJitLink L;
      L.path = Path;
      bool Ok = true;
      auto Sym = [&](auto &Fn, const char *S) {
        Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(H, S));
        Ok = Ok && Fn;
      };
      Sym(L.create, "nvJitLinkCreate");
      Sym(L.destroy, "nvJitLinkDestroy");
      Sym(L.addData, "nvJitLinkAddData");
      Sym(L.complete, "nvJitLinkComplete");
      Sym(L.cubinSize, "nvJitLinkGetLinkedCubinSize");
      Sym(L.cubin, "nvJitLinkGetLinkedCubin");
      Sym(L.errorLogSize, "nvJitLinkGetErrorLogSize");
      Sym(L.errorLog, "nvJitLinkGetErrorLog");
      if (Ok)
        return L;
      Why = Path + " lacks an nvJitLink entry point";
    }
  }
  return detail::makeError(FailureKind::CompileError,
                           "no PTX assembler: libnvJitLink could not be loaded from the CUDA "
                           "toolkit (set ATOLL_CUDA_PATH or CUDA_HOME to one)",
                           "tried: " + Tried + (Why.empty() ? "" : "\nlast error: " + Why));
}

std::once_flag Once;
std::atomic<bool> Loaded{false};
/// Whether nvJitLink accepted -no-cache: -1 not yet asked, 0 refused (an older
/// library: assembled without it), 1 accepted.
std::atomic<int> NoCache{-1};
std::optional<NvJitLink> Lib;
std::string LoadFailure, LoadFailureDetail;

const NvJitLink *library() {
  std::call_once(Once, [] {
    auto L = loadOnce();
    if (L) {
      Lib = std::move(*L);
      Loaded.store(true, std::memory_order_release);
      return;
    }
    handleAllErrors(L.takeError(), [](const ToolchainError &E) {
      LoadFailure = E.message();
      LoadFailureDetail = E.diagnostics();
    });
  });
  return Lib ? &*Lib : nullptr;
}

/// The handle, destroyed on every path.
struct LinkHandle {
  const NvJitLink &L;
  Handle H = nullptr;
  ~LinkHandle() {
    if (H)
      L.destroy(&H);
  }
  std::string errorLog() const {
    size_t N = 0;
    if (!H || L.errorLogSize(H, &N) != 0 || N == 0)
      return {};
    std::string S(N, '\0');
    if (L.errorLog(H, S.data()) != 0)
      return {};
    while (!S.empty() && (S.back() == '\0' || S.back() == '\n'))
      S.pop_back();
    return S;
  }
};

/// "sm_90", "sm_90a", "sm_100f": what -arch= accepts; anything else is refused
/// before it reaches the library's option parser.
bool plausibleArch(StringRef Arch) {
  if (!Arch.consume_front("sm_") || Arch.empty())
    return false;
  size_t Digits = 0;
  while (Digits < Arch.size() && isDigit(Arch[Digits]))
    ++Digits;
  return Digits >= 2 && Digits <= 3 &&
         (Arch.size() == Digits || (Arch.size() == Digits + 1 && (Arch.back() == 'a' ||
                                                                 Arch.back() == 'f')));
}

} // namespace

Error loadAssembler() {
  if (library())
    return Error::success();
  return detail::makeError(FailureKind::CompileError, LoadFailure, LoadFailureDetail);
}

bool assemblerLoaded() {
  return Loaded.load(std::memory_order_acquire);
}

std::optional<bool> assemblerBypassesJitCache() {
  int V = NoCache.load(std::memory_order_relaxed);
  if (V < 0)
    return std::nullopt;
  return V == 1;
}

Expected<std::string> assembleCubin(StringRef Ptx, StringRef Arch) {
  if (Error E = loadAssembler())
    return E;
  const NvJitLink &L = *Lib;
  if (!plausibleArch(Arch))
    return detail::makeError(FailureKind::CompileError,
                             "cannot assemble for GPU architecture '" + Arch +
                                 "' (expected sm_NN)");
  if (Ptx.empty())
    return detail::makeError(FailureKind::CompileError, "cannot assemble empty PTX");
  std::string ArchOpt = ("-arch=" + Arch).str();
  // -no-cache: nvJitLink otherwise reads and writes the CUDA driver's JIT cache
  // (~/.nv/ComputeCache, or CUDA_CACHE_PATH) in a process that has one, a store of
  // the service user's outside AToLL's own MAC-checked disk cache, shared with every
  // CUDA process of that user. The H200 measured it in the in-process path: the
  // cache directory appeared, and repeated assemblies of the same PTX were cache hits
  // (2.7-3.1x faster). A per-call option, unlike CUDA_CACHE_DISABLE, which would
  // take a setenv in a threaded process. A library too old to know it refuses it
  // (NVJITLINK_ERROR_UNRECOGNIZED_OPTION): then it assembles without (and
  // assemblerBypassesJitCache() says so).
  const char *Opts[] = {ArchOpt.c_str(), "-no-cache"};
  LinkHandle H{L};
  auto failed = [&](StringRef Step, Result R) {
    std::string Log = H.errorLog();
    std::string Msg = ("the PTX assembler (nvJitLink) failed " + Step + " (error " + Twine(R) +
                       ")").str();
    if (!Log.empty())
      Msg += ": " + StringRef(Log).split('\n').first.str();
    return detail::makeError(FailureKind::CompileError, Msg, Log);
  };
  const bool TryNoCache = NoCache.load(std::memory_order_relaxed) != 0;
  Result Created = kUnrecognizedOption;
  if (TryNoCache) {
    Created = L.create(&H.H, 2, Opts);
    if (Created == 0)
      NoCache.store(1, std::memory_order_relaxed);
  }
  if (Created == kUnrecognizedOption) {
    if (H.H) // nvJitLink hands back a handle even when it refuses an option
      L.destroy(&H.H);
    H.H = nullptr;
    Created = L.create(&H.H, 1, Opts);
    // Only -no-cache was refused when the same call without it succeeds (not, say,
    // an -arch= this library does not know).
    if (Created == 0 && TryNoCache)
      NoCache.store(0, std::memory_order_relaxed);
  }
  if (Created != 0)
    return failed("to start", Created);
  // The PTX with its terminating NUL: nvJitLink reads PTX as a C string.
  std::string Text = Ptx.str();
  if (Result R = L.addData(H.H, kInputPtx, Text.c_str(), Text.size() + 1, "module.ptx"); R != 0)
    return failed("on the PTX", R);
  if (Result R = L.complete(H.H); R != 0)
    return failed("to assemble the PTX", R);
  size_t N = 0;
  if (Result R = L.cubinSize(H.H, &N); R != 0)
    return failed("to return the cubin", R);
  std::string Cubin(N, '\0');
  if (Result R = L.cubin(H.H, Cubin.data()); R != 0)
    return failed("to return the cubin", R);
  if (Cubin.size() < 4 || StringRef(Cubin).take_front(4) != "\x7f" "ELF")
    return detail::makeError(FailureKind::CompileError,
                             "the PTX assembler (nvJitLink) returned no ELF cubin");
  return Cubin;
}

} // namespace Atoll::toolchain
