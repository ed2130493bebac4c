// Launch-argument validation against kernel signatures (and the packing of the
// hidden ABI parameters), launch-shape validation against device/kernel limits,
// and copy-range validation, all as pure functions without a GPU.
#include "Validation.h"

#include "atoll/abi.h"
#include "atoll/launch.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace Atoll;
using namespace Atoll::detail;

namespace {

constexpr uint64_t kPipeline = 7;
constexpr uint64_t kBase = 0x7f0000000000ull;
constexpr uint64_t kArena = 64ull << 20;

ParamInfo ptr() { return {ParamKind::Pointer, 8, 8, false, false, "ptr"}; }
ParamInfo i32() { return {ParamKind::Scalar, 4, 4, false, false, "i32"}; }
ParamInfo i8() { return {ParamKind::Scalar, 1, 1, false, false, "i8"}; }
ParamInfo f32() { return {ParamKind::Scalar, 4, 4, true, false, "float"}; }
ParamInfo f64() { return {ParamKind::Scalar, 8, 8, true, false, "double"}; }
ParamInfo byval(uint32_t n) { return {ParamKind::ByVal, n, 8, false, false, "%struct.S"}; }

KernelInfo kernel(std::string name, std::vector<ParamInfo> params) {
  KernelInfo k;
  k.name = std::move(name);
  k.params = std::move(params);
  return k;
}

struct Fixture : ::testing::Test {
  BlockAllocator alloc{kArena};
  static constexpr uint64_t kControl = 0x7f0200000040ull;
  ArenaView view{kPipeline, kBase, kArena, &alloc, kControl};
  Buffer make(uint64_t bytes) {
    auto b = alloc.allocate(bytes);
    EXPECT_TRUE(b);
    return Buffer(kPipeline, b->id, b->offset, b->size);
  }
  KernelInfo vadd = kernel("vadd", {ptr(), ptr(), ptr(), i32()});
};

uint64_t u64At(void *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

using Validation = Fixture;

} // namespace

TEST_F(Validation, PacksPointersScalarsAndHiddenParamsInAbiOrder) {
  Buffer a = make(4096), b = make(4096), c = make(4096);
  Arg args[] = {Arg::buffer(a), Arg::buffer(b, 256), Arg::buffer(c, 4096), Arg::i32(1024)};
  ParamPack pack;
  ASSERT_TRUE(packArguments(vadd, args, view, pack));
  ASSERT_EQ(pack.count(), 4 + ATOLL_HIDDEN_PARAM_COUNT);
  void **p = pack.pointers();
  EXPECT_EQ(u64At(p[0]), kBase + a.offset());
  EXPECT_EQ(u64At(p[1]), kBase + b.offset() + 256);
  EXPECT_EQ(u64At(p[2]), kBase + c.offset() + 4096); // one past the end is allowed
  int32_t n;
  std::memcpy(&n, p[3], 4);
  EXPECT_EQ(n, 1024);
  // The hidden parameters come last, base then size, exactly as abi.h says.
  EXPECT_EQ(u64At(p[4 + ATOLL_HIDDEN_ARENA_BASE_INDEX]), kBase);
  EXPECT_EQ(u64At(p[4 + ATOLL_HIDDEN_ARENA_SIZE_INDEX]), kArena);
  EXPECT_EQ(pack.hidden().base, kBase);
  EXPECT_EQ(pack.hidden().size, kArena);
  EXPECT_EQ(p[4 + ATOLL_HIDDEN_ARENA_BASE_INDEX], &pack.hidden().base);
  EXPECT_EQ(p[4 + ATOLL_HIDDEN_ARENA_SIZE_INDEX], &pack.hidden().size);
  // ABI v2: the control block's address last.
  EXPECT_EQ(u64At(p[4 + ATOLL_HIDDEN_CONTROL_INDEX]), kControl);
  EXPECT_EQ(p[4 + ATOLL_HIDDEN_CONTROL_INDEX], &pack.hidden().control);
}

TEST_F(Validation, KernelWithoutParamsGetsOnlyTheHiddenOnes) {
  ParamPack pack;
  ASSERT_TRUE(packArguments(kernel("k", {}), {}, view, pack));
  ASSERT_EQ(pack.count(), ATOLL_HIDDEN_PARAM_COUNT);
  EXPECT_EQ(u64At(pack.pointers()[ATOLL_HIDDEN_ARENA_BASE_INDEX]), kBase);
  EXPECT_EQ(u64At(pack.pointers()[ATOLL_HIDDEN_ARENA_SIZE_INDEX]), kArena);
  EXPECT_EQ(u64At(pack.pointers()[ATOLL_HIDDEN_CONTROL_INDEX]), kControl);
}

TEST_F(Validation, WrongArgumentCountIsInvalidLaunch) {
  Buffer a = make(64);
  ParamPack pack;
  Arg few[] = {Arg::buffer(a), Arg::buffer(a), Arg::buffer(a)};
  Status s = packArguments(vadd, few, view, pack);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
  EXPECT_EQ(s.error().message(), "kernel 'vadd' takes 4 arguments, got 3");
  Arg many[] = {Arg::buffer(a), Arg::buffer(a), Arg::buffer(a), Arg::i32(1), Arg::i32(2)};
  EXPECT_FALSE(packArguments(vadd, many, view, pack));
}

TEST_F(Validation, ScalarKindAndSizeMustMatch) {
  Buffer a = make(64);
  struct Case {
    Arg arg;
    const char *expect;
  } cases[] = {
      {Arg::f32(1.0f), "expects a 4-byte integer, got f32"},
      {Arg::i64(1), "expects a 4-byte integer, got i64"},
      {Arg::i16(1), "expects a 4-byte integer, got i16"},
      {Arg::buffer(a), "expects a 4-byte integer, got buffer"},
      {Arg::null(), "expects a 4-byte integer, got null"},
      {Arg::bytes(&a, 4), "expects a 4-byte integer, got bytes (4 bytes)"},
  };
  for (const Case &c : cases) {
    Arg args[] = {Arg::buffer(a), Arg::buffer(a), Arg::buffer(a), c.arg};
    ParamPack pack;
    Status s = packArguments(vadd, args, view, pack);
    ASSERT_FALSE(s) << c.expect;
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
    EXPECT_NE(s.error().message().find("kernel 'vadd' parameter 3 (i32 (4-byte integer))"),
              std::string::npos)
        << s.error().message();
    EXPECT_NE(s.error().message().find(c.expect), std::string::npos) << s.error().message();
  }
  // Either signedness of the right size is fine.
  Arg ok[] = {Arg::buffer(a), Arg::buffer(a), Arg::buffer(a), Arg::u32(7)};
  ParamPack pack;
  EXPECT_TRUE(packArguments(vadd, ok, view, pack));
}

TEST_F(Validation, FloatParamsTakeFloatsOfTheirSize) {
  KernelInfo k = kernel("scale", {f32(), f64()});
  ParamPack pack;
  Arg good[] = {Arg::f32(1.5f), Arg::f64(2.5)};
  ASSERT_TRUE(packArguments(k, good, view, pack));
  float f;
  double d;
  std::memcpy(&f, pack.pointers()[0], 4);
  std::memcpy(&d, pack.pointers()[1], 8);
  EXPECT_EQ(f, 1.5f);
  EXPECT_EQ(d, 2.5);
  Arg intForFloat[] = {Arg::i32(1), Arg::f64(2.5)};
  Status s = packArguments(k, intForFloat, view, pack);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("parameter 0"), std::string::npos);
  EXPECT_NE(s.error().message().find("expects a 4-byte float, got i32"), std::string::npos);
  Arg doubleForFloat[] = {Arg::f64(1), Arg::f64(2.5)};
  EXPECT_FALSE(packArguments(k, doubleForFloat, view, pack));
  Arg floatForDouble[] = {Arg::f32(1), Arg::f32(2.5f)};
  s = packArguments(k, floatForDouble, view, pack);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("parameter 1"), std::string::npos);
}

