// The per-instruction allow-list of the PTX validator (PtxValidator.h): which
// opcodes pass, and the forms spelled out for those with qualifiers (barriers,
// atomics, fences and warp primitives, loads and stores, async copies and matrix
// loads). Split from PtxValidator.cpp, which parses the module and calls
// checkInstruction for each statement.
#include "PtxText.h"
#include "PtxValidator.h"

#include <algorithm>
#include <array>
#include <map>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace Atoll::ptx {
namespace {

/// The allow-list: opcodes (the part before the first '.') that only compute on
/// registers or access memory through an address the passes confined. Everything
/// else is refused (deny by default); checkInstruction adds per-opcode rules.
const std::set<std::string_view> &allowedOpcodes() {
  static const std::set<std::string_view> S = {
      // integer and floating-point arithmetic
      "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min",
      "max", "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi", "szext", "bmsk", "dp4a",
      "dp2a", "addc", "subc", "madc", "testp", "copysign", "fma", "rcp", "sqrt", "rsqrt", "sin",
      "cos", "lg2", "ex2", "tanh",
      // comparison, selection, logic, shifts
      "set", "setp", "selp", "slct", "and", "or", "xor", "not", "cnot", "lop3", "shf", "shl",
      "shr",
      // data movement and conversion
      "mov", "prmt", "cvt", "cvta", "isspacep", "ld", "ldu", "st", "cp",
      // warp-wide matrix fragments: shared-memory row addresses confined by the
      // passes (ldmatrix/stmatrix), register-only (movmatrix, mma)
      "ldmatrix", "stmatrix", "movmatrix", "mma",
      // warp and block synchronisation, atomics, memory ordering
      // (forms: checkAtom, checkSyncForm; no 'red': the toolchain emits no reductions)
      "shfl", "vote", "match", "activemask", "redux", "bar", "barrier", "membar", "fence", "atom",
      "nanosleep",
      // control flow (direct branches only; exit and ret end the thread)
      "bra", "ret", "exit"};
  return S;
}

/// Why well-known dangerous opcodes are refused (a clearer message than "not on
/// the allow-list").
std::string_view deniedReason(std::string_view base) {
  static const std::array<std::pair<std::string_view, std::string_view>, 25> R = {{
      {"trap", "'trap' kills the shared CUDA context"},
      {"brkpt", "'brkpt' kills the shared CUDA context"},
      {"pmevent", "'pmevent' is not allowed"},
      {"call", "calls are not allowed (every device function is inlined into its kernel)"},
      {"brx", "indirect branches ('brx.idx') are not allowed"},
      {"tex", "texture instructions are not allowed"},
      {"tld4", "texture instructions are not allowed"},
      {"txq", "texture instructions are not allowed"},
      {"suld", "surface instructions are not allowed"},
      {"sust", "surface instructions are not allowed"},
      {"sured", "surface instructions are not allowed"},
      {"suq", "surface instructions are not allowed"},
      {"istypep", "texture/surface instructions are not allowed"},
      {"mapa", "cluster instructions ('mapa') are not allowed (no cluster launches)"},
      {"getctarank", "cluster instructions ('getctarank') are not allowed (no cluster launches)"},
      {"mbarrier", "'mbarrier' instructions are not allowed"},
      {"tensormap", "tensor-map (TMA) instructions are not allowed"},
      {"multimem", "'multimem' instructions are not allowed"},
      {"setmaxnreg", "'setmaxnreg' is not allowed"},
      {"griddepcontrol", "'griddepcontrol' is not allowed"},
      {"alloca", "dynamic stack allocation is not allowed"},
      {"stacksave", "dynamic stack allocation is not allowed"},
      {"stackrestore", "dynamic stack allocation is not allowed"},
      {"elect", "'elect.sync' is not allowed"},
      {"red", "'red' (an atomic reduction without a result) is not allowed: the toolchain "
              "emits every atomic as 'atom', whose forms are on the allow-list"},
  }};
  for (auto &[Op, Why] : R)
    if (Op == base)
      return Why;
  return {};
}

/// bar/barrier: only the whole-CTA barrier 0 without a thread count (atoll-mem's
/// rule: different ids can deadlock warps, explicit counts never complete once a
/// counted thread exited); a count that is not a multiple of 32 is an
/// illegal-instruction fault on the H200.
std::string checkBarrier(std::string_view opcode, const std::vector<std::string_view> &mods,
                         const std::vector<std::string> &ops) {
  auto has = [&](std::string_view m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
  if (opcode == "bar.warp.sync")
    return {}; // the member mask is confined by atoll-mem (docs/passes.md)
  // atoll-mem emits only barrier.sync 0: bar.sync is barrier.sync.aligned (PTX ISA),
  // undefined when a warp's threads reach different barrier instructions, and
  // barrier reductions mixed with barrier.sync are unpredictable (found by review,
  // R3-F6: the validator must not be weaker than the pass).
  if (opcode.substr(0, 4) == "bar." || has("aligned"))
    return "'" + std::string(opcode) + "': only the non-.aligned 'barrier.sync' is allowed";
  if (has("red")) {
    // One form only, atoll-mem's own block-wide cancel vote before the cooperative
    // shared zeroing (R7-F1/F11): `barrier.red.or.pred p, 0, q` at the kernel's start,
    // which completes before the first barrier.sync 0 begins (sequential use of the
    // barrier, never mixed). Tenant code cannot produce it: atoll-mem refuses every
    // barrier reduction intrinsic.
    const bool Vote = opcode == "barrier.red.or.pred" && ops.size() == 3 &&
                      immediate(ops[1]) == std::optional<uint64_t>(0) &&
                      ops[0].rfind("%p", 0) == 0 && ops[2].rfind("%p", 0) == 0;
    if (!Vote)
      return "'" + std::string(opcode) + "': barrier reductions are not allowed";
    return {};
  }
  size_t idIndex = 0;
  size_t minOps = 1;
  if (ops.size() < minOps || ops.size() > minOps + 1)
    return "'" + std::string(opcode) + "' with " + std::to_string(ops.size()) + " operands";
  // atoll-mem turns every barrier into the whole-CTA barrier 0: warps waiting at
  // barriers of different ids could otherwise wait for each other forever.
  auto id = immediate(ops[idIndex]);
  if (!id || *id != 0)
    return "barrier id '" + ops[idIndex] + "' is not the immediate 0 (every barrier is the "
           "whole-CTA barrier 0)";
  // An explicit thread count never completes once a thread it counts has exited
  // (an early return, a cancelled kernel), and waiting threads cannot be cancelled:
  // atoll-mem refuses every such barrier; so does the validator (bar.arrive always
  // has one).
  if (ops.size() == minOps + 1)
    return "barrier with an explicit thread count '" + ops[idIndex + 1] + "'";
  if (has("arrive"))
    return "'" + std::string(opcode) + "' without a thread count";
  return {};
}

/// The atom forms NVPTX emits for the atomics atoll-mem lets through (the native
/// table of passes/lib/AtomicPolicy.cpp; every other atomic is expanded into a loop
/// of 'cas' or refused there): atom{.sem}{.scope}{.space}.op.type in this order.
///  - sem: none, .relaxed, .acquire, .release, .acq_rel; scope: none, .cta, .gpu,
///    .sys (never .cluster: no cluster launches); space: .global, .shared or none
///    (generic). No cache hints, no .noftz, no vectors.
///  - op.type: one scalar of 4 or 8 bytes. atoll-mem confines every atomic as
///    max(size, 4) bytes at its own address (review R8-F4), and refuses atomics
///    wider than 8 bytes (R7-F6, R8-F5); 8- and 16-bit atomics become 32-bit ones
///    on the aligned word. So an atom of 4 or 8 bytes lies inside what was
///    confined, and a wider one (.b128, .v2/.v4/.v8) or a 16-bit one was never
///    produced by the passes.
///  - the op.type must be one instruction in SASS for its space (sm_90, measured:
///    AtomicPolicy.cpp): in shared memory, and so for generic addresses, 64-bit
///    arithmetic and float adds are compare-and-swap loops that ptxas makes after
///    the last check was placed (review R7-F2); the passes expand those forms.
struct AtomForm {
  std::string_view op;
  std::array<std::string_view, 3> anySpace;  // one instruction in every space
  std::array<std::string_view, 3> globalOnly; // a loop in shared memory
};
constexpr AtomForm kAtomForms[] = {
    {"add", {"u32", "s32"}, {"u64", "f32", "f64"}},
    {"min", {"u32", "s32"}, {"u64", "s64"}},
    {"max", {"u32", "s32"}, {"u64", "s64"}},
    {"and", {"b32"}, {"b64"}},
    {"or", {"b32"}, {"b64"}},
    {"xor", {"b32"}, {"b64"}},
    {"exch", {"b32", "b64"}, {}},
    {"cas", {"b32", "b64"}, {}},
    {"inc", {"u32"}, {}},
    {"dec", {"u32"}, {}},
};

bool isOneOf(std::string_view m, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), m) != set.end();
}

