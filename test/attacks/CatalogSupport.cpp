// The catalog's argument helpers (Catalog.h) and its consistency check.
#include "Catalog.h"

#include <cstdio>
#include <cstring>
#include <set>

namespace AtollAttacks {

// --- ArgSpec helpers --------------------------------------------------------------------

static ArgSpec make(ArgSpec::Kind k, uint32_t index = 0, int64_t offset = 0) {
  ArgSpec a;
  a.kind = k;
  a.index = index;
  a.offset = offset;
  return a;
}
ArgSpec atkA(int64_t offset) { return make(ArgSpec::Kind::AtkBuf, 0, offset); }
ArgSpec atkB(int64_t offset) { return make(ArgSpec::Kind::AtkBuf, 1, offset); }
ArgSpec atkTail() { return make(ArgSpec::Kind::AtkTail); }
ArgSpec atkTailWords(int64_t plus) { return make(ArgSpec::Kind::AtkTailWords, 0, plus); }
ArgSpec arenaWords() { return make(ArgSpec::Kind::ArenaWords); }
ArgSpec victimAddr(int64_t offset) { return make(ArgSpec::Kind::VictimAddr, 0, offset); }
ArgSpec victimDelta(uint32_t b) { return make(ArgSpec::Kind::VictimDelta, b); }
ArgSpec victimXor(uint32_t b) { return make(ArgSpec::Kind::VictimXor, b); }
ArgSpec ctl(uint32_t index, int64_t offset) { return make(ArgSpec::Kind::CtlBuf, index, offset); }
static ArgSpec intArg(uint32_t size, uint64_t bits) {
  ArgSpec a = make(ArgSpec::Kind::Int);
  a.size = size;
  a.bits = bits;
  return a;
}
ArgSpec u32(uint32_t v) { return intArg(4, v); }
ArgSpec i32(int32_t v) { return intArg(4, uint32_t(v)); }
ArgSpec u64(uint64_t v) { return intArg(8, v); }
ArgSpec i64(int64_t v) { return intArg(8, uint64_t(v)); }
ArgSpec f32(float v) {
  ArgSpec a = make(ArgSpec::Kind::Float);
  a.size = 4;
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  a.bits = bits;
  return a;
}
ArgSpec null() { return make(ArgSpec::Kind::Null); }

std::string ArgSpec::describe() const {
  char buf[96];
  auto off = [&](const std::string &base) {
    if (offset == 0)
      return base;
    return base + (offset > 0 ? "+" : "") + std::to_string(offset);
  };
  switch (kind) {
  case Kind::AtkBuf: return off(index == 0 ? "A" : index == 1 ? "B" : "buf?");
  case Kind::AtkTail: return "tail";
  case Kind::AtkTailWords: return off("u32 tailWords");
  case Kind::ArenaWords: return "u64 arenaWords";
  case Kind::VictimAddr: return off("u64 victim");
  case Kind::VictimDelta: return std::string("i64 victim-") + (index == 0 ? "A" : "B");
  case Kind::VictimXor: return std::string("u64 victim^") + (index == 0 ? "A" : "B");
  case Kind::CtlBuf: return off("buf" + std::to_string(index));
  case Kind::Int:
    std::snprintf(buf, sizeof buf, "%s 0x%llx", size == 8 ? "u64" : "u32",
                  (unsigned long long)bits);
    return buf;
  case Kind::Float: {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    std::snprintf(buf, sizeof buf, "f32 %g", double(f));
    return buf;
  }
  case Kind::Bytes:
    std::snprintf(buf, sizeof buf, "byval %u bytes", size);
    return buf;
  case Kind::Null: return "null";
  }
  return "?";
}

std::string_view toString(Expect e) { return e == Expect::Refused ? "refused" : "contained"; }
std::string_view toString(Role r) {
  switch (r) {
  case Role::Attacker: return "attacker";
  case Role::Victim: return "victim";
  case Role::Previous: return "previous";
  }
  return "?";
}

std::vector<std::string> validateCatalog() {
  std::vector<std::string> problems;
  std::set<std::string> names;
  auto dup = [&](const std::string &n) {
    if (!names.insert(n).second)
      problems.push_back("duplicate name '" + n + "'");
  };
  for (const Attack &a : attacks()) {
    dup(a.name);
    if (a.category.empty() || a.module.empty() || a.description.empty())
      problems.push_back(a.name + ": category, module and description are required");
    if (a.expect == Expect::Refused) {
      if (a.reason.empty())
        problems.push_back(a.name + ": a refused attack needs a reason substring");
      if (!a.launches.empty())
        problems.push_back(a.name + ": a refused attack has no launches");
    } else {
      bool attacker = false;
      for (const Launch &l : a.launches) {
        attacker |= l.role == Role::Attacker;
        if (l.kernel.empty())
          problems.push_back(a.name + ": a launch without a kernel name");
        for (const ArgSpec &s : l.args) {
          if (s.kind == ArgSpec::Kind::CtlBuf)
            problems.push_back(a.name + ": control buffers are for controls only");
          if (l.role != Role::Attacker &&
              (s.kind == ArgSpec::Kind::VictimDelta || s.kind == ArgSpec::Kind::VictimXor ||
               s.kind == ArgSpec::Kind::AtkTail || s.kind == ArgSpec::Kind::AtkTailWords))
            problems.push_back(a.name + ": victim/previous launches take scalars, A, B or "
                                        "arenaWords only");
        }
        if (l.role == Role::Previous && !a.freshPipeline)
          problems.push_back(a.name + ": Role::Previous needs freshPipeline");
      }
      if (!attacker)
        problems.push_back(a.name + ": a contained attack needs an attacker launch");
      if (a.timeoutMs && a.launches.size() != 1)
        problems.push_back(a.name + ": a timeout attack has exactly one launch");
      if (a.runLimitMs && (a.timeoutMs || a.freshPipeline))
        problems.push_back(a.name + ": runLimitMs is for attacks that end on their own, on "
                                    "their own pipeline");
      if (a.fuel && (!a.runLimitMs || a.launches.size() != 1))
        problems.push_back(a.name + ": a fuel attack has exactly one launch, on its own pipeline "
                                    "(runLimitMs)");
      if ((a.runLimitMs || a.minRunMs) && !a.showTime)
        problems.push_back(a.name + ": runLimitMs and minRunMs are measurements: set showTime");
    }
  }
  for (const Control &c : controls()) {
    dup(c.name);
    if (!c.verify)
      problems.push_back(c.name + ": a control needs a verify function");
    for (const ArgSpec &s : c.args)
      if (s.kind == ArgSpec::Kind::CtlBuf && s.index >= c.buffers.size())
        problems.push_back(c.name + ": argument names a missing buffer");
      else if (s.kind != ArgSpec::Kind::CtlBuf && s.kind != ArgSpec::Kind::Int &&
               s.kind != ArgSpec::Kind::Float && s.kind != ArgSpec::Kind::Bytes &&
               s.kind != ArgSpec::Kind::Null)
        problems.push_back(c.name + ": controls take control buffers and scalars only");
  }
  size_t n = attacks().size();
  if (n < 40)
    problems.push_back("only " + std::to_string(n) + " attacks (issue 7 asks for at least 40)");
  return problems;
}

} // namespace AtollAttacks