TEST_F(Validation, PointerParamsTakeBuffersOfThisPipelineOrNull) {
  Buffer a = make(1024);
  KernelInfo k = kernel("k", {ptr()});
  ParamPack pack;
  Arg null[] = {Arg::null()};
  ASSERT_TRUE(packArguments(k, null, view, pack));
  EXPECT_EQ(u64At(pack.pointers()[0]), 0u);

  Buffer foreign(kPipeline + 1, a.id(), a.offset(), a.size());
  Arg f[] = {Arg::buffer(foreign)};
  Status s = packArguments(k, f, view, pack);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
  EXPECT_NE(s.error().message().find("belongs to pipeline 8, not to this one (7)"),
            std::string::npos)
      << s.error().message();

  for (uint64_t v : {uint64_t(0), uint64_t(0x1000), ~uint64_t(0)}) {
    Arg scalarForPtr[] = {Arg::u64(v)};
    s = packArguments(k, scalarForPtr, view, pack);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message().find("expects Arg::buffer(...) or Arg::null(), got i64"),
              std::string::npos);
  }
  Arg invalid[] = {Arg::buffer(Buffer())};
  EXPECT_FALSE(packArguments(k, invalid, view, pack));
}

TEST_F(Validation, StaleAndForgedBuffersAreRejected) {
  Buffer a = make(1024);
  KernelInfo k = kernel("k", {ptr()});
  ParamPack pack;
  // Forged extent: a live id/offset with a larger size.
  Buffer bigger(kPipeline, a.id(), a.offset(), a.size() * 1024);
  Arg forged[] = {Arg::buffer(bigger)};
  Status s = packArguments(k, forged, view, pack);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("not a live allocation"), std::string::npos);
  // Freed.
  ASSERT_TRUE(alloc.free(a.offset(), a.id()));
  Arg stale[] = {Arg::buffer(a)};
  s = packArguments(k, stale, view, pack);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
  EXPECT_NE(s.error().message().find("parameter 0"), std::string::npos);
}

