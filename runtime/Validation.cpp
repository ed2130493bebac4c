#include "Validation.h"

#include <fmt/format.h>

#include <algorithm>

namespace Atoll {

std::string_view to_string(Clamping mode) noexcept {
  return mode == Clamping::MaskBased ? ATOLL_MODE_MASK : ATOLL_MODE_MODULO;
}

std::string_view Arg::kindName() const noexcept {
  switch (kind_) {
  case ArgKind::Buffer: return "buffer";
  case ArgKind::NullPointer: return "null";
  case ArgKind::Bytes: return "bytes";
  case ArgKind::Int:
    switch (size_) {
    case 1: return "i8";
    case 2: return "i16";
    case 4: return "i32";
    case 8: return "i64";
    }
    return "int";
  case ArgKind::Float:
    switch (size_) {
    case 2: return "f16";
    case 4: return "f32";
    case 8: return "f64";
    }
    return "float";
  }
  return "?";
}

namespace detail {

Status checkBuffer(const ArenaView &arena, const Buffer &buffer) {
  if (!buffer.valid())
    return Error(ErrorCode::InvalidArgument, "invalid buffer (default-constructed)");
  if (buffer.pipelineId() != arena.pipelineId)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("buffer {} belongs to pipeline {}, not to this one ({})",
                             buffer.id(), buffer.pipelineId(), arena.pipelineId));
  if (arena.allocator) {
    const BlockAllocator::Block *b = arena.allocator->find(buffer.offset(), buffer.id());
    if (!b || b->size != buffer.size())
      return Error(ErrorCode::InvalidArgument,
                   fmt::format("buffer {} (offset {}, {} bytes) is not a live allocation of "
                               "this pipeline (freed, or not one it handed out)",
                               buffer.id(), buffer.offset(), buffer.size()));
  }
  return {};
}

Status checkRange(const ArenaView &arena, const Buffer &buffer, uint64_t offset,
                  uint64_t bytes) {
  // The buffer inside the arena: offset + size <= arena.size without overflow.
  if (buffer.size() > arena.size || buffer.offset() > arena.size - buffer.size())
    return Error(ErrorCode::OutOfArena,
                 fmt::format("buffer {} (offset {}, {} bytes) leaves the arena ({} bytes)",
                             buffer.id(), buffer.offset(), buffer.size(), arena.size));
  // The range inside the buffer: offset + bytes <= buffer.size without overflow.
  if (offset > buffer.size() || bytes > buffer.size() - offset)
    return Error(ErrorCode::OutOfArena,
                 fmt::format("range of {} bytes at offset {} leaves buffer {} ({} bytes)",
                             bytes, offset, buffer.id(), buffer.size()));
  return {};
}

Status checkBufferRange(const ArenaView &arena, const Buffer &buffer, uint64_t offset,
                        uint64_t bytes) {
  if (Status s = checkBuffer(arena, buffer); !s)
    return s;
  return checkRange(arena, buffer, offset, bytes);
}

bool rangesOverlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) noexcept {
  if (an == 0 || bn == 0)
    return false;
  return a < b + bn && b < a + an;
}

void ParamPack::reset(size_t tenantParams) {
  count_ = tenantParams + ATOLL_HIDDEN_PARAM_COUNT;
  if (tenantParams <= kInline) {
    ptrs_ = inlinePtrs_;
    addrs_ = inlineAddrs_;
  } else {
    heapPtrs_.resize(count_);
    heapAddrs_.resize(tenantParams);
    ptrs_ = heapPtrs_.data();
    addrs_ = heapAddrs_.data();
  }
}

std::string describeParam(const ParamInfo &p) {
  switch (p.kind) {
  case ParamKind::Pointer:
    return fmt::format("pointer ({})", p.type);
  case ParamKind::ByVal:
    return fmt::format("by-value {} ({} bytes)", p.type, p.size);
  case ParamKind::Scalar:
    break;
  }
  if (p.isFloat)
    return fmt::format("{} ({}-byte float)", p.type, p.size);
  return fmt::format("{} ({}-byte integer)", p.type, p.size);
}

namespace {

// Formatting happens only here, on the failure path.
[[gnu::cold]] Error argError(const KernelInfo &k, size_t i, const std::string &what) {
  return Error(ErrorCode::InvalidLaunch,
               fmt::format("kernel '{}' parameter {} ({}): {}", k.name, i,
                           describeParam(k.params[i]), what));
}

[[gnu::cold]] Error mismatch(const KernelInfo &k, size_t i, const Arg &a) {
  const ParamInfo &p = k.params[i];
  std::string expected;
  switch (p.kind) {
  case ParamKind::Pointer:
    expected = "Arg::buffer(...) or Arg::null()";
    break;
  case ParamKind::ByVal:
    expected = fmt::format("Arg::bytes of exactly {} bytes", p.size);
    break;
  case ParamKind::Scalar:
    expected = p.isFloat ? fmt::format("a {}-byte float", p.size)
                         : fmt::format("a {}-byte integer", p.size);
    break;
  }
  std::string got(a.kindName());
  if (a.kind() == ArgKind::Bytes)
    got = fmt::format("bytes ({} bytes)", a.size());
  return argError(k, i, fmt::format("expects {}, got {}", expected, got));
}

} // namespace

