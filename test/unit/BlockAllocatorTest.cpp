// The buffer allocator inside an arena (pure C++): alignment, best fit, reuse,
// coalescing, fragmentation, exhaustion, double/stale/forged frees, and a
// randomised run that checks the invariants after every step.
#include "BlockAllocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using Atoll::ErrorCode;
using Atoll::detail::BlockAllocator;

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
}

TEST(BlockAllocator, AlignsEveryBlockAndRoundsSizes) {
  BlockAllocator a(1 * MiB);
  auto b1 = a.allocate(1);
  auto b2 = a.allocate(300);
  auto b3 = a.allocate(256);
  ASSERT_TRUE(b1 && b2 && b3);
  EXPECT_EQ(b1->offset, 0u);
  EXPECT_EQ(b1->size, 1u);
  EXPECT_EQ(b1->reserved, 256u);
  EXPECT_EQ(b2->offset, 256u);
  EXPECT_EQ(b2->reserved, 512u);
  EXPECT_EQ(b3->offset, 768u);
  for (auto *b : {&*b1, &*b2, &*b3})
    EXPECT_EQ(b->offset % 256, 0u);
  EXPECT_EQ(a.usedBytes(), 1024u);
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, IdsAreUniqueAndNeverReused) {
  BlockAllocator a(64 * KiB);
  auto b1 = a.allocate(100);
  ASSERT_TRUE(b1);
  ASSERT_TRUE(a.free(b1->offset, b1->id));
  auto b2 = a.allocate(100);
  ASSERT_TRUE(b2);
  EXPECT_EQ(b2->offset, b1->offset);
  EXPECT_NE(b2->id, b1->id);
  EXPECT_NE(b1->id, 0u);
}

TEST(BlockAllocator, ZeroBytesIsInvalid) {
  BlockAllocator a(64 * KiB);
  auto b = a.allocate(0);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), ErrorCode::InvalidArgument);
}

TEST(BlockAllocator, LargerThanTheArenaIsExhausted) {
  BlockAllocator a(64 * KiB);
  for (uint64_t n : {64 * KiB + 1, UINT64_MAX, UINT64_MAX - 255}) {
    auto b = a.allocate(n);
    ASSERT_FALSE(b) << n;
    EXPECT_EQ(b.error().code(), ErrorCode::ArenaExhausted) << n;
  }
  EXPECT_TRUE(a.allocate(64 * KiB)); // exactly the arena
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, ExhaustionIsATypedErrorNamingTheFreeSpace) {
  BlockAllocator a(4 * KiB);
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(a.allocate(1 * KiB));
  auto b = a.allocate(1);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), ErrorCode::ArenaExhausted);
  EXPECT_NE(b.error().message().find("0 of 4096 bytes free"), std::string::npos)
      << b.error().message();
  EXPECT_EQ(a.freeBytes(), 0u);
}

TEST(BlockAllocator, FreedSpaceIsReused) {
  BlockAllocator a(4 * KiB);
  std::vector<BlockAllocator::Block> bs;
  for (int i = 0; i < 4; ++i)
    bs.push_back(*a.allocate(1 * KiB));
  ASSERT_TRUE(a.free(bs[2].offset, bs[2].id));
  auto again = a.allocate(1 * KiB);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->offset, bs[2].offset);
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, FreeingCoalescesNeighboursInAnyOrder) {
  for (auto order : {std::vector<int>{0, 1, 2}, {2, 1, 0}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}}) {
    BlockAllocator a(3 * KiB);
    BlockAllocator::Block bs[3] = {*a.allocate(KiB), *a.allocate(KiB), *a.allocate(KiB)};
    for (int i : order) {
      ASSERT_TRUE(a.free(bs[i].offset, bs[i].id));
      EXPECT_TRUE(a.checkInvariants());
    }
    EXPECT_EQ(a.freeBlocks(), 1u);
    EXPECT_EQ(a.largestFreeBlock(), 3 * KiB);
    EXPECT_TRUE(a.allocate(3 * KiB)); // the whole arena again
  }
}

TEST(BlockAllocator, FragmentationIsVisibleAndHealsOnFree) {
  BlockAllocator a(64 * 256);
  std::vector<BlockAllocator::Block> bs;
  for (int i = 0; i < 64; ++i)
    bs.push_back(*a.allocate(256));
  for (int i = 0; i < 64; i += 2)
    ASSERT_TRUE(a.free(bs[i].offset, bs[i].id));
  EXPECT_EQ(a.freeBytes(), 32u * 256);
  EXPECT_EQ(a.freeBlocks(), 32u);
  EXPECT_EQ(a.largestFreeBlock(), 256u);
  // Half the arena is free, but not 512 contiguous bytes.
  auto big = a.allocate(512);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::ArenaExhausted);
  // Freeing block 1 joins blocks 0..2 into 768 bytes.
  ASSERT_TRUE(a.free(bs[1].offset, bs[1].id));
  EXPECT_EQ(a.largestFreeBlock(), 768u);
  auto fits = a.allocate(512);
  ASSERT_TRUE(fits);
  EXPECT_EQ(fits->offset, 0u);
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, BestFitPicksTheSmallestBlockThatFits) {
  BlockAllocator a(16 * KiB);
  auto big = *a.allocate(4 * KiB);   // [0, 4K)
  auto sep1 = *a.allocate(256);      // separator
  auto small = *a.allocate(1 * KiB); // [4K+256, ...)
  auto sep2 = *a.allocate(256);
  (void)sep1;
  (void)sep2;
  ASSERT_TRUE(a.free(big.offset, big.id));
  ASSERT_TRUE(a.free(small.offset, small.id));
  auto b = a.allocate(1 * KiB);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->offset, small.offset);
  auto c = a.allocate(2 * KiB);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->offset, big.offset);
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, DoubleFreeIsAnError) {
  BlockAllocator a(64 * KiB);
  auto b = *a.allocate(100);
  ASSERT_TRUE(a.free(b.offset, b.id));
  Atoll::Status again = a.free(b.offset, b.id);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(again.error().message().find("freed twice"), std::string::npos);
  EXPECT_TRUE(a.checkInvariants());
}

