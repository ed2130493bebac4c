// Launch shapes and typed kernel arguments.
//
// A launch passes a list of Arg values; the runtime checks it against the kernel's
// signature (count, kind, size, int vs float, pointer parameters take a Buffer of the
// same pipeline) before anything reaches the driver, and appends the hidden arena
// parameters of the ABI (abi.h) itself.
//
//   pipeline.launch(kernel, {grid, block}, Arg::buffer(a), Arg::buffer(b, 256), Arg::i32(n));
//   pipeline.launch(kernel, {grid, block}, a, b, n);   // same, types mapped by Arg::from
//
// Thread-safety: Arg, Dim3, LaunchConfig and DeviceLimits are plain values.
#pragma once

#include "atoll/buffer.h"

#include <concepts>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace Atoll {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr Dim3() = default;
  constexpr Dim3(uint32_t x, uint32_t y = 1, uint32_t z = 1) : x(x), y(y), z(z) {}
  friend constexpr bool operator==(const Dim3 &, const Dim3 &) = default;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  /// Dynamic shared memory per block. Above the device's default (48 KiB) the runtime
  /// raises the kernel's limit up to the device's opt-in maximum; beyond that the
  /// launch is refused.
  uint32_t dynamicSharedBytes = 0;
  /// Fuel: loop iterations each thread may be charged (a checked back edge 1, a
  /// charged loop its count when it starts: docs/runtime-api.md); a thread charged
  /// its fuel ends, and the next synchronize() reports FuelExhausted.
  /// Deterministic (each thread counts its own control flow in the compiled kernel:
  /// an unrolled loop takes one edge per unrolled body). 0 = unlimited.
  uint64_t fuel = 0;
};

/// The device limits a launch shape is checked against (queried from the device by
/// the runtime; the defaults are those of an H200).
struct DeviceLimits {
  uint32_t maxThreadsPerBlock = 1024;
  uint32_t maxBlockDim[3] = {1024, 1024, 64};
  uint32_t maxGridDim[3] = {2147483647u, 65535, 65535};
  uint32_t defaultSharedPerBlock = 48u << 10;       // without opt-in
  uint32_t maxSharedPerBlockOptin = 227u << 10;     // with opt-in (static + dynamic)
  /// Blocks of one launch (grid.x * grid.y * grid.z), not a device limit:
  /// RuntimeOptions::maxBlocksPerLaunch (a cancelled grid must drain in time).
  uint64_t maxBlocksPerLaunch = uint64_t(1) << 24;
  /// Local memory (stack) per thread the context reserved when the runtime started
  /// (at least ATOLL_DEFAULT_MAX_LOCAL_BYTES of atoll/abi.h); a kernel needing more
  /// is refused at load. 0 without a device.
  uint64_t localBytesPerThread = 0;
};

enum class ArgKind : uint8_t {
  Buffer,      // a pointer parameter: a buffer of the launching pipeline (+ offset)
  NullPointer, // a pointer parameter: the null pointer
  Int,         // an integer scalar of size() bytes (1, 2, 4 or 8), either signedness
  Float,       // a floating-point scalar of size() bytes (2 = half bits, 4, 8)
  Bytes,       // a by-value aggregate of size() bytes (caller memory, read at launch)
};

/// One launch argument. Small and trivially copyable; scalars are stored inline,
/// Arg::bytes refers to caller memory that must stay valid during the launch call
/// (the driver copies it when the call returns; not beyond).
class Arg {
public:
  static Arg buffer(const Buffer &b, uint64_t offsetBytes = 0) noexcept {
    Arg a(ArgKind::Buffer, 8);
    a.buffer_ = b;
    a.offset_ = offsetBytes;
    return a;
  }
  static Arg null() noexcept { return scalar(ArgKind::NullPointer, uint64_t{0}); }
  static Arg i8(int8_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg u8(uint8_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg i16(int16_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg u16(uint16_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg i32(int32_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg u32(uint32_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg i64(int64_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg u64(uint64_t v) noexcept { return scalar(ArgKind::Int, v); }
  static Arg f16bits(uint16_t bits) noexcept { return scalar(ArgKind::Float, bits); }
  static Arg f32(float v) noexcept { return scalar(ArgKind::Float, v); }
  static Arg f64(double v) noexcept { return scalar(ArgKind::Float, v); }
  /// A by-value struct parameter: size must equal the parameter's size exactly.
  static Arg bytes(const void *data, uint32_t size) noexcept {
    Arg a(ArgKind::Bytes, size);
    a.external_ = data;
    return a;
  }
  template <typename T>
    requires std::is_trivially_copyable_v<T> && (!std::is_pointer_v<T>)
  static Arg bytes(const T &value) noexcept {
    return bytes(&value, static_cast<uint32_t>(sizeof(T)));
  }

  /// Maps a C++ value to an Arg (used by the variadic Pipeline::launch):
  /// Arg -> itself; Buffer -> buffer(b); nullptr -> null(); bool -> u8; integers and
  /// enums -> Int of their size; float -> f32; double -> f64. Structs need Arg::bytes.
  static Arg from(const Arg &a) noexcept { return a; }
  static Arg from(const Buffer &b) noexcept { return buffer(b); }
  static Arg from(std::nullptr_t) noexcept { return null(); }
  static Arg from(bool v) noexcept { return u8(v ? 1 : 0); }
  static Arg from(float v) noexcept { return f32(v); }
  template <typename T> static Arg from(const T *) = delete; // not a device pointer: use a Buffer
  static Arg from(double v) noexcept { return f64(v); }
  template <typename T>
    requires(std::integral<T> && !std::same_as<T, bool>) || std::is_enum_v<T>
  static Arg from(T v) noexcept {
    return scalar(ArgKind::Int, v);
  }

  ArgKind kind() const noexcept { return kind_; }
  /// Bytes the argument occupies in the parameter buffer (8 for pointers).
  uint32_t size() const noexcept { return size_; }
  /// For Buffer arguments.
  const Buffer &bufferValue() const noexcept { return buffer_; }
  uint64_t bufferOffset() const noexcept { return offset_; }
  /// The argument's bytes as the kernel receives them (not for Buffer arguments,
  /// whose device address the runtime computes).
  const void *data() const noexcept {
    return kind_ == ArgKind::Bytes ? external_ : static_cast<const void *>(inline_);
  }
  /// "i32", "f32", "buffer", "null", "bytes" (for messages).
  std::string_view kindName() const noexcept;

private:
  Arg(ArgKind kind, uint32_t size) noexcept : kind_(kind), size_(size) {}
  template <typename T> static Arg scalar(ArgKind kind, T v) noexcept {
    static_assert(sizeof(T) <= 8);
    Arg a(kind, static_cast<uint32_t>(sizeof(T)));
    std::memcpy(a.inline_, &v, sizeof(T));
    return a;
  }

  ArgKind kind_;
  uint32_t size_;
  alignas(8) unsigned char inline_[8] = {};
  const void *external_ = nullptr;
  Buffer buffer_;
  uint64_t offset_ = 0;
};

/// True when Arg::from accepts T (the variadic launch is constrained on it).
template <typename T>
concept LaunchArgument = requires(const T &v) {
  { Arg::from(v) } -> std::same_as<Arg>;
};

} // namespace Atoll
