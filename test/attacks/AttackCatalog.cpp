// The table of attacks (see Catalog.h): one row per attack, added in order by
// category. Kernel sources are in kernels/<module>.cu or .ll; every argument list
// below matches the kernel's parameters in order (the offline mode checks this
// against the compiled signatures, so a wrong row fails CI, not the GPU run).
// The benign controls are in Controls.cpp, the argument helpers and the
// catalog's consistency check in CatalogSupport.cpp.
#include "Catalog.h"

#include <cstdint>
#include <string>
#include <vector>

namespace AtollAttacks {

// --- host mirrors of kernel structs -----------------------------------------------------

namespace {

struct Small { // constparam.cu
  uint32_t v[4];
};
static_assert(sizeof(Small) == 16, "layout of the kernel's struct");

constexpr uint32_t kB = 1; // attacker buffer B (outputs)

Launch L(std::string kernel, std::vector<ArgSpec> args, Atoll::Dim3 grid = {1},
         Atoll::Dim3 block = {64}, uint32_t dyn = 0, Role role = Role::Attacker) {
  Launch l;
  l.role = role;
  l.kernel = std::move(kernel);
  l.grid = grid;
  l.block = block;
  l.dynamicSharedBytes = dyn;
  l.args = std::move(args);
  return l;
}

Attack contained(std::string name, std::string category, std::string module,
                 std::string description, std::vector<Launch> launches) {
  Attack a;
  a.name = std::move(name);
  a.category = std::move(category);
  a.module = std::move(module);
  a.description = std::move(description);
  a.expect = Expect::Contained;
  a.launches = std::move(launches);
  return a;
}

/// One kernel of the same name as the attack.
Attack contained1(std::string name, std::string category, std::string module,
                  std::string description, std::vector<ArgSpec> args, Atoll::Dim3 grid = {1},
                  Atoll::Dim3 block = {64}, uint32_t dyn = 0) {
  std::string kernel = name;
  return contained(std::move(name), std::move(category), std::move(module),
                   std::move(description), {L(kernel, std::move(args), grid, block, dyn)});
}

Attack refused(std::string name, std::string category, std::string module,
               std::string description, std::string reason) {
  Attack a;
  a.name = std::move(name);
  a.category = std::move(category);
  a.module = std::move(module);
  a.description = std::move(description);
  a.expect = Expect::Refused;
  a.reason = std::move(reason);
  return a;
}

Check allZero(uint64_t bytes) {
  Check c;
  c.kind = Check::Kind::AllZero;
  c.buffer = kB;
  c.bytes = bytes;
  return c;
}
Check wordEquals(uint32_t word, uint32_t value) {
  Check c;
  c.kind = Check::Kind::WordEquals;
  c.buffer = kB;
  c.word = word;
  c.value = value;
  return c;
}

std::vector<Attack> buildAttacks() {
  std::vector<Attack> v;
  auto add = [&](Attack a) -> Attack & {
    v.push_back(std::move(a));
    return v.back();
  };
  const uint32_t P = kPoison;

  // --- oob: out-of-bounds global accesses ----------------------------------------------
  add(contained1("oob_read_small", "oob", "oob",
                 "read the 64 words just past the arena's last buffer (crosses the arena end)",
                 {atkTail(), atkB(), atkTailWords()}));
  add(contained1("oob_write_small", "oob", "oob",
                 "write the 64 words just past the arena's last buffer",
                 {atkTail(), atkTailWords(), u32(P)}));
  add(contained1("oob_read_huge", "oob", "oob", "read 1 TiB past a buffer",
                 {atkA(), atkB(), u64(1ull << 38)}));
  add(contained1("oob_write_huge", "oob", "oob", "write 1 TiB past a buffer",
                 {atkA(), u64(1ull << 38), u32(P)}));
  add(contained("oob_write_huge_max", "oob", "oob",
                "write at word index 2^62 - 64 (the byte offset wraps past 2^64)",
                {L("oob_write_huge", {atkA(), u64((1ull << 62) - 64), u32(P)})}));
  add(contained1("oob_read_negative", "oob", "oob", "read 32 GiB before a buffer",
                 {atkA(), atkB(), i64(-(1ll << 33))}));
  add(contained1("oob_write_negative", "oob", "oob",
                 "write the 64 words before the arena's first buffer",
                 {atkA(), i64(-64), u32(P)}));
  add(contained1("oob_write_wrap64", "oob", "oob",
                 "write at p + (2^64 - 4096): 64-bit wrap-around to 4 KiB below p",
                 {atkA(), u64(0ull - 4096), u32(P)}));
  add(contained1("oob_read_wrap64", "oob", "oob", "read at p + (2^64 - 4096)",
                 {atkA(), atkB(), u64(0ull - 4096)}));
  add(contained1("oob_write_victim_delta", "oob", "oob",
                 "write at p + (victim - p): exactly the victim's secret data when unhardened",
                 {atkA(), victimDelta(0), u32(P)}, {1}, {256}));
  add(contained1("oob_read_victim_delta", "oob", "oob",
                 "read at p + (victim - p) into the attacker's output",
                 {atkA(), atkB(), victimDelta(0)}, {1}, {256}));

  // --- forged: the victim's real device address as an integer ----------------------------
  add(contained1("forge_write", "forged", "forge",
                 "store through the victim's device address passed as a u64",
                 {victimAddr(), u32(P)}, {1}, {256}));
  add(contained1("forge_read", "forged", "forge", "load through the victim's device address",
                 {victimAddr(), atkB()}, {1}, {256}));
  add(contained1("forge_spray_write", "forged", "forge",
                 "1024 threads store at victim - 2 MiB + t * 4 KiB (the whole neighbourhood)",
                 {victimAddr(), u32(P)}, {4}, {256}));
  add(contained1("forge_spray_read", "forged", "forge",
                 "1024 threads load at victim - 2 MiB + t * 4 KiB", {victimAddr(), atkB()},
                 {4}, {256}));
  add(contained1("forge_write_u64", "forged", "forge", "64-bit stores through the victim address",
                 {victimAddr(), u64(kPoison64)}, {1}, {128}));
  add(contained("forge_null_write", "forged", "forge", "store through address 0 (+4 t)",
                {L("forge_write", {u64(0), u32(P)}, {1}, {64})}));
  add(contained1("forge_global_as", "forged", "forge_as",
                 "store through a forged pointer typed in the global address space (IR)",
                 {victimAddr(), u32(P)}));
  add(contained1("forge_shared_as", "forged", "forge_as",
                 "store/load through a forged shared-space pointer 0x7fff0 (IR)",
                 {u64(0x7FFF0), u32(P), atkB()}));
  add(contained("forge_shared_as_huge", "forged", "forge_as",
                "store/load through a forged shared-space pointer 2^40 (IR)",
                {L("forge_shared_as", {u64(1ull << 40), u32(P), atkB()})}));
  add(contained1("ldu_foreign", "forged", "forge_as",
                 "ldu (load uniform) intrinsic on the victim's address (IR)",
                 {victimAddr(), atkB()}));
  add(refused("shared_space_param", "forged", "refuse_shared_space_param",
              "a kernel pointer parameter typed shared (addrspace 3), which would receive a "
              "global buffer address (IR)",
              "kernel parameter 0 is a pointer into address space 3"));
  // Found by review (docs/security-model.md, "Found by review").
  add(refused("alloca_global_as", "forged", "refuse_alloca_global_as",
              "a 4 KiB alloca in the global space: its zero-init was an unconfined st.global "
              "loop at the depot's address (IR)",
              "alloca in address space 1 (only the data layout's alloca address space 0"));
  add(refused("big_local", "forged", "refuse_big_local",
              "409,600 bytes of stack per thread: the driver reserves local memory for every "
              "resident thread of the device, outside every arena (R5-F4, IR)",
              "the kernel's stack frame is 409600 bytes per thread (at most 16384"));
  add(refused("alloca_shared_as", "forged", "refuse_alloca_shared_as",
              "a 4 KiB alloca in the shared space, outside the shared window (IR)",
              "alloca in address space 3 (only the data layout's alloca address space 0"));
  add(refused("data_layout", "forged", "refuse_data_layout",
              "a module layout with 4-byte i64: the byval signature was 768 bytes, the PTX "
              "parameter 1024 (the driver read past the caller's buffer) (IR)",
              "data layout 'e-i64:32-n16:32:64' is not the NVPTX target's"));
  {
    struct Pair {
      uint8_t tag;
      uint64_t value;
    };
    struct Pairs {
      Pair p[64];
    };
    static_assert(sizeof(Pairs) == 1024, "the PTX parameter of [64 x {i8, i64}]");
    Attack &a = add(contained1(
        "data_layout_default", "forged", "data_layout_default",
        "a module without a data layout: byval [64 x {i8, i64}] was signed 768 bytes, its PTX "
        "parameter is 1024; each thread reads one i64 of the struct (IR)",
        {byval(Pairs{}), atkB()}, {1}, {64}));
    a.checks.push_back(allZero(64 * 8));
  }
  add(refused("param_subbyte_vector", "forged", "refuse_param_subbyte_vector",
              "a <5 x i4> parameter, read by LLVM at +8 of its 4-byte .param (IR)",
              "kernel parameter 1 has type <5 x i4>"));
  add(refused("constant_bank_wrap", "forged", "refuse_constant_bank_wrap",
              "constant objects of 2^32 and 2^64 - 2^32 bytes whose bank total wrapped to 0 "
              "(IR)",
              "is larger than the 65536-byte constant bank"));

  // --- launder: hiding the pointer's origin from the compiler ------------------------------
  add(contained1("launder_memory_write", "launder", "launder",
                 "store the victim pointer in memory, reload it (volatile), store through it",
                 {atkA(), victimAddr(), u32(P)}, {1}, {128}));
  add(contained1("launder_memory_read", "launder", "launder",
                 "the same, loading the victim's data", {atkA(), victimAddr(), atkB()}, {1},
                 {128}));
  add(contained1("launder_intarith_write", "launder", "launder",
                 "rebuild the victim pointer as (address of A) ^ key",
                 {atkA(), victimXor(0), u32(P)}, {1}, {128}));
  add(contained1("launder_intarith_read", "launder", "launder",
                 "the same, loading the victim's data", {atkA(), victimXor(0), atkB()}, {1},
                 {128}));
  add(contained1("launder_select_write", "launder", "launder",
                 "select between an own buffer and the victim pointer per thread",
                 {atkA(), victimAddr(), u32(1), u32(P)}, {1}, {128}));
  add(contained1("launder_phi_write", "launder", "launder",
                 "a loop phi that ends on the victim pointer",
                 {atkA(), victimAddr(), u32(5), u32(P)}, {1}, {64}));
  add(contained1("launder_shared_slot", "launder", "launder",
                 "the victim pointer passed through a __shared__ slot", {victimAddr(), u32(P)},
                 {1}, {128}));
  add(contained1("launder_local_slot", "launder", "launder",
                 "the victim pointer passed through a local (stack) array",
                 {victimAddr(), u32(2), u32(P)}));

  // --- generic: pointers mixing state spaces -----------------------------------------------
  add(contained1("generic_mix_write", "generic", "generic",
                 "one generic pointer per thread into shared, local or global, indexed 2^24 out",
                 {atkA(), atkB(), u32(1u << 24), u32(P)}, {1}, {96}));
  add(contained1("generic_mix_read", "generic", "generic",
                 "the same, reading", {atkA(), atkB(), u32(1u << 24)}, {1}, {96}));
  add(contained1("generic_shared_escape", "generic", "generic",
                 "a shared pointer stored to global memory and reloaded, indexed 2^22 out "
                 "(run-time space test keeps it in the shared window)",
                 {atkA(), atkB(), u32(1u << 22), u32(P)}, {2}, {64}));
  add(contained1("generic_local_escape", "generic", "generic",
                 "a local pointer stored to global memory and reloaded, indexed 2^20 out",
                 {atkA(), atkB(), u32(1u << 20), u32(P)}))
      .note = "the laundered stack pointer is redirected into the arena: safe, but the tenant "
              "reads its own arena instead of its stack (docs/security-model.md)";
  add(contained1("generic_shared_offset", "generic", "generic",
                 "generic address of a shared array + 1 MiB", {atkB(), u64(1ull << 20), u32(P)}));

  // --- misaligned ---------------------------------------------------------------------------
  add(contained1("misaligned_u32_write", "misaligned", "misaligned",
                 "u32 stores at odd addresses (p + 1 + 8 t)", {atkA(), u32(1), u32(P)}));
  add(contained1("misaligned_u32_read", "misaligned", "misaligned",
                 "u32 loads at p + 3 + 8 t", {atkA(), atkB(), u32(3)}));
  add(contained1("misaligned_float4_read", "misaligned", "misaligned",
                 "float4 loads at p + 4 + 32 t (16-byte vector, 4-byte aligned)",
                 {atkA(), atkB(), u32(4)}));
  add(contained1("misaligned_float4_write", "misaligned", "misaligned",
                 "float4 stores at p + 8 + 32 t", {atkA(), u32(8), f32(1.5f)}));
  add(contained1("misaligned_u64_victim", "misaligned", "misaligned",
                 "u64 stores at victim + 1 + 16 t", {victimAddr(), u64(kPoison64)}));
  add(contained1("misaligned_shared_u64", "misaligned", "misaligned",
                 "u64 stores into shared memory at byte offset 3 + 8 t", {u32(3), atkB()}));
  add(contained1("misaligned_local_double", "misaligned", "misaligned",
                 "a double stored into a stack array at byte offset 5", {u32(5), atkB()}));

  // --- atomics ------------------------------------------------------------------------------
  add(contained1("atomic_add_foreign", "atomics", "atomics", "atomicAdd on the victim's words",
                 {victimAddr(), u32(1), atkB()}, {1}, {256}));
  add(contained1("atomic_cas_foreign", "atomics", "atomics",
                 "atomicCAS on the victim's words, expecting their real values",
                 {victimAddr(), u32(secretWord(0)), u32(P), atkB()}, {1}, {256}));
  add(contained1("atomic_exch_foreign", "atomics", "atomics", "atomicExch on the victim's words",
                 {victimAddr(), u32(P), atkB()}, {1}, {256}));
  add(contained1("atomic_add_block_foreign", "atomics", "atomics",
                 "atomicAdd_block (.cta scope) on the victim's words",
                 {victimAddr(), u32(1), atkB()}, {1}, {256}));
  add(contained1("atomic_add_system_foreign", "atomics", "atomics",
                 "atomicAdd_system (.sys scope) on the victim's words",
                 {victimAddr(), u32(1), atkB()}, {1}, {256}));
  add(contained1("atomic_cas_system_u64_foreign", "atomics", "atomics",
                 "64-bit atomicCAS_system on the victim's words",
                 {victimAddr(), u64(kPoison64), atkB()}, {1}, {128}));
  add(contained1("atomic_or_u64_foreign", "atomics", "atomics", "64-bit atomicOr on the victim",
                 {victimAddr(), u64(kPoison64), atkB()}, {1}, {128}));
  add(contained1("atomic_max_foreign", "atomics", "atomics", "atomicMax(0xffffffff) on the victim",
                 {victimAddr(), atkB()}, {1}, {256}));
  add(contained1("atomic_float_add_foreign", "atomics", "atomics",
                 "float atomicAdd on the victim's words", {victimAddr(), f32(1.0f), atkB()},
                 {1}, {256}));
  add(contained1("atomic_inc_foreign", "atomics", "atomics", "atomicInc on the victim's words",
                 {victimAddr(), atkB()}, {1}, {256}));
  add(contained1("atomic_misaligned", "atomics", "atomics",
                 "atomicAdd on a u32 at p + 2 + 8 t (misaligned)", {atkA(), u32(2), atkB()}));
  add(contained1("atomic_misaligned_u64", "atomics", "atomics",
                 "64-bit atomicAdd at victim + 4 + 16 t (misaligned and foreign)",
                 {victimAddr(), atkB()}));
  add(contained1("atomic_shared_oob", "atomics", "atomics",
                 "shared atomicAdd/atomicCAS 2^26 words past a 64-word array",
                 {u32(1u << 26), atkB()}));

  // --- memops: memcpy/memset/memmove ---------------------------------------------------------
  add(contained1("memset_huge", "memops", "memops", "memset 1 TiB from an own buffer",
                 {atkA(), u64(1ull << 40), u32(0xAB)}, {1}, {1}));
  add(contained1("memset_foreign", "memops", "memops", "memset 1 MiB at the victim's address",
                 {victimAddr(), u64(1ull << 20), u32(0xAB)}, {1}, {1}));
  add(contained1("memcpy_huge", "memops", "memops", "memcpy 1 TiB between own buffers",
                 {atkB(), atkA(), u64(1ull << 40)}, {1}, {1}));
  add(contained1("memcpy_foreign_dst", "memops", "memops",
                 "memcpy 64 KiB to the victim's address", {victimAddr(), atkA(), u64(65536)},
                 {1}, {1}));
  add(contained1("memcpy_foreign_src", "memops", "memops",
                 "memcpy 64 KiB from the victim's address into the attacker's output",
                 {atkB(), victimAddr(), u64(65536)}, {1}, {1}));
  add(contained1("memmove_huge", "memops", "memops", "memmove 8 GiB (overlapping, +4 KiB)",
                 {atkA(), u64(4096), u64(1ull << 33)}, {1}, {1}));
  add(contained1("memset_shared_huge", "memops", "memops",
                 "memset 1 MiB into a 256-byte shared array", {u64(1ull << 20), u32(0x5A), atkB()}));
  add(contained1("memcpy_to_shared_huge", "memops", "memops",
                 "memcpy 1 MiB into a 256-byte shared array", {atkA(), u64(1ull << 20), atkB()}));
  add(contained1("memset_local_huge", "memops", "memops",
                 "memset 1 MiB into a 64-byte stack array", {u64(1ull << 20), u32(0x77), atkB()}));
  add(contained1("memcpy_const_huge", "memops", "memops",
                 "memcpy with a constant 8 MiB length (longer than the arena)", {atkB(), atkA()},
                 {1}, {1}));
  add(contained1("memset_const_shared", "memops", "memops",
                 "memset with a constant 64 KiB length into a 256-byte shared array",
                 {u32(0x33), atkB()}));

  // --- shared memory --------------------------------------------------------------------------
  add(contained1("shared_static_oob_write", "shared", "shared",
                 "store 2^20 words past a 64-word static shared array",
                 {u32(1u << 20), u32(P), atkB()}));
  add(contained1("shared_static_oob_read", "shared", "shared",
                 "load 2^20 words past a static shared array", {u32(1u << 20), atkB()}));
  add(contained1("shared_negative", "shared", "shared", "store/load 100000 words before it",
                 {i32(-100000), u32(P), atkB()}));
  add(contained1("shared_dynamic_oob_write", "shared", "shared",
                 "store 2^20 words past 1 KiB of dynamic shared memory",
                 {u32(1u << 20), u32(P), atkB()}, {1}, {64}, 1024));
  add(contained1("shared_dynamic_oob_read", "shared", "shared",
                 "load 2^20 words past 1 KiB of dynamic shared memory", {u32(1u << 20), atkB()},
                 {1}, {64}, 1024));
  add(contained("shared_dynamic_none", "shared", "shared",
                "use extern __shared__ memory launched with 0 dynamic bytes",
                {L("shared_dynamic_oob_write", {u32(0), u32(P), atkB()}, {1}, {64}, 0)}));
  add(contained("shared_window_edge_max", "shared", "shared",
                "u64 stores across the end of 220 KiB of dynamic shared memory (opt-in size)",
                {L("shared_window_edge", {u32(225280 / 8 - 16), atkB()}, {1}, {64}, 225280)}));
  add(contained("shared_window_edge_far", "shared", "shared",
                "u64 stores 2^28 entries into 32 KiB of dynamic shared memory",
                {L("shared_window_edge", {u32(1u << 28), atkB()}, {2}, {64}, 32768)}));

  // --- local (stack) arrays --------------------------------------------------------------------
  add(contained1("local_oob_write", "local", "local", "store 2^20 words past a 16-word stack array",
                 {u32(1u << 20), u32(P), atkB()}));
  add(contained1("local_oob_read", "local", "local", "load 100000 words past a stack array",
                 {u32(100000), atkB()}));
  add(contained1("local_negative", "local", "local", "store 4096 words before a stack array",
                 {i32(-4096), u32(P), atkB()}));
  add(contained1("local_2d_oob", "local", "local", "m[3][1000] on an 8x8 stack matrix",
                 {u32(3), u32(1000), u32(P), atkB()}));

  // --- constant and parameter space --------------------------------------------------------------
  {
    Attack &a = add(contained1("constant_overread", "constparam", "constparam",
                               "read a 16-entry __constant__ table at index 2^14 + t",
                               {u32(1u << 14), atkB()}));
    a.checks.push_back(wordEquals(0, 16));
    a.checks.back().informational = true;
    a.note = "clamped to the table's last entry (16)";
  }
  add(contained1("constant_negative", "constparam", "constparam",
                 "read a __constant__ table at index -1000 + t", {i32(-1000), atkB()}));
  add(contained1("device_table_overread", "constparam", "constparam",
                 "overread a read-only __device__ table (promoted to constant memory)",
                 {u32(5000), atkB()}));
  add(contained1("string_overread", "constparam", "constparam",
                 "read a string literal at index 2^32", {u64(1ull << 32), atkB()}));
  add(contained1("byval_overread", "constparam", "constparam",
                 "read a 16-byte byval struct parameter at word 1000 + t",
                 {byval(Small{{1, 2, 3, 4}}), u32(1000), atkB()}));
  add(contained1("byval_write_oob", "constparam", "constparam",
                 "write a byval struct parameter at word 1000",
                 {byval(Small{{1, 2, 3, 4}}), u32(1000), u32(P), atkB()}));

  // --- __ldg, volatile, cp.async ---------------------------------------------------------------
  add(contained1("ldg_foreign", "cache", "cachevol", "__ldg (ld.global.nc) of the victim's words",
                 {victimAddr(), atkB()}, {1}, {256}));
  add(contained1("ldg_float4_foreign", "cache", "cachevol", "__ldg of float4s at the victim",
                 {victimAddr(), atkB()}));
  add(contained1("ldg_oob", "cache", "cachevol", "__ldg 256 GiB past a buffer",
                 {atkA(), u64(1ull << 36), atkB()}));
  add(contained1("volatile_foreign_write", "cache", "cachevol",
                 "volatile stores to the victim's words", {victimAddr(), u32(P)}, {1}, {256}));
  add(contained1("volatile_foreign_read", "cache", "cachevol",
                 "volatile loads of the victim's words", {victimAddr(), atkB()}, {1}, {256}));
  add(contained1("cp_async_ca_foreign", "cache", "cp_async",
                 "cp.async.ca 16-byte copies from the victim into shared memory (IR)",
                 {victimAddr(), atkB()}));
  add(contained1("cp_async_cg_foreign", "cache", "cp_async",
                 "cp.async.cg copies from the victim (IR)", {victimAddr(), atkB()}));
  add(contained1("cp_async_shared_oob", "cache", "cp_async",
                 "cp.async into shared memory 16 MiB past the tile (IR)",
                 {atkA(), u64(1ull << 24), atkB()}));
  add(contained1("cp_async_misaligned", "cache", "cp_async",
                 "cp.async from victim + 4 to tile + 8 (both misaligned for 16 bytes) (IR)",
                 {victimAddr(), atkB()}));

  // --- inline assembly -----------------------------------------------------------------------
  {
    Attack &a = add(contained1("asm_register_only", "asm", "asm_ok",
                               "allow-listed asm (libdevice's mad.lo.cc/madc block, mov %smid): allowed",
                               {atkB(), u32(7)}));
    a.checks.push_back(wordEquals(5, 7 * 3 + 5)); // out[t] = x * 3 + t
  }
  add(refused("asm_ld_global", "asm", "refuse_asm_ld_global", "ld.global in inline asm",
              "is not on the inline-asm allow-list"));
  add(refused("asm_st_global", "asm", "refuse_asm_st_global", "st.global in inline asm",
              "is not on the inline-asm allow-list"));
  add(refused("asm_hidden_store", "asm", "refuse_asm_hidden_store",
              "a guarded st.u32 after register-only statements in one asm string",
              "is not on the inline-asm allow-list"));
  add(refused("asm_brace_smuggle", "asm", "refuse_asm_brace_smuggle",
              "ld.global between two register scopes on one line ('}{')",
              "is not on the inline-asm allow-list"));
  add(refused("asm_memory_operand", "asm", "refuse_asm_memory_operand",
              "inline asm with an \"=*m\" memory operand (IR)", "is not on the inline-asm allow-list"));
  add(refused("asm_cvta", "asm", "refuse_asm_cvta", "cvta.to.global in inline asm",
              "is not on the inline-asm allow-list"));
  add(refused("asm_trap", "asm", "refuse_asm_trap", "trap in inline asm",
              "is not on the inline-asm allow-list"));
  add(refused("asm_brkpt", "asm", "refuse_asm_brkpt", "brkpt in inline asm",
              "is not on the inline-asm allow-list"));

  add(refused("asm_reg_range", "asm", "refuse_asm_reg_range",
              "a '%rd<8>' register range in the asm's scope that names the compiler's %rd1",
              "\"{ .reg .b64 %rd<8>; mov.u64 %rd1, $0; }\" (constraints \"l\", type void (i64)) "
              "is not on the inline-asm allow-list"));
  add(refused("asm_write_input", "asm", "refuse_asm_write_input",
              "asm that writes its input operand (a register the compiler may reuse)",
              "\"add.u64 $1, $1, $2; mov.u64 $0, $1;\" (constraints \"=l,l,l\", type i64 (ptr, i64)) "
              "is not on the inline-asm allow-list"));

  // --- reserved names and tenant facts -------------------------------------------------------
  add(refused("reserved_smem_pad", "names", "refuse_reserved_smem_pad",
              "a 1-byte __shared__ array named __atoll_smem_pad (the pass's shared pad)",
              "refused global '__atoll_smem_pad': the name is reserved"));
  {
    Attack &a = add(contained1("facts_fold_clamp", "facts", "facts",
                               "range/noundef/align on the victim-address parameter, llvm.assume "
                               "(in range, align, dereferenceable) and range [0, 16) on a stack "
                               "index of 2^20 (IR)",
                               {victimAddr(), atkB(), u32(1u << 20)}));
    a.note = "every fact is stripped before -O2; object clamps are opaque to the compiler";
  }

  // --- faults: traps, asserts, UB --------------------------------------------------------------
  add(refused("trap_on_value", "fault", "refuse_trap", "__trap() on a tenant-chosen value",
              "trap: a trap faults the shared CUDA context"));
  add(refused("builtin_trap", "fault", "refuse_builtin_trap", "__builtin_trap()",
              "trap: a trap faults the shared CUDA context"));
  add(refused("assert_fails", "fault", "refuse_assert", "assert() (calls __assertfail)",
              "assert: __assertfail traps"));
  add(contained1("unreachable_path", "fault", "asm_ok",
                 "__builtin_unreachable() on the path the tenant takes (x == 42)",
                 {u32(42), atkB()}))
      .note = "`unreachable` becomes an early return instead of a PTX trap";
  add(contained1("int_div_zero", "fault", "asm_ok", "integer division and remainder by zero",
                 {u32(10), u32(0), atkB()}));
  add(refused("nonvoid_kernel", "fault", "refuse_nonvoid_kernel",
              "a kernel that returns a value (IR)", "kernel does not return void"));
  add(refused("prehardened", "fault", "refuse_prehardened",
              "a module that claims the atoll-hardened attribute already (IR)",
              "kernel is already hardened"));

  // --- calls -------------------------------------------------------------------------------------
  add(refused("indirect_call", "calls", "refuse_indirect_call",
              "call through a table of function pointers", "indirect call"));
  add(refused("recursion", "calls", "refuse_recursion", "recursive fib()", "recursion through"));
  // What is checked must be what is emitted (issue 13, classes 4 and 5).
  add(refused("emitted_const_fn_table", "calls", "refuse_emitted_const_fn_table",
              "unhardened device function kept alive only by a constant table (IR)",
              "is used in a constant expression"));
  add(refused("emitted_internal_kernel", "calls", "refuse_emitted_internal_kernel",
              "kernel that -O2 deletes (internal linkage) next to a kept one (IR)",
              "does not have external linkage"));
  add(refused("emitted_cluster_entry", "calls", "refuse_emitted_cluster_entry",
              "kernel whose attributes put cluster directives into the PTX (IR)",
              "refused by the PTX validator"));
  add(refused("device_malloc", "calls", "refuse_malloc", "device-side malloc/free",
              "device heap allocation (malloc/free) is not supported"));
  add(refused("device_printf", "calls", "refuse_printf", "device-side printf",
              "printf is not supported"));
  add(refused("dynamic_alloca", "calls", "refuse_dynamic_alloca",
              "alloca with a run-time size", "dynamic stack allocation"));

  // --- module globals -------------------------------------------------------------------------
  add(refused("device_global_atomic", "globals", "refuse_device_global_atomic",
              "atomicAdd on a writable __device__ counter (a cross-tenant channel)",
              "writable module-scope storage"));
  add(refused("device_global_store", "globals", "refuse_device_global_store",
              "store into a writable __device__ array", "writable module-scope storage"));
  add(refused("device_global_via_table", "globals", "refuse_device_global_table",
              "write a __device__ global reached through a pointer table",
              "writable module-scope storage"));
  {
    Attack &a = add(refused("constant_write", "globals", "refuse_constant_write",
                            "store into a __constant__ table through a generic pointer (IR, -O0)",
                            "write to read-only constant memory"));
    a.optLevel = 0;
  }
  add(contained("constant_write_o2", "globals", "refuse_constant_write",
                "the same store at -O2",
                {L("constant_write", {u32(3), u32(P), atkB()}, {1}, {1})}))
      .note = "at -O2 LLVM deletes a store to constant memory as undefined behaviour";

  // --- state spaces the hardening cannot bound ---------------------------------------------------
  add(refused("forge_local_as", "space", "refuse_forge_local",
              "a local-space pointer forged from an integer (IR)",
              "local memory whose object cannot be determined"));
  add(refused("forge_const_as", "space", "refuse_forge_const",
              "a constant-space pointer forged from an integer (IR)",
              "constant memory whose object cannot be determined"));
  // Issue 13, class 9: contained (the two arrays become one frame object).
  add(contained1("local_two_objects", "space", "local_phi_objects",
                 "a stack pointer that may point into either of two arrays, written and read "
                 "2^31 words out of range",
                 {u32(1), u32(0x7fffffffu), u32(P), atkB()}));
  add(contained("local_two_objects_b", "space", "local_phi_objects",
                "the same through the other array, at index 0xffffffff",
                {L("local_two_objects", {u32(0), u32(0xffffffffu), u32(P), atkB()})}));
  add(refused("atomic_local", "space", "refuse_atomic_local", "atomicAdd on a stack array",
              "atomic on local memory"));
  add(refused("forge_cluster_as", "space", "refuse_forge_cluster_as",
              "a pointer forged in address space 7 (shared::cluster) (IR)",
              "access through address space 7"));

  // --- sync: synchronisation primitives with hostile operands (issue 13, class 6) ---------------
  // Unhardened, each of these faults the context on the H200 (sync_probe_h200.txt).
  add(contained1("sync_bar_id", "sync", "sync",
                 "barrier.sync / bar.sync with run-time ids 0xffffffff and 0 (+1): every barrier "
                 "becomes the whole-CTA barrier 0",
                 {u32(0xffffffffu), atkB()}, {4}, {256}));
  add(contained1("sync_bar_mismatch", "sync", "sync",
                 "warp 0 at barrier 1, the other warps at barrier 0 (found by review: unhardened "
                 "the block waits forever, beyond any cancel)",
                 {u32(1), atkB()}, {4}, {256}));
  add(contained1("sync_bar_split", "sync", "sync",
                 "the halves of every warp at two different __syncthreads (.aligned needs the "
                 "whole warp at one instruction; found by review)",
                 {atkB()}, {4}, {256}));
  add(refused("bar_red", "sync", "refuse_bar_red",
              "__syncthreads_count mixed with __syncthreads on one barrier (found by review)",
              "barrier reductions"));
  add(contained("sync_bar_id_16", "sync", "sync", "barrier.sync with run-time id 16 (and 17)",
                {L("sync_bar_id", {u32(16), atkB()}, {4}, {256})}));
  add(contained1("sync_warp_masks", "sync", "sync",
                 "shfl/vote/match/redux/bar.warp.sync with member masks that exclude the "
                 "executing lane (all ^ 1 << lane) or name no lane (0): each mask is confined to "
                 "mask | lanemask_eq",
                 {u32(0xffffffffu), u32(0), atkB()}, {2}, {128}));
  add(contained("sync_warp_masks_partial", "sync", "sync",
                "the same in a 48-thread CTA (the second warp is partial)",
                {L("sync_warp_masks", {u32(0xffffffffu), u32(0), atkB()}, {2}, {48})}));
  // Found by review (R3-F1): lanes that never meet in a warp primitive. Unhardened
  // each hangs its warp inside the instruction, beyond any cancel; confined to the
  // active lanes, each must end by itself (the harness's timeout would report a hang).
  add(contained1("warp_hang_pc", "sync", "sync",
                 "full-mask shuffles at two different instructions (odd/even lanes)",
                 {u32(0xffffffffu), atkB()}, {1056}, {256}));
  add(contained1("warp_hang_mask", "sync", "sync",
                 "per-lane member masks that disagree (self and the next lane)",
                 {u32(1), atkB()}, {1056}, {256}));
  add(contained1("warp_hang_mixed", "sync", "sync",
                 "half the warp at __syncwarp, half at __shfl_sync, full masks",
                 {u32(0xffffffffu), atkB()}, {1056}, {256}));
  add(contained1("warp_hang_bar", "sync", "sync",
                 "half the warp at __syncthreads, half at a full-mask __syncwarp",
                 {u32(0xffffffffu), atkB()}, {1056}, {256}));
  add(contained1("sync_sleep", "sync", "sync",
                 "nanosleep(0xffffffff) (at most 1 ms by the ISA)", {u32(0xffffffffu), atkB()}));
  add(refused("cluster_sreg", "sync", "refuse_cluster_sreg",
              "the cluster special registers of a launch without a cluster",
              "cluster special register"));
  add(refused("bar_count", "sync", "refuse_bar_count",
              "barrier.sync with a run-time thread count (33 faults, 1056 hangs)",
              "a barrier with an explicit thread count is not supported"));
  add(refused("bar_id_const", "sync", "refuse_bar_id_const", "barrier.sync 16 (a constant id)",
              "barrier id 16 is out of range"));
  add(refused("cluster_barrier", "sync", "refuse_sync_cluster",
              "barrier.cluster.arrive/wait without a cluster launch (IR)", "cluster primitive"));
  add(refused("griddep", "sync", "refuse_griddepcontrol",
              "griddepcontrol.wait / launch_dependents (IR)", "griddepcontrol"));
  add(refused("shfl_nosync", "sync", "refuse_shfl_nosync", "shfl.idx without .sync (IR)",
              "warp primitive without a member mask"));

  // --- param: writes into kernel parameter space (issue 13, class 7) --------------------------
  add(refused("grid_constant_write", "param", "refuse_grid_constant_write",
              "a write to a __grid_constant__ parameter through a cast-away-const pointer",
              "write to a grid_constant kernel parameter"));
  {
    // At -O0: -O2 folds the cast away (a plain byval write, given a local copy).
    Attack &a = add(refused("param_space_store", "param", "refuse_param_space_store",
                            "a store through an addrspace(101) pointer to a byval parameter (IR)",
                            "write through a param-space (addrspace 101) pointer"));
    a.optLevel = 0;
  }

  // --- features not supported yet -------------------------------------------------------------
  add(refused("dsm_mapa", "unsupported", "refuse_mapa",
              "distributed shared memory: mapa into another CTA (IR)", "is not supported yet"));
  add(refused("mbarrier_init", "unsupported", "refuse_mbarrier", "mbarrier in shared memory (IR)",
              "is not supported yet"));
  add(refused("texture_query", "unsupported", "refuse_texture", "texture query (IR)",
              "texture/surface access is not supported"));
  add(refused("masked_gather", "unsupported", "refuse_gather",
              "masked gather through a vector of forged pointers (IR)", "gather/scatter"));
  add(refused("huge_access", "unsupported", "refuse_huge_access",
              "one 8 KiB vector load/store (IR)", "is too large"));

  // --- loops ------------------------------------------------------------------------------------
  add(contained1("grid_stride_runoff", "loops", "loops",
                 "grid-stride store loop over 2^24 words (16x the arena)",
                 {atkA(), u64(1ull << 24), u32(P)}, {66}, {256}));
  add(contained1("grid_stride_runoff_read", "loops", "loops",
                 "grid-stride load loop over 2^24 words", {atkA(), u64(1ull << 24), atkB()},
                 {66}, {256}));
  add(contained1("index32_overflow_signed", "loops", "loops",
                 "i32 index (gtid * 0x9e3779b1) wraps negative, then sign-extends",
                 {atkA(), u32(0x9E3779B1u), u32(P)}, {16}, {256}));
  add(contained1("index32_overflow_unsigned", "loops", "loops",
                 "u32 index (gtid * 0x01000193) wraps (up to 16 GiB past p)",
                 {atkA(), u32(0x01000193u), u32(P)}, {16}, {256}));

  // --- timeouts -----------------------------------------------------------------------------------
  {
    Attack &a = add(contained("spin_timeout", "timeout", "timeout",
                              "spin 3 s on %globaltimer; the pipeline's timeout is 500 ms",
                              {L("spin_bounded", {u64(3000000000ull), atkB()}, {1}, {32})}));
    a.timeoutMs = 500;
    a.note = "synchronize() must return Timeout after ~500 ms, which cancels the kernel: the "
             "pipeline is not wedged afterwards and the victim stays healthy";
  }
  // Never-ending kernels (issue 15): the timeout cancels them through the preemption
  // checks; each must end with Timeout, the pipeline not wedged, next to a working victim.
  auto neverEnds = [&](const char *name, const char *kernel, const char *what,
                       std::vector<ArgSpec> args, Atoll::Dim3 grid, Atoll::Dim3 block) {
    Attack &a = add(contained(name, "timeout", "timeout", what,
                              {L(kernel, std::move(args), grid, block)}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "(the pipeline is not wedged) with the victim intact";
  };
  neverEnds("spin_forever", "spin_forever", "a kernel that never ends (waits on a flag nobody sets)",
            {atkB()}, {1}, {32});
  neverEnds("spin_register", "spin_register", "spins on registers only (no memory access)",
            {atkB(), u32(1)}, {1}, {32});
  neverEnds("spin_nested", "spin_nested",
            "nested loops: a 100k-iteration register loop inside a spin on memory",
            {atkB(), atkA()}, {1}, {32});
  neverEnds("spin_sleep", "spin_sleep", "waits on a flag with 1 ms nanosleeps", {atkB()}, {1},
            {32});
  // R10-F4: the sleep's poll split the loop's only block after the pass took it as the
  // latch: the back-edge check (fuel) had no predecessors, and with the counter's phi
  // atoll-mem crashed. Fuel must end it.
  {
    Attack &a = add(contained("sleep_latch_fuel", "timeout", "timeout",
                              "R10-F4: a spin with a nanosleep and a counter in its one block, "
                              "launched with fuel 1000: fuel must end it",
                              {L("sleep_latch_fuel", {atkB(), atkB(256)}, {1}, {32})}));
    a.fuel = 1000;
    a.runLimitMs = 2000;
    a.showTime = true;
    a.note = "synchronize() returns FuelExhausted within a few ms; before the fix atoll-mem "
             "crashed on it (its latch's back-edge check had no predecessors)";
  }
  neverEnds("straight_sleep", "straight_sleep",
            "R3-F5: no loop, 600 straight-line 1 ms nanosleeps (a poll precedes each)",
            {atkB()}, {1}, {32});
  // R3-F5 part 2: loop-free, 1024 dependent loads per thread (chains that never meet,
  // over the whole 4 MiB table), 2^24 blocks of 512 threads (seconds in all; with 32
  // threads the H200 ran the grid in 188 ms, too short to show anything): the
  // straight-line polls end every chain within 256 accesses of the cancel, so the rest
  // of the grid drains within the cancel deadline (about a quarter of what is left).
  // straight_chase_natural runs the same grid uncancelled: its time is what the grid
  // takes without the polls (4 volatile loads per thread more), which must be well
  // over timeout + cancelDeadline (1.5 s) for straight_chase to prove the polls.
  {
    Attack &a = add(contained("straight_chase", "timeout", "straight_chase",
                              "R3-F5: no loop, 1024 dependent global loads per thread, 2^24 "
                              "blocks x 512 threads (a poll at least every 256 accesses)",
                              {L("straight_chase", {atkA(), atkB()}, {1u << 24}, {512})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "(the pipeline is not wedged) with the victim intact";
    Attack &n = add(contained("straight_chase_natural", "timeout", "straight_chase",
                              "straight_chase's grid uncancelled: how long it runs without "
                              "a cancel (= without the polls)",
                              {L("straight_chase", {atkA(), atkB()}, {1u << 24}, {512})}));
    n.showTime = true;
    // Its own pipeline with a long timeout: with modulo clamping the grid runs past the
    // suite's 10 s pipeline timeout (session 7 on the H200; 2.4 s with mask).
    n.runLimitMs = 55000; // RuntimeOptions::maxTimeout is 60 s
    n.minRunMs = 1500;
    n.note = "ends on its own; it must run at least 1500 ms (timeout 500 + cancelDeadline "
             "1000), or straight_chase would pass without its polls";
  }
  // R7-F7, R7-F1 (found by review): work before the first poll that a block which
  // starts after a cancel still did: a loop's whole first iteration (192 dependent
  // loads), the zeroing of a 227 KiB shared window by one thread (14,528 stores).
  // Blocks that start after the cancel now leave within the entry budget.
  {
    Attack &a = add(contained("loop_chase", "timeout", "drain_review7",
                              "R7-F7: 192 dependent loads per iteration of a loop that never "
                              "ends, 2^24 blocks x 512 threads",
                              {L("loop_chase", {atkA(), atkB(), u32(0x9e3779b9u)}, {1u << 24},
                                 {512})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; the blocks "
             "that start after it leave at their entry check, so the grid ends within the "
             "cancel deadline with the victim intact";
    Attack &z = add(contained("zero_drain", "timeout", "drain_review7",
                              "R7-F1: one thread per block zeroes a 200 KiB dynamic shared "
                              "window, 2^24 blocks",
                              {L("zero_drain", {atkB()}, {1u << 24}, {1}, 204800)}));
    z.timeoutMs = 500;
    z.neverEnds = true;
    z.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; blocks that "
             "start after it vote and leave before zeroing, so the grid ends within the cancel "
             "deadline";
  }
  // R8-F3 (found by review): a charged loop of 63 iterations (under the first poll
  // interval, so its charge never polled) of 55 dependent loads ran whole in every
  // block that started after the cancel. 2^22 blocks x 512 threads: seconds
  // uncancelled (charged_chase_natural); a charge that can pass half the entry budget
  // now branches on the entry read first, so those blocks leave before the loop.
  {
    Attack &a = add(contained("charged_chase", "timeout", "drain_review8",
                              "R8-F3: a charged loop (63 x 55 dependent loads, no poll inside), "
                              "2^22 blocks x 512 threads",
                              {L("charged_chase", {atkA(), atkB()}, {1u << 22}, {512})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; the blocks "
             "that start after it leave at the entry check before the charged loop, so the "
             "grid ends within the cancel deadline with the victim intact";
    Attack &n = add(contained("charged_chase_natural", "timeout", "drain_review8",
                              "charged_chase's grid uncancelled: how long it runs without a "
                              "cancel (= without the entry check)",
                              {L("charged_chase", {atkA(), atkB()}, {1u << 22}, {512})}));
    n.showTime = true;
    n.runLimitMs = 55000; // RuntimeOptions::maxTimeout is 60 s
    n.minRunMs = 1500;
    n.note = "ends on its own; it must run at least 1500 ms (timeout 500 + cancelDeadline "
             "1000), or charged_chase would pass without its entry check";
  }
  neverEnds("spin_barrier", "spin_barrier",
            "every thread meets at __syncthreads() in each spin iteration", {atkB()}, {4},
            {256});
  neverEnds("spin_irreducible", "spin_irreducible", "an irreducible cycle (two entries, goto)",
            {atkA(), u32(3)}, {1}, {32});
  neverEnds("spin_grid_filling", "spin_forever",
            "fills every SM: 1056 blocks x 256 threads spinning on a flag", {atkB()}, {1056},
            {256});
  neverEnds("spin_register_grid_filling", "spin_register",
            "fills every SM with register spins", {atkA(), u32(1)}, {1056}, {256});
  // R2-F2: a run-time-length memset (cut to the arena window, up to 4 GiB) was a
  // codegen byte loop without a check; it is now an IR loop with one.
  auto neverEndsIn = [&](const char *name, const char *module, const char *kernel,
                         const char *what, std::vector<ArgSpec> args) {
    Attack &a = add(contained(name, "timeout", module, what,
                              {L(kernel, std::move(args), {1056}, {256})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "(the pipeline is not wedged) with the victim intact";
  };
  // R5-F1: a charged loop of 4000 x 160 same-address atomics inside a spin, every SM
  // full: charged, a poll came every 640,000 contended atomics (seconds).
  {
    Attack &a = add(contained("charged_atomics", "timeout", "charged_atomics",
                              "R5-F1: a wait around a 4000-iteration loop of 160 same-address "
                              "atomics, 1056 x 256 threads (the loop must not be charged)",
                              {L("charged_atomics", {atkA(), atkB()}, {1056}, {256})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "(the pipeline is not wedged) with the victim intact";
  }
  // R7-F2: atomics that ptxas makes a compare-and-swap retry loop of (scalar half add,
  // shared float add) had no poll inside; atoll-mem now expands them into checked IR
  // loops. f16_storm is loop-free (one half add per thread on one global word, 2^16
  // blocks x 1024 threads): before, no poll at all and ~N^2 attempts for N
  // contenders; now each thread's CAS loop polls every 64 failed attempts.
  {
    Attack &a = add(contained("f16_storm", "timeout", "atomic_storms",
                              "R7-F2: no loop, one atomicAdd(__half) per thread on one global "
                              "word, 2^16 blocks x 1024 threads (a CAS loop in SASS)",
                              {L("f16_storm", {atkA()}, {1u << 16}, {1024})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "within the cancel deadline (each CAS loop polls) with the victim intact";
    a.xfail = "the H200 ran this grid to the end within 500 ms (2^26 contended half adds), so "
              "it proves nothing; at the 2^24-block cap the drain is bounded by one word's "
              "atomic throughput (each late thread still does one attempt), not by polls: open";
  }
  // shared_f32_storm: a wait around a 4096-iteration loop of one shared float add,
  // 2 blocks x 1024 threads per SM: charged once, it ran 4096 contended shared CAS
  // loops per thread between two polls.
  {
    Attack &a = add(contained("shared_f32_storm", "timeout", "atomic_storms",
                              "R7-F2: a wait around a 4096-iteration loop of one atomicAdd(float) "
                              "on one __shared__ word, 264 blocks x 1024 threads",
                              {L("shared_f32_storm", {atkB(), atkA()}, {264}, {1024})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "within the cancel deadline (every CAS loop polls) with the victim intact";
  }
  // R6-F1: an instruction weighed one unit whatever it compiles to; a udiv <64 x i64>
  // is 64 division subroutines. Loop-free, 2^20 blocks x 256 threads ran ~8 s with no
  // poll; a wait around a 4096-iteration loop of 4 of them was charged at once.
  {
    Attack &a = add(contained("straight_vector_div", "timeout", "vector_div",
                              "R6-F1: no loop, 80 udiv <64 x i64> per thread (5120 i64 "
                              "divisions), 2^20 blocks x 256 threads (~8 s unpolled)",
                              {L("straight_vector_div", {atkA(), u64(12345)}, {1u << 20},
                                 {256})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "within the cancel deadline (polls every 256 divisions) with the victim intact";
  }
  neverEndsIn("charged_vector_div", "vector_div", "charged_vector_div",
              "R6-F1: a wait around a 4096-iteration loop of 4 udiv <64 x i64>, 1056 x 256 "
              "threads (the loop must not be charged)",
              {atkA(), u64(12345), atkB()});
  // R4-F1: willreturn made ScalarEvolution count i != n (step 2) as finite; for odd n
  // the unchecked copy never ended. willreturn is stripped now: the loop polls.
  {
    Attack &a = add(contained("willreturn_forever", "timeout", "willreturn_forever",
                              "R4-F1: a willreturn kernel, i += 2 until i == 7 (never): "
                              "must keep its poll",
                              {L("willreturn_forever", {atkA(), u32(7)}, {1}, {32})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; it must end "
             "(the pipeline is not wedged) with the victim intact";
  }
  // R9-F1 (found by review): a promise made as a branch to `unreachable` becomes an
  // llvm.assume in the toolchain's -O2 (after atoll-strip-facts), which the loop
  // counts believed: a copy without checks that an odd n never ends, a charge of 99
  // for 2^32 - 1 iterations. atoll-mem drops every assumption before it counts.
  {
    Attack &a = add(contained("spin_assume_even", "timeout", "assume_review9",
                              "R9-F1: `if (n & 1) unreachable; for (i = 0; i != n; i += 2)` "
                              "with n = 3 (the assume made the loop a copy without checks)",
                              {L("spin_assume_even", {atkB(), u32(3)}, {1}, {32})}));
    a.timeoutMs = 500;
    a.neverEnds = true;
    a.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel; before the "
             "fix nothing could stop it";
    Attack &b = add(contained("spin_assume_below", "timeout", "assume_review9",
                              "R9-F1: `if (n >= 100) unreachable; for (i = 0; i + 1 < n; i++)` "
                              "with n = 2^32 - 1 (charged 99 for 2^32 - 1 iterations)",
                              {L("spin_assume_below", {atkB(), u32(0xFFFFFFFFu)}, {1056},
                                 {256})}));
    b.timeoutMs = 500;
    b.neverEnds = true;
    b.note = "synchronize() returns Timeout after ~500 ms and cancels the kernel (2^32 "
             "register iterations per thread take minutes)";
  }
  neverEndsIn("spin_memset_runtime_length", "memset_forever", "memset_forever",
              "every thread memsets 2^64-1 bytes (cut to the arena window) byte by byte, "
              "1056 blocks x 256 threads",
              {atkB(), u64(~0ull)});
  neverEndsIn("spin_memmove_runtime_length", "memset_forever", "memmove_forever",
              "every thread memmoves 2^64-1 bytes (cut to the window) within the arena, "
              "1056 blocks x 256 threads",
              {atkB(), atkA(), u64(~0ull)});
  {
    // R2-F2: blocks that start after a cancel still run; the device allows
    // 2^31-1 x 65535 x 65535 of them. The runtime caps a launch at 2^24 blocks.
    Attack &a = add(contained("grid_over_block_cap", "launch", "memset_forever",
                              "a launch of 2^20 x 32 = 2^25 blocks (over the 2^24 cap)",
                              {L("empty_block", {atkB()}, {1u << 20, 32}, {32})}));
    a.launchRefusal = "RuntimeOptions::maxBlocksPerLaunch";
    a.note = "launch() must return InvalidLaunch naming the cap; nothing runs";
  }

  // --- residue ----------------------------------------------------------------------------------
  const Atoll::Dim3 wide{264}, threads{256};
  const uint64_t wideOut = 264ull * 256 * 4;
  {
    Attack &a = add(contained(
        "residue_shared", "residue", "residue",
        "the victim fills 46 KiB of static shared memory with secrets; the attacker's kernel "
        "reads its uninitialised static shared memory",
        {L("residue_writer_shared", {u32(0)}, wide, threads, 0, Role::Victim),
         L("residue_probe_shared", {atkB()}, wide, threads)}));
    a.checks.push_back(allZero(wideOut));
  }
  {
    Attack &a = add(contained(
        "residue_dynamic", "residue", "residue",
        "the same with 96 KiB of dynamic shared memory",
        {L("residue_writer_dynamic", {u32(7), u32(24576)}, wide, threads, 98304, Role::Victim),
         L("residue_probe_dynamic", {u32(24576), atkB()}, wide, threads, 98304)}));
    a.checks.push_back(allZero(wideOut));
  }
  {
    // Issue 13, class 8: an odd dynamic size leaves a 13-byte tail after the last
    // 16-byte block; the zero-init covers it byte by byte.
    Attack &a = add(contained(
        "residue_dynamic_odd", "residue", "residue",
        "the victim fills 4 KiB of dynamic shared memory with non-zero bytes; the attacker asks "
        "for 4093 bytes and reads every byte, the 13-byte tail included",
        {L("residue_writer_dynamic_bytes", {u32(4096)}, wide, threads, 4096, Role::Victim),
         L("residue_probe_dynamic_bytes", {u32(4093), atkB()}, wide, threads, 4093)}));
    a.checks.push_back(allZero(wideOut));
  }
  {
    Attack &a = add(contained(
        "residue_local", "residue", "residue",
        "the victim fills a 2 KiB stack array per thread with secrets; the attacker reads its "
        "uninitialised stack array",
        {L("residue_writer_local", {u32(3)}, wide, threads, 0, Role::Victim),
         L("residue_probe_local", {atkB()}, wide, threads)}));
    a.checks.push_back(allZero(wideOut));
  }
  {
    // Found by review (F2): codegen's stack temporary for a variable vector index.
    Attack &a = add(contained(
        "residue_vector_lane", "residue", "residue_vector",
        "the victim fills a 4 KiB stack array with secrets; the attacker reads lanes 1..1023 of "
        "a <1024 x i32> whose only defined lane is 0, at a variable index (IR)",
        {L("residue_vector_writer", {u32(9)}, wide, threads, 0, Role::Victim),
         L("residue_vector_probe", {atkB(), u32(0)}, wide, threads)}));
    a.checks.push_back(allZero(wideOut));
  }
  {
    const Atoll::Dim3 g{66};
    Attack &a = add(contained(
        "residue_arena", "residue", "residue",
        "a tenant fills its whole arena with secrets and is destroyed; a new pipeline (its "
        "arena recycled from the pool) reads its whole arena",
        {L("residue_fill_arena", {atkA(), arenaWords()}, g, threads, 0, Role::Previous),
         L("residue_probe_arena", {atkA(), arenaWords(), atkB()}, g, threads)}));
    a.freshPipeline = true;
    a.noInit = true;
    a.checks.push_back(allZero(66ull * 256 * 4));
  }
  return v;
}

} // namespace

const std::vector<Attack> &attacks() {
  static const std::vector<Attack> table = buildAttacks();
  return table;
}

} // namespace AtollAttacks
