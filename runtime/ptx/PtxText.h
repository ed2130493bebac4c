// Small text helpers shared by the PTX validator's parts (PtxValidator.cpp,
// PtxInstruction.cpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace Atoll::ptx {

inline bool hasPrefix(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// A non-negative integer literal (decimal or 0x hex), as barrier operands must be.
inline std::optional<uint64_t> immediate(std::string_view s) {
  uint64_t v = 0;
  int base = 10;
  if (hasPrefix(s, "0x") || hasPrefix(s, "0X")) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty())
    return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return v;
}


} // namespace Atoll::ptx