/// A PTX scalar or packed type name that an atom could name, with its width.
std::optional<unsigned> typeBits(std::string_view m) {
  static const std::array<std::pair<std::string_view, unsigned>, 24> T = {{
      {"b8", 8},     {"u8", 8},      {"s8", 8},      {"b16", 16},     {"u16", 16},
      {"s16", 16},   {"f16", 16},    {"bf16", 16},   {"e4m3", 8},     {"e5m2", 8},
      {"b32", 32},   {"u32", 32},    {"s32", 32},    {"f32", 32},     {"f16x2", 32},
      {"bf16x2", 32}, {"b64", 64},   {"u64", 64},    {"s64", 64},     {"f64", 64},
      {"b128", 128}, {"u128", 128},  {"s128", 128},  {"f64x2", 128},
  }};
  for (auto &[Name, Bits] : T)
    if (Name == m)
      return Bits;
  return std::nullopt;
}

std::string checkAtom(std::string_view opcode, const std::vector<std::string_view> &mods,
                      const std::vector<std::string> &ops) {
  const std::string q = "'" + std::string(opcode) + "'";
  const std::string confined = " (atoll-mem confines every atomic as one scalar of 4 or 8 bytes)";
  // Forms with a reason of their own, wherever they stand.
  for (std::string_view m : mods) {
    if (isOneOf(m, {"v2", "v4", "v8"}))
      return q + ": vector atomics ('." + std::string(m) + "') are not allowed" + confined;
    if (m == "noftz")
      return q + ": half-precision atomics ('.noftz') are not allowed" + confined;
    if (hasPrefix(m, "L2") || hasPrefix(m, "level"))
      return q + ": cache-policy hints ('." + std::string(m) + "') are not allowed";
    if (std::optional<unsigned> bits = typeBits(m); bits && *bits != 32 && *bits != 64)
      return q + ": " + std::to_string(*bits) + "-bit atomics ('." + std::string(m) +
             "') are not allowed" + confined;
  }
  // atom{.sem}{.scope}{.space}.op.type, nothing else.
  size_t i = 0;
  if (i < mods.size() && isOneOf(mods[i], {"relaxed", "acquire", "release", "acq_rel"}))
    ++i;
  if (i < mods.size() && isOneOf(mods[i], {"cta", "gpu", "sys"}))
    ++i;
  std::string_view space;
  if (i < mods.size() && isOneOf(mods[i], {"global", "shared"}))
    space = mods[i++];
  const AtomForm *form = nullptr;
  if (i < mods.size())
    for (const AtomForm &f : kAtomForms)
      if (f.op == mods[i])
        form = &f;
  if (!form) {
    if (i >= mods.size())
      return q + ": an atomic without an operation";
    return q + ": '." + std::string(mods[i]) + "' is not on the atom allow-list (atom{.relaxed|"
           ".acquire|.release|.acq_rel}{.cta|.gpu|.sys}{.global|.shared}.op.type with op one "
           "of add min max and or xor exch cas inc dec)";
  }
  ++i;
  if (i >= mods.size())
    return q + ": an atomic without a type";
  std::string_view type = mods[i++];
  if (i != mods.size())
    return q + ": '." + std::string(mods[i]) + "' after the type is not on the atom allow-list";
  auto in = [&](const std::array<std::string_view, 3> &set) {
    return !type.empty() && std::find(set.begin(), set.end(), type) != set.end();
  };
  if (!in(form->anySpace) && !in(form->globalOnly))
    return q + ": '." + std::string(form->op) + "." + std::string(type) +
           "' is not an atomic form the toolchain emits";
  if (!in(form->anySpace) && space != "global")
    return q + ": '." + std::string(form->op) + "." + std::string(type) + "' is not one " +
           "instruction in " + (space.empty() ? "generic (possibly shared)" : "shared") +
           " memory: ptxas makes a compare-and-swap loop of it that no preemption check " +
           "reaches (atoll-mem expands it into a checked loop)";
  // d, [a], b (cas: d, [a], b, c): an extra operand would be a cache policy.
  const size_t want = form->op == "cas" ? 4 : 3;
  if (ops.size() != want || ops[1].empty() || ops[1].front() != '[')
    return q + " with " + std::to_string(ops.size()) + " operands (expected " +
           std::to_string(want) + ", the second an address in brackets)";
  return {};
}