TEST_F(Validation, BufferOffsetMustStayInsideTheBuffer) {
  Buffer a = make(1000);
  KernelInfo k = kernel("k", {ptr()});
  ParamPack pack;
  for (uint64_t off : {uint64_t(0), uint64_t(999), uint64_t(1000)}) {
    Arg ok[] = {Arg::buffer(a, off)};
    EXPECT_TRUE(packArguments(k, ok, view, pack)) << off;
    EXPECT_EQ(u64At(pack.pointers()[0]), kBase + a.offset() + off);
  }
  for (uint64_t off : {uint64_t(1001), uint64_t(1) << 40, ~uint64_t(0)}) {
    Arg bad[] = {Arg::buffer(a, off)};
    Status s = packArguments(k, bad, view, pack);
    ASSERT_FALSE(s) << off;
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
    EXPECT_NE(s.error().message().find("beyond the end of buffer"), std::string::npos);
  }
}

TEST_F(Validation, ByValueParamsTakeBytesOfExactlyTheirSize) {
  struct S {
    int32_t a;
    float b;
    double c;
  } s{1, 2.0f, 3.0};
  static_assert(sizeof(S) == 16);
  KernelInfo k = kernel("k", {byval(16), i8()});
  ParamPack pack;
  Arg good[] = {Arg::bytes(s), Arg::from(true)};
  ASSERT_TRUE(packArguments(k, good, view, pack));
  EXPECT_EQ(pack.pointers()[0], static_cast<const void *>(&s)); // read in place at launch
  uint8_t flag;
  std::memcpy(&flag, pack.pointers()[1], 1);
  EXPECT_EQ(flag, 1);
  Arg small[] = {Arg::bytes(&s, 8), Arg::u8(0)};
  Status st = packArguments(k, small, view, pack);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("expects Arg::bytes of exactly 16 bytes, got bytes (8 bytes)"),
            std::string::npos)
      << st.error().message();
  Arg scalar[] = {Arg::u64(1), Arg::u8(0)};
  EXPECT_FALSE(packArguments(k, scalar, view, pack));
  Arg nullBytes[] = {Arg::bytes(nullptr, 16), Arg::u8(0)};
  EXPECT_FALSE(packArguments(k, nullBytes, view, pack));
}