TEST(BlockAllocator, StaleHandleCannotFreeTheNewOwner) {
  BlockAllocator a(64 * KiB);
  auto old = *a.allocate(100);
  ASSERT_TRUE(a.free(old.offset, old.id));
  auto fresh = *a.allocate(100);
  ASSERT_EQ(fresh.offset, old.offset);
  EXPECT_FALSE(a.free(old.offset, old.id));
  EXPECT_NE(a.find(fresh.offset, fresh.id), nullptr); // still live
  EXPECT_EQ(a.find(old.offset, old.id), nullptr);
}

TEST(BlockAllocator, ForgedOffsetsAreRejected) {
  BlockAllocator a(64 * KiB);
  auto b = *a.allocate(1 * KiB);
  EXPECT_FALSE(a.free(b.offset + 256, b.id));
  EXPECT_FALSE(a.free(UINT64_MAX, b.id));
  EXPECT_FALSE(a.free(b.offset, b.id + 1));
  EXPECT_EQ(a.liveBlocks(), 1u);
}

TEST(BlockAllocator, PeakAndCurrentUsage) {
  BlockAllocator a(64 * KiB);
  auto x = *a.allocate(10 * KiB);
  auto y = *a.allocate(20 * KiB);
  EXPECT_EQ(a.usedBytes(), 30 * KiB);
  ASSERT_TRUE(a.free(y.offset, y.id));
  EXPECT_EQ(a.usedBytes(), 10 * KiB);
  EXPECT_EQ(a.peakBytes(), 30 * KiB);
  ASSERT_TRUE(a.free(x.offset, x.id));
  EXPECT_EQ(a.usedBytes(), 0u);
  EXPECT_EQ(a.liveBlocks(), 0u);
}

TEST(BlockAllocator, CapacityIsRoundedDownToTheAlignment) {
  BlockAllocator a(1000);
  EXPECT_EQ(a.capacity(), 768u);
  EXPECT_TRUE(a.allocate(768));
  EXPECT_FALSE(a.allocate(1));
}

TEST(BlockAllocator, ResetFreesEverything) {
  BlockAllocator a(64 * KiB);
  auto b = *a.allocate(1000);
  a.reset();
  EXPECT_EQ(a.usedBytes(), 0u);
  EXPECT_EQ(a.find(b.offset, b.id), nullptr);
  EXPECT_EQ(a.largestFreeBlock(), 64 * KiB);
}

TEST(BlockAllocator, RandomisedRunKeepsInvariantsAndNeverOverlaps) {
  std::mt19937_64 rng(42);
  BlockAllocator a(4 * MiB);
  std::vector<BlockAllocator::Block> live;
  for (int step = 0; step < 20000; ++step) {
    bool doAlloc = live.empty() || rng() % 100 < 55;
    if (doAlloc) {
      uint64_t n = 1 + rng() % (rng() % 4 == 0 ? 256 * KiB : 4 * KiB);
      auto b = a.allocate(n);
      if (!b) {
        ASSERT_EQ(b.error().code(), ErrorCode::ArenaExhausted);
        continue;
      }
      ASSERT_EQ(b->offset % 256, 0u);
      ASSERT_LE(b->offset + b->reserved, a.capacity());
      live.push_back(*b);
    } else {
      size_t i = rng() % live.size();
      ASSERT_TRUE(a.free(live[i].offset, live[i].id));
      live.erase(live.begin() + std::ptrdiff_t(i));
    }
    if (step % 500 == 0) {
      ASSERT_TRUE(a.checkInvariants()) << "step " << step;
      auto sorted = live;
      std::sort(sorted.begin(), sorted.end(),
                [](auto &x, auto &y) { return x.offset < y.offset; });
      for (size_t i = 1; i < sorted.size(); ++i)
        ASSERT_LE(sorted[i - 1].offset + sorted[i - 1].reserved, sorted[i].offset);
    }
  }
  for (auto &b : live)
    ASSERT_TRUE(a.free(b.offset, b.id));
  EXPECT_EQ(a.freeBlocks(), 1u);
  EXPECT_TRUE(a.checkInvariants());
}