Status packArguments(const KernelInfo &kernel, std::span<const Arg> args,
                     const ArenaView &arena, ParamPack &out) {
  const size_t n = kernel.params.size();
  if (args.size() != n)
    return Error(ErrorCode::InvalidLaunch,
                 fmt::format("kernel '{}' takes {} argument{}, got {}", kernel.name, n,
                             n == 1 ? "" : "s", args.size()));
  out.reset(n);
  for (size_t i = 0; i < n; ++i) {
    const ParamInfo &p = kernel.params[i];
    const Arg &a = args[i];
    switch (p.kind) {
    case ParamKind::Pointer:
      if (a.kind() == ArgKind::NullPointer) {
        out.addrs_[i] = 0;
      } else if (a.kind() == ArgKind::Buffer) {
        const Buffer &b = a.bufferValue();
        if (Status s = checkBuffer(arena, b); !s)
          return argError(kernel, i, s.error().message());
        if (Status s = checkRange(arena, b, 0, b.size()); !s)
          return argError(kernel, i, s.error().message());
        if (a.bufferOffset() > b.size())
          return argError(kernel, i,
                          fmt::format("offset {} is beyond the end of buffer {} ({} bytes)",
                                      a.bufferOffset(), b.id(), b.size()));
        out.addrs_[i] = arena.base + b.offset() + a.bufferOffset();
      } else {
        return mismatch(kernel, i, a);
      }
      out.ptrs_[i] = &out.addrs_[i];
      break;
    case ParamKind::Scalar: {
      bool vectorAsBytes = a.kind() == ArgKind::Bytes && !p.type.empty() && p.type[0] == '<';
      bool kindOk = vectorAsBytes || (p.isFloat ? a.kind() == ArgKind::Float
                                                : a.kind() == ArgKind::Int);
      if (!kindOk || a.size() != p.size || !a.data())
        return mismatch(kernel, i, a);
      out.ptrs_[i] = const_cast<void *>(a.data());
      break;
    }
    case ParamKind::ByVal:
      if (a.kind() != ArgKind::Bytes || a.size() != p.size || !a.data())
        return mismatch(kernel, i, a);
      out.ptrs_[i] = const_cast<void *>(a.data());
      break;
    }
  }
  // The hidden parameters, in abi.h order, always last.
  out.hidden_ = {arena.base, arena.size, arena.control};
  out.ptrs_[n + ATOLL_HIDDEN_ARENA_BASE_INDEX] = &out.hidden_.base;
  out.ptrs_[n + ATOLL_HIDDEN_ARENA_SIZE_INDEX] = &out.hidden_.size;
  out.ptrs_[n + ATOLL_HIDDEN_CONTROL_INDEX] = &out.hidden_.control;
  return {};
}

Status checkLaunchShape(const LaunchConfig &c, const DeviceLimits &d, const KernelLimits &k,
                        std::string_view kernelName, uint32_t &raiseDynamicSharedTo) {
  raiseDynamicSharedTo = 0;
  auto fail = [&](std::string what) {
    return Error(ErrorCode::InvalidLaunch,
                 fmt::format("kernel '{}': {}", kernelName, what));
  };
  const uint32_t block[3] = {c.block.x, c.block.y, c.block.z};
  const uint32_t grid[3] = {c.grid.x, c.grid.y, c.grid.z};
  static constexpr char axis[3] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; ++i) {
    if (block[i] == 0 || grid[i] == 0)
      return fail(fmt::format("empty launch: grid ({}, {}, {}) block ({}, {}, {})", grid[0],
                              grid[1], grid[2], block[0], block[1], block[2]));
    if (block[i] > d.maxBlockDim[i])
      return fail(fmt::format("block.{} = {} exceeds the device limit {}", axis[i], block[i],
                              d.maxBlockDim[i]));
    if (grid[i] > d.maxGridDim[i])
      return fail(fmt::format("grid.{} = {} exceeds the device limit {}", axis[i], grid[i],
                              d.maxGridDim[i]));
  }
  // Three 32-bit factors: the product fits in 96 bits; compare in two steps so
  // that 64-bit arithmetic never wraps.
  const uint64_t xy = uint64_t(grid[0]) * grid[1];
  if (xy > d.maxBlocksPerLaunch || (grid[2] > 1 && xy > d.maxBlocksPerLaunch / grid[2]))
    return fail(fmt::format("grid ({}, {}, {}) has more than {} blocks "
                            "(RuntimeOptions::maxBlocksPerLaunch: a cancelled grid must drain "
                            "within the cancel deadline)",
                            grid[0], grid[1], grid[2], d.maxBlocksPerLaunch));
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  uint32_t maxThreads = d.maxThreadsPerBlock;
  if (k.maxThreadsPerBlock != 0)
    maxThreads = std::min(maxThreads, k.maxThreadsPerBlock);
  if (threads > maxThreads)
    return fail(fmt::format("{} threads per block exceed the limit of {} ({})", threads,
                            maxThreads,
                            maxThreads == d.maxThreadsPerBlock ? "device" : "this kernel"));
  uint64_t shared = uint64_t(k.staticSharedBytes) + c.dynamicSharedBytes;
  if (shared > d.maxSharedPerBlockOptin)
    return fail(fmt::format("{} bytes of dynamic shared memory (+{} static) exceed the "
                            "device maximum of {} bytes per block",
                            c.dynamicSharedBytes, k.staticSharedBytes,
                            d.maxSharedPerBlockOptin));
  if (c.dynamicSharedBytes > k.dynamicSharedLimit)
    raiseDynamicSharedTo = c.dynamicSharedBytes;
  return {};
}

} // namespace detail
} // namespace Atoll