TEST_F(Validation, ManyParametersUseTheHeapPathCorrectly) {
  std::vector<ParamInfo> params(40, i32());
  KernelInfo k = kernel("wide", params);
  std::vector<Arg> args;
  for (int i = 0; i < 40; ++i)
    args.push_back(Arg::i32(i * 3));
  ParamPack pack;
  ASSERT_TRUE(packArguments(k, args, view, pack));
  ASSERT_EQ(pack.count(), 40 + ATOLL_HIDDEN_PARAM_COUNT);
  for (int i = 0; i < 40; ++i) {
    int32_t v;
    std::memcpy(&v, pack.pointers()[i], 4);
    EXPECT_EQ(v, i * 3);
  }
  EXPECT_EQ(u64At(pack.pointers()[40 + ATOLL_HIDDEN_ARENA_SIZE_INDEX]), kArena);
}

TEST(LaunchArgs, FromMapsCxxTypes) {
  enum class E : int16_t { A = 3 };
  Buffer b(1, 2, 256, 64);
  EXPECT_EQ(Arg::from(1).kind(), ArgKind::Int);
  EXPECT_EQ(Arg::from(1).size(), 4u);
  EXPECT_EQ(Arg::from(1L).size(), 8u);
  EXPECT_EQ(Arg::from(uint8_t(1)).size(), 1u);
  EXPECT_EQ(Arg::from(E::A).size(), 2u);
  EXPECT_EQ(Arg::from(true).size(), 1u);
  EXPECT_EQ(Arg::from(1.0f).kind(), ArgKind::Float);
  EXPECT_EQ(Arg::from(1.0f).size(), 4u);
  EXPECT_EQ(Arg::from(1.0).size(), 8u);
  EXPECT_EQ(Arg::from(nullptr).kind(), ArgKind::NullPointer);
  EXPECT_EQ(Arg::from(b).kind(), ArgKind::Buffer);
  EXPECT_EQ(Arg::from(b).bufferValue(), b);
  EXPECT_EQ(Arg::from(Arg::buffer(b, 8)).bufferOffset(), 8u);
  EXPECT_EQ(Arg::i32(-5).kindName(), "i32");
  EXPECT_EQ(Arg::f16bits(0x3c00).kindName(), "f16");
  static_assert(LaunchArgument<int> && LaunchArgument<double> && LaunchArgument<Buffer>);
  static_assert(!LaunchArgument<const char *> && !LaunchArgument<float *>);
  static_assert(!LaunchArgument<std::string>);
  int32_t v;
  Arg a = Arg::from(-42);
  std::memcpy(&v, a.data(), 4);
  EXPECT_EQ(v, -42);
}

// --- launch shapes ---------------------------------------------------------------

namespace {
DeviceLimits h200() { return DeviceLimits{}; }
}

TEST(LaunchShape, AcceptsOrdinaryShapes) {
  uint32_t raise = 1;
  EXPECT_TRUE(checkLaunchShape({Dim3(1024), Dim3(256)}, h200(), {}, "k", raise));
  EXPECT_EQ(raise, 0u);
  // The device's largest grid, with the block cap lifted to the 96-bit product.
  DeviceLimits unlimited = h200();
  unlimited.maxBlocksPerLaunch = ~uint64_t(0);
  EXPECT_TRUE(checkLaunchShape({Dim3(2147483647u, 65535, 65535), Dim3(32, 32, 1)}, unlimited,
                               {}, "k", raise));
  EXPECT_TRUE(checkLaunchShape({Dim3(1), Dim3(1, 1, 64)}, h200(), {}, "k", raise));
  // Exactly the default cap (2^24 blocks) in every factorisation.
  EXPECT_TRUE(checkLaunchShape({Dim3(1u << 24), Dim3(32)}, h200(), {}, "k", raise));
  EXPECT_TRUE(checkLaunchShape({Dim3(1024, 128, 128), Dim3(32)}, h200(), {}, "k", raise));
  EXPECT_TRUE(checkLaunchShape({Dim3(1, 256, 65536 / 1024 * 512), Dim3(32)}, h200(), {}, "k",
                               raise));
}