/// Loads and stores (ld, st, ldu), found by review (R10-F3): before, only the
/// opcode was on the allow-list, so every qualifier passed, among them `.mmio`
/// (memory-mapped I/O semantics on ordinary device memory: not defined) and the
/// cache hints (`.L2::cache_hint` takes a 64-bit policy operand). Now every
/// qualifier is spelled out, deny by default, as NVPTX (LLVM 22) prints it for
/// every target and PTX ISA version the runtime accepts:
///   ld{.sem}{.space}{.nc}{.vec}.type    d, [a]
///   st{.sem}{.space}{.vec}.type         [a], s
///   ldu.global{.vec}.type               d, [a]
///  - sem: none (weak), .volatile, .relaxed.scope, .acquire.scope (ld) or
///    .release.scope (st), scope .cta, .gpu or .sys; only in .global, .shared or
///    generic addressing (NVPTX drops the ordering elsewhere). Never .mmio: atoll-mem
///    drops `volatile` from atomic loads and stores, the only IR that NVPTX makes
///    mmio of (PTX ISA 8.2+ on sm_70+).
///  - space: none (generic), .global, .shared, .local, .const, and .param for ld
///    (the kernel's parameters; writes to them are refused above).
///  - .nc (non-coherent, the read-only data cache: LLVM's form for invariant loads
///    of global memory): ld.global only, without semantics.
///  - vec: .v2 or .v4 of any type, .v8 of 32-bit types (256-bit accesses, sm_100
///    with PTX ISA 8.8), at most 256 bits in all.
///  - type: .b8 .b16 .b32 .b64, and for ld the sign-extending .s8 .s16 .s32.
/// No cache operator (.ca .cg .cs .lu .cv .wb .wt), no eviction priority
/// (.L1::evict_*, .L2::evict_*, .L1::no_allocate), no prefetch size (.L2::64B,
/// .L2::128B, .L2::256B), no cache policy (.L2::cache_hint), no explicit .weak,
/// no .b128: LLVM emits none of them for a load or store.
std::string checkLoadStore(std::string_view base, std::string_view opcode,
                           const std::vector<std::string_view> &mods,
                           const std::vector<std::string> &ops) {
  const std::string q = "'" + std::string(opcode) + "'";
  const bool isLd = base == "ld", isLdu = base == "ldu";
  const std::string grammar =
      isLdu ? "ldu.global{.v2|.v4}.type"
            : isLd ? "ld{.volatile|.relaxed.scope|.acquire.scope}{.global|.shared|.local|.const|"
                     ".param}{.nc}{.v2|.v4|.v8}.type"
                   : "st{.volatile|.relaxed.scope|.release.scope}{.global|.shared|.local}{.v2|"
                     ".v4|.v8}.type";
  // Qualifiers with a reason of their own, wherever they stand.
  for (std::string_view m : mods) {
    const std::string Q = "'." + std::string(m) + "'";
    if (m == "mmio")
      return q + ": " + Q + " is not allowed (memory-mapped I/O semantics on device memory "
             "are not defined, and a fault there is sticky for every tenant of the context)";
    if (m == "L2::cache_hint")
      return q + ": " + Q + " is not allowed (a cache-policy operand; LLVM emits no cache "
             "hints for loads and stores)";
    if (hasPrefix(m, "L1::") || hasPrefix(m, "L2::"))
      return q + ": cache eviction priorities and prefetch sizes (" + Q +
             ") are not allowed (LLVM emits none for loads and stores)";
    if (isOneOf(m, {"ca", "cg", "cs", "lu", "cv", "wb", "wt"}))
      return q + ": cache operators (" + Q + ") are not allowed (LLVM emits none)";
    if (m == "weak")
      return q + ": an explicit " + Q + " is not on the allow-list (LLVM omits it)";
  }
  size_t i = 0;
  std::string_view sem;
  if (i < mods.size() &&
      (mods[i] == "volatile" || mods[i] == "relaxed" ||
       (isLd && mods[i] == "acquire") || (base == "st" && mods[i] == "release"))) {
    sem = mods[i++];
    if (sem != "volatile") {
      if (i >= mods.size() || !isOneOf(mods[i], {"cta", "gpu", "sys"}))
        return q + ": '." + std::string(sem) + "' without a scope (.cta, .gpu or .sys)";
      ++i;
    }
  }
  if (isLdu && !sem.empty())
    return q + ": 'ldu' takes no memory semantics";
  std::string_view space;
  if (i < mods.size() && isOneOf(mods[i], {"global", "shared", "local", "const", "param"}))
    space = mods[i++];
  if (isLdu && space != "global")
    return q + ": 'ldu' is allowed on the global state space only (ldu.global)";
  if (space == "param" && !isLd)
    return q + ": the parameter space is read with ld only";
  if (space == "const" && !isLd)
    return q + ": the constant space is read-only";
  if (!sem.empty() && !space.empty() && space != "global" && space != "shared")
    return q + ": '." + std::string(sem) + "' in the ." + std::string(space) +
           " state space (memory semantics only on .global, .shared or generic addresses)";
  if (i < mods.size() && mods[i] == "nc") {
    if (!isLd || space != "global" || !sem.empty())
      return q + ": '.nc' only on a weak ld.global (ld.global.nc)";
    ++i;
  }
  unsigned lanes = 1;
  if (i < mods.size() && isOneOf(mods[i], {"v2", "v4", "v8"}))
    lanes = unsigned(mods[i++][1] - '0');
  if (isLdu && lanes == 8)
    return q + ": '.v8' is not an ldu form (ldu.global{.v2|.v4}.type)";
  if (i >= mods.size())
    return q + ": a " + std::string(base) + " without a type";
  std::string_view type = mods[i];
  const bool typeOk = isOneOf(type, {"b8", "b16", "b32", "b64"}) ||
                      (isLd && isOneOf(type, {"s8", "s16", "s32"}));
  if (!typeOk) {
    const char *types = isLd ? ".b8 .b16 .b32 .b64 .s8 .s16 .s32" : ".b8 .b16 .b32 .b64";
    if (typeBits(type) || isOneOf(type, {"u8", "u16", "u32", "u64", "s64", "f32", "f64"}))
      return q + ": type '." + std::string(type) + "' is not one LLVM emits for " +
             std::string(base) + " (" + types + ")";
    return q + ": '." + std::string(type) + "' is not on the " + std::string(base) +
           " allow-list (" + grammar + ", scope .cta/.gpu/.sys)";
  }
  ++i;
  if (i != mods.size())
    return q + ": '." + std::string(mods[i]) + "' after the type is not on the " +
           std::string(base) + " allow-list";
  const unsigned bits = *typeBits(type);
  if (lanes == 8 && bits != 32)
    return q + ": '.v8." + std::string(type) + "' (.v8 only of 32-bit types)";
  if (lanes * bits > 256)
    return q + ": " + std::to_string(lanes * bits) + "-bit access (at most 256 bits)";
  // d, [a] (st: [a], s): an extra operand would be a cache policy.
  const size_t addr = isLd || isLdu ? 1 : 0;
  if (ops.size() != 2 || ops[addr].empty() || ops[addr].front() != '[')
    return q + " with " + std::to_string(ops.size()) + " operands (expected 2, the " +
           (addr ? "second" : "first") + " an address in brackets)";
  return {};
}

