// Buffer: a region inside one pipeline's device arena.
//
// A Buffer is a small value type (a handle): copying it does not copy memory, and it
// does not own anything. Memory is allocated and freed through its Pipeline
// (Pipeline::allocate / Pipeline::free). Every use of a Buffer is checked by the
// runtime: a Buffer of another pipeline, a freed (stale) Buffer or a forged one is
// a typed error, never a silent access.
//
// Thread-safety: a Buffer is an immutable value; share and copy it freely.
#pragma once

#include <cstdint>

namespace Atoll {

class Buffer {
public:
  /// An invalid buffer (valid() is false); every operation on it is an error.
  constexpr Buffer() = default;
  /// Used by the runtime. Anyone can construct a Buffer, but only one that matches
  /// a live allocation of the pipeline it is used with is accepted.
  constexpr Buffer(uint64_t pipelineId, uint64_t id, uint64_t offset, uint64_t size)
      : pipelineId_(pipelineId), id_(id), offset_(offset), size_(size) {}

  /// The pipeline whose arena holds the buffer.
  constexpr uint64_t pipelineId() const noexcept { return pipelineId_; }
  /// Allocation id, unique within its pipeline (never reused, so stale handles fail).
  constexpr uint64_t id() const noexcept { return id_; }
  /// Offset of the first byte from the arena base (a multiple of ATOLL_BUFFER_ALIGNMENT).
  constexpr uint64_t offset() const noexcept { return offset_; }
  /// Size in bytes as requested at allocation.
  constexpr uint64_t size() const noexcept { return size_; }
  constexpr bool valid() const noexcept { return id_ != 0; }

  friend constexpr bool operator==(const Buffer &, const Buffer &) = default;

private:
  uint64_t pipelineId_ = 0;
  uint64_t id_ = 0;
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
};

} // namespace Atoll