// R2-F2: a grid of up to 2^31-1 x 65535 x 65535 blocks runs long after a cancel
// (every block still starts, polls and leaves); the total is capped.
TEST(LaunchShape, RefusesGridsOverTheBlockCap) {
  uint32_t raise;
  const LaunchConfig over[] = {
      {Dim3((1u << 24) + 1), Dim3(32)},
      {Dim3(1024, 128, 129), Dim3(32)},
      {Dim3(2147483647u, 65535, 65535), Dim3(32)}, // 2^77: 64-bit products would wrap
      {Dim3(65536, 65535, 65535), Dim3(1)},        // 2^64 + ...: wraps a naive product
  };
  for (const LaunchConfig &c : over) {
    Status s = checkLaunchShape(c, h200(), {}, "vadd", raise);
    ASSERT_FALSE(s) << c.grid.x << " " << c.grid.y << " " << c.grid.z;
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
    EXPECT_NE(s.error().message().find("more than 16777216 blocks"), std::string::npos)
        << s.error().message();
    EXPECT_NE(s.error().message().find("RuntimeOptions::maxBlocksPerLaunch"), std::string::npos);
  }
  DeviceLimits small = h200();
  small.maxBlocksPerLaunch = 6;
  EXPECT_TRUE(checkLaunchShape({Dim3(1, 2, 3), Dim3(32)}, small, {}, "k", raise));
  EXPECT_FALSE(checkLaunchShape({Dim3(7), Dim3(32)}, small, {}, "k", raise));
  EXPECT_FALSE(checkLaunchShape({Dim3(1, 1, 7), Dim3(32)}, small, {}, "k", raise));
}

TEST(LaunchShape, RejectsEmptyAndOversizedShapes) {
  uint32_t raise;
  struct Case {
    LaunchConfig c;
    const char *expect;
  } cases[] = {
      {{Dim3(0), Dim3(256)}, "empty launch"},
      {{Dim3(1), Dim3(256, 0)}, "empty launch"},
      {{Dim3(1), Dim3(2048)}, "block.x = 2048 exceeds the device limit 1024"},
      {{Dim3(1), Dim3(1, 1, 65)}, "block.z = 65 exceeds the device limit 64"},
      {{Dim3(1), Dim3(64, 32)}, "2048 threads per block exceed the limit of 1024 (device)"},
      {{Dim3(1, 65536), Dim3(32)}, "grid.y = 65536 exceeds the device limit 65535"},
      {{Dim3(1, 1, 65536), Dim3(32)}, "grid.z = 65536"},
      {{Dim3(0xffffffffu), Dim3(32)}, "grid.x = 4294967295"},
  };
  for (const Case &c : cases) {
    Status s = checkLaunchShape(c.c, h200(), {}, "vadd", raise);
    ASSERT_FALSE(s) << c.expect;
    EXPECT_EQ(s.error().code(), ErrorCode::InvalidLaunch);
    EXPECT_NE(s.error().message().find("kernel 'vadd'"), std::string::npos);
    EXPECT_NE(s.error().message().find(c.expect), std::string::npos) << s.error().message();
  }
}

TEST(LaunchShape, KernelThreadLimitApplies) {
  uint32_t raise;
  KernelLimits k;
  k.maxThreadsPerBlock = 256;
  EXPECT_TRUE(checkLaunchShape({Dim3(1), Dim3(256)}, h200(), k, "k", raise));
  Status s = checkLaunchShape({Dim3(1), Dim3(512)}, h200(), k, "k", raise);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("512 threads per block exceed the limit of 256 (this kernel)"),
            std::string::npos)
      << s.error().message();
}