/// cp.async (found by review, R10-F3: only 'cp.async' was required): the forms
/// NVPTX emits for the cp.async intrinsics atoll-mem confines (IntrinsicTable.cpp:
/// `cp.async.{ca,cg}.shared.global.{4,8,16}[.s]`, the shared destination and the
/// global source each confined for the copy size) and the group waits:
///   cp.async.ca.shared.global [d], [s], 4|8|16{, src-size}
///   cp.async.cg.shared.global [d], [s], 16{, src-size}
///   cp.async.commit_group   cp.async.wait_group N   cp.async.wait_all
/// No prefetch size (.L2::64B/128B/256B), no cache policy (.L2::cache_hint, an
/// extra operand), no .shared::cta or other spelling: LLVM emits none of them.
std::string checkAsyncCopy(std::string_view opcode, const std::vector<std::string> &ops) {
  const std::string q = "'" + std::string(opcode) + "'";
  if (opcode == "cp.async.commit_group" || opcode == "cp.async.wait_all") {
    if (!ops.empty())
      return q + " takes no operands";
    return {};
  }
  if (opcode == "cp.async.wait_group") {
    if (ops.size() != 1 || !immediate(ops[0]))
      return q + " takes one immediate operand";
    return {};
  }
  const bool ca = opcode == "cp.async.ca.shared.global";
  const bool cg = opcode == "cp.async.cg.shared.global";
  if (!ca && !cg) {
    std::string why = q + " is not a cp.async form the toolchain emits";
    if (opcode.find("L2::") != std::string_view::npos)
      why += " (no cache hints or prefetch sizes)";
    return why + "; allowed: cp.async.ca.shared.global, cp.async.cg.shared.global, "
                 "cp.async.commit_group, cp.async.wait_group, cp.async.wait_all";
  }
  if (ops.size() < 3 || ops.size() > 4 || ops[0].empty() || ops[0].front() != '[' ||
      ops[1].empty() || ops[1].front() != '[')
    return q + " with " + std::to_string(ops.size()) + " operands (expected [dst], [src], " +
           "cp-size{, src-size})";
  std::optional<uint64_t> size = immediate(ops[2]);
  if (!size || (cg ? *size != 16 : (*size != 4 && *size != 8 && *size != 16)))
    return q + ": copy size '" + ops[2] + "' (" + (cg ? "16" : "4, 8 or 16") + " bytes)";
  if (ops.size() == 4 && (ops[3].empty() || ops[3].front() == '['))
    return q + ": the source size must be a register or an immediate";
  return {};
}

