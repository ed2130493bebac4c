// The adversarial isolation suite's single source of truth: every attack and every
// benign control, with its kernel(s), launch shape, arguments and the outcome it
// must have. Both modes of atoll-attacks read only this table:
//  - offline (no GPU, CI): every module is compiled and hardened; refusals must
//    carry the declared reason, everything else must compile to loadable PTX whose
//    kernels match the declared arguments;
//  - GPU: every attack runs against a victim pipeline surrounded by canaries (see
//    GpuSuite.cpp for what "contained" is checked as).
// The table itself is in AttackCatalog.cpp; the kernels in kernels/.
#pragma once

#include "atoll/launch.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace AtollAttacks {

/// What must happen to an attack.
enum class Expect {
  Refused,   // loadApplication fails with Refused; the reason substring is in the error
  Contained, // it loads and runs; victim untouched, nothing leaks, context healthy
};

/// Which pipeline a launch runs on.
enum class Role {
  Attacker, // the attacker pipeline (its own arena, buffers A, B and the tail)
  Victim,   // the victim pipeline (residue "writers" that run before a probe)
  Previous, // a temporary pipeline, destroyed before the attacker's fresh one exists
};

/// One kernel argument, resolved by the harness at launch time.
struct ArgSpec {
  enum class Kind {
    AtkBuf,          // Buffer: attacker buffer `index` (0 = A data, 1 = B out) + offset
    AtkTail,         // Buffer: the attacker buffer that ends at the arena's end
    AtkTailWords,    // u32: that buffer's size in 32-bit words + offset
    ArenaWords,      // u64: the launching pipeline's arena size in 32-bit words
    VictimAddr,      // u64: device address of the victim's secret data + offset
    VictimDelta,     // i64: victim secret address - address of attacker buffer `index`
    VictimXor,       // u64: victim secret address ^ address of attacker buffer `index`
    CtlBuf,          // Buffer: control buffer `index` + offset (controls only)
    Int,             // an integer of `size` bytes (bits)
    Float,           // f32 (size 4) or f64 (size 8) (bits)
    Bytes,           // a byval struct (bytes)
    Null,            // the null pointer
  };
  Kind kind = Kind::Int;
  uint32_t index = 0;
  int64_t offset = 0;
  uint32_t size = 0;
  uint64_t bits = 0;
  std::vector<uint8_t> bytes;

  /// For --list and messages, e.g. "A+4", "victim+0", "u32 0x0bad0001".
  std::string describe() const;
};

ArgSpec atkA(int64_t offset = 0);
ArgSpec atkB(int64_t offset = 0);
ArgSpec atkTail();
ArgSpec atkTailWords(int64_t plus = 0);
ArgSpec arenaWords();
ArgSpec victimAddr(int64_t offset = 0);
ArgSpec victimDelta(uint32_t atkBuffer);
ArgSpec victimXor(uint32_t atkBuffer);
ArgSpec ctl(uint32_t index, int64_t offset = 0);
ArgSpec u32(uint32_t v);
ArgSpec i32(int32_t v);
ArgSpec u64(uint64_t v);
ArgSpec i64(int64_t v);
ArgSpec f32(float v);
ArgSpec null();
template <typename T> ArgSpec byval(const T &v) {
  ArgSpec a;
  a.kind = ArgSpec::Kind::Bytes;
  a.size = sizeof(T);
  a.bytes.resize(sizeof(T));
  std::memcpy(a.bytes.data(), &v, sizeof(T));
  return a;
}

struct Launch {
  Role role = Role::Attacker;
  std::string kernel;
  Atoll::Dim3 grid{1};
  Atoll::Dim3 block{32};
  uint32_t dynamicSharedBytes = 0;
  std::vector<ArgSpec> args;
};

/// An extra, attack-specific expectation on the attacker's buffers after the run.
struct Check {
  enum class Kind {
    AllZero,    // the first `bytes` bytes of attacker buffer `buffer` are zero
    WordEquals, // word `word` of attacker buffer `buffer` equals `value`
  };
  Kind kind = Kind::AllZero;
  uint32_t buffer = 1;
  uint64_t bytes = 0;
  uint32_t word = 0;
  uint32_t value = 0;
  /// Reported, but a mismatch does not fail the attack (it documents behaviour, such
  /// as where a clamped access lands, rather than a security property).
  bool informational = false;
};

