#include "CacheKey.h"

#include "atoll/abi.h"
#include "atoll/application.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"

#include <fmt/format.h>

#include <dlfcn.h>
#include <sys/stat.h>

namespace Atoll::detail {
namespace {

constexpr unsigned kKeyFormat = 1;

std::string hex(llvm::ArrayRef<uint8_t> bytes) { return llvm::toHex(bytes, /*LowerCase=*/true); }

llvm::ArrayRef<uint8_t> bytesOf(std::string_view s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

std::string blake3Hex(std::string_view s) { return hex(llvm::BLAKE3::hash<32>(bytesOf(s))); }

} // namespace

std::string toolchainIdentity() {
  std::string id = fmt::format("llvm {}", LLVM_VERSION_STRING);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&toolchainIdentity), &info) && info.dli_fname) {
    struct stat st{};
    if (::stat(info.dli_fname, &st) == 0)
      id += fmt::format(" | {} {} {}.{}", info.dli_fname, uint64_t(st.st_size),
                        int64_t(st.st_mtim.tv_sec), int64_t(st.st_mtim.tv_nsec));
  }
  return id;
}

std::string computeCacheKey(std::span<const uint8_t> bitcode, const CacheKeyInput &in) {
  auto code = llvm::BLAKE3::hash<32>(llvm::ArrayRef<uint8_t>(bitcode.data(), bitcode.size()));
  std::string meta = fmt::format(
      "atoll-module-key {}\nabi {}\nllvm {}\nclamping {}\nopt {}\narch {}\nptx {}\n"
      "libdevice {}\ntoolchain {}\nbitcode {}\n",
      kKeyFormat, ATOLL_ABI_VERSION, LLVM_VERSION_STRING, to_string(in.clamping), in.optLevel,
      in.targetArch, in.ptxVersion, in.libdevicePath, in.toolchainId, hex(code));
  return blake3Hex(meta);
}

} // namespace Atoll::detail