/// ldmatrix/stmatrix: the m8n8 forms atoll-mem confines (a 16-byte row per thread
/// in shared memory; IntrinsicTable.cpp), shared or generic addressing:
///   ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 {d...}, [a]
///   stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 [a], {s...}
/// atoll-mem refuses the other shapes and types (m16n16, m8n16, .b8), which
/// access other amounts of memory.
std::string checkMatrix(std::string_view base, std::string_view opcode,
                        const std::vector<std::string_view> &mods,
                        const std::vector<std::string> &ops) {
  const std::string q = "'" + std::string(opcode) + "'";
  size_t i = 0;
  bool ok = mods.size() >= 5 && mods[i++] == "sync" && mods[i++] == "aligned" &&
            mods[i++] == "m8n8" && isOneOf(mods[i++], {"x1", "x2", "x4"});
  if (ok && i < mods.size() && mods[i] == "trans")
    ++i;
  if (ok && i < mods.size() && mods[i] == "shared")
    ++i;
  ok = ok && i + 1 == mods.size() && mods[i] == "b16";
  if (!ok)
    return q + " is not a form of '" + std::string(base) + "' the toolchain emits (" +
           std::string(base) + ".sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16)";
  const size_t addr = base == "ldmatrix" ? 1 : 0;
  if (ops.size() != 2 || ops[addr].empty() || ops[addr].front() != '[')
    return q + " with " + std::to_string(ops.size()) + " operands (expected 2, the " +
           (addr ? "second" : "first") + " an address in brackets)";
  return {};
}