struct Attack {
  std::string name;        // unique, lower_snake
  std::string category;    // oob, forged, launder, generic, misaligned, atomics, ...
  std::string description; // one line: what the attacker tries
  std::string module;      // kernels/<module>.bc
  Expect expect = Expect::Contained;
  std::string reason;      // Refused: substring that must appear in the error
  std::vector<Launch> launches; // Contained: in order
  std::vector<Check> checks;    // Contained: extra checks on the attacker's buffers
  unsigned optLevel = 2;        // AppOptions::optLevel used to load the module
  bool freshPipeline = false;   // run on a new attacker pipeline (after Role::Previous)
  bool noInit = false;          // leave the attacker's buffers as the arena gives them
  uint32_t timeoutMs = 0;       // >0: own pipeline with this timeout; expect Timeout
  bool neverEnds = false;       // never ends on its own: the timeout must cancel it
  bool showTime = false;        // Contained: the observed line gives the run time (ms); a
                                // seconds-long measurement, left out by --memcheck-safe
  uint32_t runLimitMs = 0;      // >0 (Contained): own pipeline with this timeout; the attack
                                // must end on its own within it
  uint32_t minRunMs = 0;        // >0 (Contained): it must have run at least this long
  uint64_t fuel = 0;            // >0 (Contained, with runLimitMs): every launch gets this
                                // LaunchConfig::fuel; synchronize must report FuelExhausted
  std::string launchRefusal;    // non-empty: the launch must be refused (InvalidLaunch) with this
                                // substring, the context and victim healthy
  std::string xfail;            // known issue: the expectation is not met yet (why)
  std::string note;             // what to look for when reading the result
};

/// Initial contents of a control buffer.
struct CtlBuffer {
  enum class Init { Zero, Iota, RandomU32, RandomF32 };
  uint64_t bytes = 0;
  Init init = Init::Zero;
  uint32_t seed = 1;
  uint32_t mask = 0xFFFFFFFFu;     // RandomU32: value & mask
  float lo = -1.0f, hi = 1.0f;     // RandomF32: uniform in [lo, hi)
};

/// Host-side contents of the control's buffers before and after the run.
using Bytes = std::vector<uint8_t>;
using Verify = std::function<std::string(const std::vector<Bytes> &before,
                                         const std::vector<Bytes> &after)>;

/// A benign kernel: hardened, it must give the host-computed reference.
struct Control {
  std::string name;
  std::string description;
  std::string module;
  std::string kernel;
  Atoll::Dim3 grid{1};
  Atoll::Dim3 block{32};
  uint32_t dynamicSharedBytes = 0;
  std::vector<CtlBuffer> buffers;
  std::vector<ArgSpec> args;
  Verify verify; // "" when the result matches the reference, else what differs
};

const std::vector<Attack> &attacks();
const std::vector<Control> &controls();

/// Fills a control buffer's initial bytes (deterministic).
Bytes initialContents(const CtlBuffer &b);

// --- shared constants of the victim/attacker layout ----------------------------------

/// Victim secret words: top 12 bits 0x5EC (kernels/common.h ATK_SECRET).
constexpr uint32_t secretWord(uint32_t i) { return 0x5EC00000u | ((i * 2654435761u) & 0xFFFFFu); }
constexpr bool looksSecret(uint32_t w) { return (w >> 20) == 0x5ECu || w == 0xDEADBEEFu; }
constexpr uint32_t kCanary = 0xDEADBEEFu;

/// The word written by most attacks ("this should never reach the victim").
constexpr uint32_t kPoison = 0x0BAD0001u;
constexpr uint64_t kPoison64 = 0x0BAD0BAD0BAD0BADull;

std::string_view toString(Expect e);
std::string_view toString(Role r);

/// Consistency of the table (unique names, reasons, launches...): empty when fine.
std::vector<std::string> validateCatalog();

} // namespace AtollAttacks