TEST(LaunchShape, DynamicSharedMemoryIsRaisedUpToTheOptInMaximum) {
  DeviceLimits d = h200();
  KernelLimits k;
  k.staticSharedBytes = 1024;
  k.dynamicSharedLimit = 48 * 1024 - 1024;
  uint32_t raise = 0;
  // Within the kernel's current limit: nothing to do.
  ASSERT_TRUE(checkLaunchShape({Dim3(1), Dim3(32), 40 * 1024}, d, k, "k", raise));
  EXPECT_EQ(raise, 0u);
  // Above it but within the opt-in maximum: raise exactly to the request.
  ASSERT_TRUE(checkLaunchShape({Dim3(1), Dim3(32), 100 * 1024}, d, k, "k", raise));
  EXPECT_EQ(raise, 100u * 1024);
  // Static + dynamic at the maximum is fine; one byte more is not.
  uint32_t most = d.maxSharedPerBlockOptin - k.staticSharedBytes;
  ASSERT_TRUE(checkLaunchShape({Dim3(1), Dim3(32), most}, d, k, "k", raise));
  Status s = checkLaunchShape({Dim3(1), Dim3(32), most + 1}, d, k, "k", raise);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("exceed the device maximum"), std::string::npos);
  s = checkLaunchShape({Dim3(1), Dim3(32), 0xffffffffu}, d, k, "k", raise);
  EXPECT_FALSE(s);
}

// --- copy ranges -------------------------------------------------------------------

TEST_F(Validation, CopyRangesAreCheckedWithoutOverflow) {
  Buffer a = make(1000);
  EXPECT_TRUE(checkBufferRange(view, a, 0, 1000));
  EXPECT_TRUE(checkBufferRange(view, a, 999, 1));
  EXPECT_TRUE(checkBufferRange(view, a, 1000, 0)); // empty range at the end
  struct Case {
    uint64_t offset, bytes;
  } bad[] = {
      {0, 1001},
      {1, 1000},
      {1000, 1},
      {1001, 0},
      {UINT64_MAX, 1},
      {UINT64_MAX, 0},
      {0, UINT64_MAX},
      {8, UINT64_MAX - 4},       // offset + bytes wraps to a small number
      {UINT64_MAX - 10, 20},     // wraps as well
      {1ull << 63, 1ull << 63},  // sums to exactly 2^64 = 0
  };
  for (const Case &c : bad) {
    Status s = checkBufferRange(view, a, c.offset, c.bytes);
    ASSERT_FALSE(s) << c.offset << " " << c.bytes;
    EXPECT_EQ(s.error().code(), ErrorCode::OutOfArena);
  }
}

TEST_F(Validation, ForgedBuffersOutsideTheArenaAreOutOfArena) {
  // Without the liveness check (allocator == nullptr), the range check alone still
  // keeps a forged buffer inside the arena.
  ArenaView noLiveness{kPipeline, kBase, kArena, nullptr};
  Buffer beyond(kPipeline, 1, kArena - 256, 512);
  Status s = checkBufferRange(noLiveness, beyond, 0, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::OutOfArena);
  Buffer wraps(kPipeline, 1, UINT64_MAX - 100, 200);
  EXPECT_FALSE(checkBufferRange(noLiveness, wraps, 0, 1));
  Buffer huge(kPipeline, 1, 0, UINT64_MAX);
  EXPECT_FALSE(checkBufferRange(noLiveness, huge, 0, 1));
  // With liveness, a forged buffer is not even considered.
  s = checkBufferRange(view, beyond, 0, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument);
}

TEST_F(Validation, BuffersOfOtherPipelinesAreRefusedForCopies) {
  Buffer a = make(64);
  Buffer other(kPipeline + 1, a.id(), a.offset(), a.size());
  Status s = checkBufferRange(view, other, 0, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::InvalidArgument);
}

TEST(CopyRanges, OverlapDetection) {
  EXPECT_TRUE(rangesOverlap(0, 10, 5, 10));
  EXPECT_TRUE(rangesOverlap(5, 10, 0, 10));
  EXPECT_TRUE(rangesOverlap(0, 10, 0, 10));
  EXPECT_FALSE(rangesOverlap(0, 10, 10, 10));
  EXPECT_FALSE(rangesOverlap(10, 10, 0, 10));
  EXPECT_FALSE(rangesOverlap(0, 0, 0, 10));
}