/// Fences, memory barriers and warp primitives: the forms LLVM emits for the
/// intrinsics and orderings atoll-mem allows (IntrinsicTable.cpp, SyncPolicy.cpp),
/// each spelled out. Cluster scopes, proxy fences, float reductions and the
/// primitives without a member mask are not among them.
std::string checkSyncForm(std::string_view base, std::string_view opcode) {
  struct Forms {
    std::string_view base;
    std::vector<std::string_view> forms;
  };
  static const Forms kForms[] = {
      // fence.acquire/.release: LLVM's form for PTX ISA 8.6 and later (sm_100).
      {"fence", {"fence.sc.cta", "fence.sc.gpu", "fence.sc.sys", "fence.acq_rel.cta",
                 "fence.acq_rel.gpu", "fence.acq_rel.sys", "fence.acquire.cta",
                 "fence.acquire.gpu", "fence.acquire.sys", "fence.release.cta",
                 "fence.release.gpu", "fence.release.sys"}},
      {"membar", {"membar.cta", "membar.gl", "membar.sys"}},
      {"redux", {"redux.sync.add.s32", "redux.sync.add.u32", "redux.sync.min.s32",
                 "redux.sync.min.u32", "redux.sync.max.s32", "redux.sync.max.u32",
                 "redux.sync.and.b32", "redux.sync.or.b32", "redux.sync.xor.b32"}},
      {"match", {"match.any.sync.b32", "match.any.sync.b64", "match.all.sync.b32",
                 "match.all.sync.b64"}},
      {"shfl", {"shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32",
                "shfl.sync.idx.b32"}},
      {"vote", {"vote.sync.all.pred", "vote.sync.any.pred", "vote.sync.uni.pred",
                "vote.sync.ballot.b32"}},
      {"activemask", {"activemask.b32"}},
  };
  for (const Forms &f : kForms) {
    if (f.base != base)
      continue;
    if (std::find(f.forms.begin(), f.forms.end(), opcode) != f.forms.end())
      return {};
    std::string why = "'" + std::string(opcode) + "' is not a form of '" + std::string(base) +
                      "' the toolchain emits";
    if (hasPrefix(opcode, "fence.proxy") || hasPrefix(opcode, "membar.proxy"))
      why += " (proxy fences serve the bulk/TMA copies, which are refused)";
    else if ((base == "shfl" || base == "vote" || base == "match" || base == "redux") &&
             opcode.find(".sync") == std::string_view::npos)
      why += " (warp primitives need .sync and a member mask)";
    std::string list;
    for (std::string_view form : f.forms)
      list += (list.empty() ? "" : ", ") + std::string(form);
    return why + "; allowed: " + list;
  }
  return {};
}


} // namespace

