// The on-disk cache's entry format: the kernels' signatures, the PTX and the cubin
// (with its BLAKE3), under a keyed BLAKE3 MAC over the cache key and the body.
#include "DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm-c/blake3.h"
#include "llvm/Support/BLAKE3.h"

#include <fmt/format.h>

#include <charconv>

namespace Atoll::detail {
namespace {

// Format 2: the checksum became a keyed MAC (a file without the service's key is
// never loaded). Format 3: entries carry the cubin (with its BLAKE3) after the
// PTX; entries of older formats are ignored (a miss, then overwritten).
constexpr std::string_view kMagic = "ATOLL-PTXC 3\n";

std::string hex(llvm::ArrayRef<uint8_t> bytes) { return llvm::toHex(bytes, /*LowerCase=*/true); }

llvm::ArrayRef<uint8_t> bytesOf(std::string_view s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

std::string blake3Hex(std::string_view s) { return hex(llvm::BLAKE3::hash<32>(bytesOf(s))); }

/// A cursor over the serialised entry; every read checks bounds.
class Reader {
public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool literal(std::string_view lit) {
    if (s_.substr(0, lit.size()) != lit)
      return false;
    s_.remove_prefix(lit.size());
    return true;
  }
  bool number(uint64_t &out) {
    auto [end, ec] = std::from_chars(s_.data(), s_.data() + s_.size(), out);
    if (ec != std::errc() || end == s_.data())
      return false;
    s_.remove_prefix(size_t(end - s_.data()));
    return true;
  }
  bool bytes(uint64_t n, std::string &out) {
    if (n > s_.size())
      return false;
    out.assign(s_.substr(0, n));
    s_.remove_prefix(n);
    return true;
  }
  /// "<len> <bytes>"
  bool string(std::string &out) {
    uint64_t n;
    return number(n) && literal(" ") && bytes(n, out);
  }
  bool empty() const { return s_.empty(); }

private:
  std::string_view s_;
};

std::string serializeBody(const CompiledEntry &e) {
  std::string out = fmt::format("kernels {}\n", e.kernels.size());
  for (const KernelInfo &k : e.kernels) {
    out += fmt::format("k {} {} {}\n", k.name.size(), k.name, k.params.size());
    for (const ParamInfo &p : k.params)
      out += fmt::format("p {} {} {} {} {} {} {}\n", int(p.kind), p.size, p.align,
                         int(p.isFloat), int(p.isSigned), p.type.size(), p.type);
  }
  out += fmt::format("ptx {}\n", e.ptx.size());
  out += e.ptx;
  out += fmt::format("\ncubin {} {}\n", e.cubin.size(), blake3Hex(e.cubin));
  out += e.cubin;
  return out;
}

std::optional<CompiledEntry> parseBody(std::string_view body) {
  Reader r(body);
  CompiledEntry e;
  uint64_t nk;
  if (!r.literal("kernels ") || !r.number(nk) || !r.literal("\n") || nk > 100000)
    return std::nullopt;
  for (uint64_t i = 0; i < nk; ++i) {
    KernelInfo k;
    uint64_t np;
    if (!r.literal("k ") || !r.string(k.name) || !r.literal(" ") || !r.number(np) ||
        !r.literal("\n") || np > 100000)
      return std::nullopt;
    for (uint64_t j = 0; j < np; ++j) {
      ParamInfo p;
      uint64_t kind, size, align, isFloat, isSigned;
      if (!r.literal("p ") || !r.number(kind) || !r.literal(" ") || !r.number(size) ||
          !r.literal(" ") || !r.number(align) || !r.literal(" ") || !r.number(isFloat) ||
          !r.literal(" ") || !r.number(isSigned) || !r.literal(" ") || !r.string(p.type) ||
          !r.literal("\n") || kind > 2 || size > UINT32_MAX || align > UINT32_MAX)
        return std::nullopt;
      p.kind = ParamKind(kind);
      p.size = uint32_t(size);
      p.align = uint32_t(align);
      p.isFloat = isFloat != 0;
      p.isSigned = isSigned != 0;
      k.params.push_back(std::move(p));
    }
    e.kernels.push_back(std::move(k));
  }
  uint64_t n;
  if (!r.literal("ptx ") || !r.number(n) || !r.literal("\n") || !r.bytes(n, e.ptx))
    return std::nullopt;
  std::string hash;
  if (!r.literal("\ncubin ") || !r.number(n) || !r.literal(" ") || !r.bytes(64, hash) ||
      !r.literal("\n") || !r.bytes(n, e.cubin) || !r.empty() || hash != blake3Hex(e.cubin))
    return std::nullopt;
  return e;
}

} // namespace

std::array<uint8_t, 32> entryMac(std::span<const uint8_t, 32> macKey, std::string_view key,
                                 std::string_view body) {
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init_keyed(&h, macKey.data());
  // The cache key is covered too: an entry cannot be renamed to another key.
  std::string head = fmt::format("atoll-ptxc-mac 3\nkey {}\n", key);
  llvm_blake3_hasher_update(&h, head.data(), head.size());
  llvm_blake3_hasher_update(&h, body.data(), body.size());
  std::array<uint8_t, 32> out;
  llvm_blake3_hasher_finalize(&h, out.data(), out.size());
  return out;
}

std::string serializeEntry(std::string_view key, const CompiledEntry &entry,
                           std::span<const uint8_t, 32> macKey) {
  std::string body = serializeBody(entry);
  return fmt::format("{}key {}\nmac {}\n", kMagic, key, hex(entryMac(macKey, key, body))) + body;
}

std::optional<CompiledEntry> parseEntry(std::string_view key, std::string_view bytes,
                                        std::span<const uint8_t, 32> macKey) {
  Reader r(bytes);
  std::string gotKey, mac;
  if (!r.literal(kMagic) || !r.literal("key ") || !r.bytes(key.size(), gotKey) ||
      gotKey != key || !r.literal("\nmac ") || !r.bytes(64, mac) || !r.literal("\n"))
    return std::nullopt;
  size_t header = kMagic.size() + 4 + key.size() + 5 + 64 + 1;
  std::string_view body = bytes.substr(header);
  std::string expected = hex(entryMac(macKey, key, body));
  // Constant time: the comparison must not reveal how much of a forged MAC matched.
  unsigned diff = 0;
  for (size_t i = 0; i < 64; ++i)
    diff |= unsigned(uint8_t(expected[i]) ^ uint8_t(mac[i]));
  if (diff != 0)
    return std::nullopt;
  return parseBody(body);
}

} // namespace Atoll::detail
