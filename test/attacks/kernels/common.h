// Shared by the attack and control kernels of the AToLL adversarial suite.
// Every kernel is extern "C" so that the catalog (AttackCatalog.cpp) names it as
// written here. Kernels are compiled with clang-22 -O2 exactly as a tenant would;
// values the optimiser must not see come from kernel arguments.
#pragma once
#include <stdint.h>

typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t i32;
typedef int64_t i64;
typedef uint8_t u8;

static __device__ __forceinline__ u32 gtid() { return blockIdx.x * blockDim.x + threadIdx.x; }
static __device__ __forceinline__ u32 nthreads() { return gridDim.x * blockDim.x; }

// Victim secret words have the top 12 bits 0x5EC (the harness scans the attacker's
// whole arena for them); residue writers use the same pattern.
#define ATK_SECRET(i) (0x5EC00000u | ((u32)(i) * 2654435761u & 0xFFFFFu))