std::string checkInstruction(std::string_view opcode, const std::vector<std::string> &operands) {
  std::vector<std::string_view> parts;
  for (std::string_view s = opcode;;) {
    size_t dot = s.find('.');
    parts.push_back(s.substr(0, dot));
    if (dot == std::string_view::npos)
      break;
    s.remove_prefix(dot + 1);
  }
  std::string_view base = parts.front();
  std::vector<std::string_view> mods(parts.begin() + 1, parts.end());
  auto q = [&] { return "'" + std::string(opcode) + "'"; };

  if (!allowedOpcodes().count(base)) {
    if (std::string_view why = deniedReason(base); !why.empty())
      return std::string(why);
    return "opcode " + q() + " is not on the PTX allow-list";
  }
  for (std::string_view m : mods) {
    if (m.find("cluster") != std::string_view::npos)
      return q() + ": cluster state spaces and scopes are not allowed (no cluster launches)";
    if (m == "bulk" || m.find("tensormap") != std::string_view::npos)
      return q() + ": bulk/tensor-memory-accelerator (TMA) operations are not allowed";
    if (m.find("mbarrier") != std::string_view::npos)
      return q() + ": 'mbarrier' operations are not allowed";
    if (m == "multimem")
      return q() + ": 'multimem' operations are not allowed";
  }
  auto has = [&](std::string_view m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
  auto hasPrefixMod = [&](std::string_view p) {
    return std::any_of(mods.begin(), mods.end(), [&](std::string_view m) { return hasPrefix(m, p); });
  };
  if ((base == "st" || base == "atom" || base == "red" || base == "cp") && hasPrefixMod("param"))
    return q() + ": writes to the parameter space are not allowed";
  if (base == "cvta" && hasPrefixMod("param"))
    return q() + ": generic addresses of the parameter space are not allowed";
  if ((base == "st" || base == "red") && has("async"))
    return q() + ": asynchronous (cluster) stores are not allowed";
  if (base == "cp" && (mods.empty() || mods.front() != "async"))
    return q() + ": only 'cp.async' is allowed";
  if (base == "cp")
    if (std::string why = checkAsyncCopy(opcode, operands); !why.empty())
      return why;
  if (base == "ld" || base == "st" || base == "ldu")
    if (std::string why = checkLoadStore(base, opcode, mods, operands); !why.empty())
      return why;
  if (base == "ldmatrix" || base == "stmatrix")
    if (std::string why = checkMatrix(base, opcode, mods, operands); !why.empty())
      return why;
  if (base == "bar" || base == "barrier")
    if (std::string why = checkBarrier(opcode, mods, operands); !why.empty())
      return why;
  if (base == "atom")
    if (std::string why = checkAtom(opcode, mods, operands); !why.empty())
      return why;
  if (std::string why = checkSyncForm(base, opcode); !why.empty())
    return why;
  for (const std::string &op : operands)
    if (hasPrefix(op, "%cluster") || hasPrefix(op, "%nclusterid") ||
        hasPrefix(op, "%is_explicit_cluster"))
      return q() + ": cluster special register '" + op + "' (no cluster launches)";
  return {};
}


} // namespace Atoll::ptx
