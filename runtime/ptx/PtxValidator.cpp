// The PTX validator (see PtxValidator.h). A small tokeniser and a statement-level
// parser of the subset of PTX that LLVM's NVPTX backend emits for hardened
// kernels; everything outside that subset is refused.
#include "PtxText.h"
#include "PtxValidator.h"

#include <algorithm>
#include <map>
#include <array>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <set>
#include <string_view>
#include <unordered_map>

namespace Atoll::ptx {
namespace {

struct Token {
  enum Kind { Ident, Number, String, Punct } kind;
  std::string_view text;
  uint32_t line;
};

bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) { return isAlpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool isIdentChar(char c) { return isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}


/// PTX identifiers: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+. The tokeniser
/// is more lenient ('.' continues a word); symbol names are held to this.
bool isPtxIdentifier(std::string_view s) {
  if (s.empty())
    return false;
  auto follow = [](char c) { return isAlpha(c) || isDigit(c) || c == '_' || c == '$'; };
  if (!isAlpha(s[0]) && !((s[0] == '_' || s[0] == '$' || s[0] == '%') && s.size() > 1))
    return false;
  return std::all_of(s.begin() + 1, s.end(), follow);
}


// Sizes a block or thread may declare: 48 KiB of static shared memory (more needs
// the dynamic window), 512 KiB of local memory per thread (the hardware's limit
// since sm_20; Expectation::maxLocalBytes lowers it); alignments beyond a page serve nothing but overflow.
constexpr uint64_t kMaxStaticShared = 48u << 10;
constexpr uint64_t kMaxLocalPerThread = 512u << 10;
constexpr uint64_t kMaxAlign = 4096;

} // namespace

std::string Violation::describe() const {
  if (line == 0)
    return reason;
  return "PTX line " + std::to_string(line) + ": " + reason + ": '" + text + "'";
}

namespace {

class Validator {
public:
  Validator(std::string_view ptx, const Expectation &exp) : Src(ptx), Exp(exp) {}

  std::optional<Violation> run() {
    ExpIndex.reserve(Exp.entries.size());
    for (const ExpectedEntry &e : Exp.entries)
      ExpIndex.try_emplace(e.name, &e);
    if (Exp.globals)
      for (const ExpectedGlobal &g : *Exp.globals)
        GlobalIndex[g.name] |= 1u << unsigned(g.space);
    if (!tokenize())
      return Err;
    while (I < Toks.size() && !Err)
      topLevel();
    if (Err)
      return Err;
    for (const ExpectedEntry &e : Exp.entries)
      if (!Seen.count(e.name))
        return Violation{0, "", "kernel '" + e.name + "' is not an .entry of the PTX"};
    // Any kernel may use every module-scope .shared variable besides its own.
    if (ModuleShared + MaxKernelShared > kMaxStaticShared)
      return Violation{0, "",
                       "static shared memory of " + std::to_string(ModuleShared) +
                           " bytes at module scope plus " + std::to_string(MaxKernelShared) +
                           " in one kernel exceeds the " + std::to_string(kMaxStaticShared) +
                           " bytes a block may declare"};
    return std::nullopt;
  }

private:
  std::string_view Src;
  const Expectation &Exp;
  std::vector<Token> Toks;
  size_t I = 0;
  std::optional<Violation> Err;
  std::set<std::string, std::less<>> Seen;
  // The expectation, indexed once: one lookup per entry and per variable.
  std::unordered_map<std::string_view, const ExpectedEntry *> ExpIndex;
  std::unordered_map<std::string_view, unsigned> GlobalIndex; // name -> 1 << Space
  // Declared sizes (saturating): what the driver must reserve. A tenant can declare
  // a 1 TiB stack object or 2^32 alignment; the per-function sizes in a cubin are
  // 32-bit, so such a size could wrap to nothing there. Refused here, in the service.
  uint64_t ModuleShared = 0, MaxKernelShared = 0, KernelShared = 0, KernelLocal = 0;

  /// Bytes and alignment of a variable declaration between token indices
  /// [from, to): ".align N", a vector width (.v2/.v4/.v8), a type (.b8 .. .b128,
  /// .u/.s/.f), dimensions "[N]"
  /// (an unsized "[]" counts 0). nullopt on overflow.
  std::optional<std::pair<uint64_t, uint64_t>> declared(size_t from, size_t to) const {
    uint64_t align = 1, width = 0, lanes = 1, count = 1;
    bool anyDim = false;
    for (size_t k = from; k < to; ++k) {
      std::string_view t = Toks[k].text;
      if (t == ".align" && k + 1 < to) {
        auto v = immediate(Toks[k + 1].text);
        if (!v)
          return std::nullopt;
        align = *v;
        ++k;
      } else if (t.size() >= 3 && t[0] == '.' && (t[1] == 'b' || t[1] == 'u' || t[1] == 's' ||
                                                   t[1] == 'f')) {
        auto bits = immediate(t.substr(2));
        if (bits && *bits % 8 == 0 && *bits <= 128)
          width = *bits / 8;
      } else if (t == ".v2" || t == ".v4" || t == ".v8") {
        lanes = t[2] - '0'; // `.local .v4 .b32 a[N]`: 16 bytes an element
      } else if (t == "[" && k + 1 < to) {
        if (Toks[k + 1].text == "]") {
          count = 0;
        } else {
          auto v = immediate(Toks[k + 1].text);
          if (!v || (*v && count > UINT64_MAX / *v))
            return std::nullopt;
          count *= *v;
        }
        anyDim = true;
      }
    }
    if (!anyDim)
      count = 1;
    width *= lanes;
    if (width && count > UINT64_MAX / width)
      return std::nullopt;
    return std::pair{width * count, align};
  }

  uint64_t localLimit() const { return std::min(kMaxLocalPerThread, Exp.maxLocalBytes); }

  /// Adds a declaration's bytes to `total`; false (and the violation) past `limit`.
  bool account(uint32_t line, size_t from, size_t to, uint64_t &total, uint64_t limit,
               const char *what) {
    auto d = declared(from, to);
    if (!d)
      return fail(line, std::string(what) + " declaration whose size does not fit 64 bits");
    if (d->second > kMaxAlign)
      return fail(line, std::string(what) + " alignment of " + std::to_string(d->second) +
                            " bytes (at most " + std::to_string(kMaxAlign) + ")");
    total = d->first > UINT64_MAX - total ? UINT64_MAX : total + d->first;
    if (total > limit)
      return fail(line, std::string(what) + " of " + std::to_string(total) +
                            " bytes exceeds the " + std::to_string(limit) + "-byte limit");
    return true;
  }

  std::string lineText(uint32_t line) const {
    size_t pos = 0;
    for (uint32_t l = 1; l < line && pos != std::string_view::npos; ++l) {
      pos = Src.find('\n', pos);
      if (pos != std::string_view::npos)
        ++pos;
    }
    if (pos == std::string_view::npos || pos > Src.size())
      return {};
    std::string_view s = trim(Src.substr(pos, Src.find('\n', pos) - pos));
    std::string out(s.substr(0, 200));
    for (char &c : out)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
        c = '?';
    return out;
  }

  bool fail(uint32_t line, std::string reason) {
    if (!Err)
      Err = Violation{line, lineText(line), std::move(reason)};
    return false;
  }

  bool tokenize() {
    uint32_t line = 1;
    size_t n = Src.size();
    for (size_t p = 0; p < n;) {
      char c = Src[p];
      if (c == '\n') {
        ++line;
        ++p;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++p;
      } else if (c == '/' && p + 1 < n && Src[p + 1] == '/') {
        while (p < n && Src[p] != '\n')
          ++p;
      } else if (c == '/' && p + 1 < n && Src[p + 1] == '*') {
        size_t end = Src.find("*/", p + 2);
        if (end == std::string_view::npos)
          return fail(line, "unterminated comment");
        line += uint32_t(std::count(Src.begin() + p, Src.begin() + end, '\n'));
        p = end + 2;
      } else if (c == '"') {
        // Strings hold printable ASCII without '\\': ptxas ends a string at the
        // first '"', escapes or not, so any reading of escapes could disagree with
        // it about where tenant-influenced text ends (found by review, R3-F4).
        size_t q = p + 1;
        while (q < n && Src[q] != '"' && Src[q] != '\n') {
          unsigned char b = static_cast<unsigned char>(Src[q]);
          if (b == '\\' || b < 0x20 || b > 0x7e)
            return fail(line, "a string may only hold printable ASCII characters other than "
                              "'\\' (byte " + std::to_string(b) + ")");
          ++q;
        }
        if (q >= n || Src[q] != '"')
          return fail(line, "unterminated string");
        Toks.push_back({Token::String, Src.substr(p, q + 1 - p), line});
        p = q + 1;
      } else if (isIdentStart(c)) {
        size_t q = p + 1;
        // "::" belongs to state-space qualifiers (shared::cta); one ':' ends a label.
        while (q < n && (isIdentChar(Src[q]) ||
                         (Src[q] == ':' && q + 1 < n && Src[q + 1] == ':' && q + 2 < n &&
                          isIdentChar(Src[q + 2]))))
          q += Src[q] == ':' ? 2 : 1;
        Toks.push_back({Token::Ident, Src.substr(p, q - p), line});
        p = q;
      } else if (isDigit(c)) {
        size_t q = p + 1;
        while (q < n && (isAlpha(Src[q]) || isDigit(Src[q]) || Src[q] == '.' || Src[q] == '_'))
          ++q;
        Toks.push_back({Token::Number, Src.substr(p, q - p), line});
        p = q;
      } else if (std::string_view(";,{}()[]@!+-<>=:|&*/~^").find(c) != std::string_view::npos) {
        Toks.push_back({Token::Punct, Src.substr(p, 1), line});
        ++p;
      } else {
        return fail(line, "unexpected character (byte " +
                              std::to_string(static_cast<unsigned char>(c)) + ")");
      }
    }
    return true;
  }

  bool atEnd() const { return I >= Toks.size(); }
  const Token &cur() const { return Toks[I]; }
  uint32_t curLine() const { return atEnd() ? (Toks.empty() ? 0 : Toks.back().line) : cur().line; }
  bool is(std::string_view text) const { return !atEnd() && cur().text == text; }
  bool isKind(Token::Kind k) const { return !atEnd() && cur().kind == k; }
  bool isName() const {
    return isKind(Token::Ident) && cur().text.front() != '.' && cur().text.front() != '%';
  }
  bool expect(std::string_view text) {
    if (is(text)) {
      ++I;
      return true;
    }
    return fail(curLine(), "expected '" + std::string(text) + "'");
  }
  bool expectKind(Token::Kind k, const char *what) {
    if (isKind(k)) {
      ++I;
      return true;
    }
    return fail(curLine(), std::string("expected ") + what);
  }

  // .version 8.6 | .target sm_90[, debug] | .address_size 64 | .file N "name"[, N, N]
  void topLevel() {
    const Token &t = cur();
    if (t.kind != Token::Ident || t.text.front() != '.') {
      fail(t.line, "unexpected '" + std::string(t.text) + "' at module scope");
      return;
    }
    if (t.text == ".version" || t.text == ".address_size") {
      ++I;
      expectKind(Token::Number, "a number");
      return;
    }
    if (t.text == ".target") {
      ++I;
      if (!isName())
        return (void)fail(t.line, "expected a target name");
      ++I;
      while (is(",") && !Err) {
        ++I;
        if (!isName())
          return (void)fail(t.line, "expected a target name");
        if (cur().text == "debug")
          return (void)fail(t.line, "debug information ('.target debug') is not allowed "
                                    "(the toolchain strips it)");
        ++I;
      }
      return;
    }
    // The toolchain strips debug information before code generation: file names
    // and sections are tenant text that only ptxas would read (found by review,
    // R3-F4). None is expected, so none is accepted.
    if (t.text == ".file" || t.text == ".section")
      return (void)fail(t.line, "debug information ('" + std::string(t.text) +
                                    "') is not allowed (the toolchain strips it)");
    bool isExtern = false;
    while (!atEnd() && (is(".visible") || is(".extern") || is(".weak") || is(".common"))) {
      if (is(".weak") || is(".common"))
        return (void)fail(cur().line, "'" + std::string(cur().text) +
                                          "' linkage is not allowed (symbols must be unique)");
      isExtern |= is(".extern");
      ++I;
    }
    if (atEnd())
      return (void)fail(t.line, "unexpected end of the PTX");
    const Token &d = cur();
    if (d.text == ".entry")
      return parseEntry(isExtern);
    if (d.text == ".func")
      return (void)fail(d.line, "device function (.func) in the PTX: every function must be "
                                "inlined into a hardened kernel");
    if (d.text == ".global")
      return (void)fail(d.line, "module-scope .global variable: writable storage shared by "
                                "every launch of a cached module");
    if (d.text == ".local")
      return (void)fail(d.line, "module-scope .local variable");
    if (d.text == ".shared" || d.text == ".const")
      return parseVariable(isExtern);
    fail(d.line, "directive '" + std::string(d.text) + "' is not allowed at module scope");
  }

  // .pragma "nounroll"; or .pragma "used_bytes_mask 0x...";: the two strings LLVM
  // emits. Others change how ptxas compiles (e.g. "enable_smem_spilling") and
  // are refused (found by review, R3-F6).
  void parsePragma() {
    uint32_t line = cur().line;
    ++I;
    if (!isKind(Token::String))
      return (void)fail(line, "expected a string after .pragma");
    std::string_view v = cur().text.substr(1, cur().text.size() - 2);
    bool ok = v == "nounroll";
    if (hasPrefix(v, "used_bytes_mask 0x") && v.size() > 18 && v.size() <= 26)
      ok = std::all_of(v.begin() + 18, v.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    if (!ok)
      return (void)fail(line, "pragma " + std::string(cur().text) + " is not allowed");
    ++I;
    expect(";");
  }

  /// Module-scope .shared / .const variable up to its ';'.
  void parseVariable(bool isExtern, bool inBody = false) {
    uint32_t line = cur().line;
    Space space = cur().text == ".shared" ? Space::Shared : Space::Const;
    size_t from = ++I;
    std::string_view name;
    bool unsized = false, init = false;
    while (!atEnd() && !is(";") && !is("=")) {
      const Token &t = cur();
      if (isName())
        name = t.text;
      else if (t.text == "[" && I + 1 < Toks.size() && Toks[I + 1].text == "]")
        unsized = true;
      else if (!(t.kind == Token::Number || t.text == "[" || t.text == "]" ||
                 (t.kind == Token::Ident && t.text.front() == '.')))
        return (void)fail(t.line, "unexpected '" + std::string(t.text) + "' in a variable");
      ++I;
    }
    if (is("=")) {
      init = true;
      ++I;
      while (!atEnd() && !is(";")) {
        const Token &t = cur();
        if (!(t.kind == Token::Number || isName() || t.text == "{" || t.text == "}" ||
              t.text == "," || t.text == "(" || t.text == ")" || t.text == "+" || t.text == "-"))
          return (void)fail(t.line, "unexpected '" + std::string(t.text) + "' in an initialiser");
        ++I;
      }
    }
    if (space == Space::Shared && !account(line, from, I, inBody ? KernelShared : ModuleShared,
                                           kMaxStaticShared, "static shared memory"))
      return;
    if (!expect(";"))
      return;
    if (name.empty())
      return (void)fail(line, "variable without a name");
    if (!isPtxIdentifier(name))
      return (void)fail(line, "variable name '" + std::string(name) +
                                  "' is not a valid PTX identifier");
    if (space == Space::Shared && init)
      return (void)fail(line, ".shared variable with an initialiser");
    if (isExtern && !(space == Space::Shared && unsized))
      return (void)fail(line, "external variable other than the dynamic shared array");
    if (Exp.globals) {
      auto spaces = GlobalIndex.find(name);
      bool known = spaces != GlobalIndex.end();
      bool match = known && (spaces->second & (1u << unsigned(space)));
      if (!known)
        return (void)fail(line, "variable '" + std::string(name) +
                                    "' is not a global of the hardened module");
      if (!match)
        return (void)fail(line, "variable '" + std::string(name) +
                                    "' is in another state space than in the hardened module");
    }
  }

  void parseEntry(bool isExtern) {
    uint32_t line = cur().line;
    ++I; // .entry
    if (!isName())
      return (void)fail(line, "expected a kernel name after .entry");
    std::string name(cur().text);
    ++I;
    if (!isPtxIdentifier(name))
      return (void)fail(line, "entry name '" + name + "' is not a valid PTX identifier");
    // One lookup per entry (review R10-F1: a search of the list per entry was
    // quadratic in the kernels).
    auto found = ExpIndex.find(name);
    if (found == ExpIndex.end())
      return (void)fail(line, "entry '" + name + "' is not a kernel hardened by atoll-mem");
    const ExpectedEntry *it = found->second;
    if (!Seen.insert(name).second)
      return (void)fail(line, "entry '" + name + "' is defined twice");
    if (isExtern)
      return (void)fail(line, "external entry '" + name + "'");

    // Parameters: (.param <type directives> name[, ...])
    std::vector<std::vector<std::string_view>> params;
    if (is("(")) {
      ++I;
      params.emplace_back();
      while (!atEnd() && !is(")")) {
        const Token &t = cur();
        if (t.text == ",") {
          params.emplace_back();
        } else if (t.kind == Token::Ident || t.kind == Token::Number || t.text == "[" ||
                   t.text == "]") {
          params.back().push_back(t.text);
        } else {
          return (void)fail(t.line, "unexpected '" + std::string(t.text) + "' in parameters");
        }
        ++I;
      }
      if (!expect(")"))
        return;
      if (params.size() == 1 && params[0].empty())
        params.clear();
    }
    for (auto &p : params)
      if (p.empty() || p.front() != ".param")
        return (void)fail(line, "entry '" + name + "': malformed parameter list");
    size_t expected = size_t(it->tenantParams) + Exp.hiddenParams;
    if (params.size() != expected)
      return (void)fail(line, "entry '" + name + "' has " + std::to_string(params.size()) +
                                  " parameters, expected " + std::to_string(expected) + " (" +
                                  std::to_string(it->tenantParams) + " plus " +
                                  std::to_string(Exp.hiddenParams) +
                                  " hidden): it was not hardened");
    for (size_t k = it->tenantParams; k < expected; ++k) {
      // .param .u64 name, or a 64-bit pointer: .param .u64 .ptr [.global] [.align N] name
      const auto &p = params[k];
      bool ok = p.size() >= 3 && (p[1] == ".u64" || p[1] == ".b64" || p[1] == ".s64");
      size_t j = 2;
      if (ok && p.size() > 3) {
        ok = p[j++] == ".ptr";
        if (ok && j < p.size() && p[j] == ".global")
          ++j;
        if (ok && j + 1 < p.size() && p[j] == ".align")
          j += 2;
        ok = ok && j + 1 == p.size();
      }
      ok = ok && p.back().front() != '.' && p.back().front() != '%';
      if (!ok)
        return (void)fail(line, "entry '" + name + "': hidden parameter " +
                                    std::to_string(k - it->tenantParams) +
                                    " is not a plain 64-bit parameter");
    }

    // Performance directives, then the body.
    while (!atEnd() && !is("{") && !Err) {
      const Token &t = cur();
      if (t.text == ".maxntid" || t.text == ".reqntid" || t.text == ".minnctapersm" ||
          t.text == ".maxnreg") {
        ++I;
        if (!expectKind(Token::Number, "a number"))
          return;
        while (is(",") && !Err) {
          ++I;
          expectKind(Token::Number, "a number");
        }
      } else if (t.text == ".noreturn") {
        ++I;
      } else if (t.text == ".pragma") {
        parsePragma();
      } else if (t.text == ";") {
        return (void)fail(t.line, "entry '" + name + "' without a body");
      } else {
        return (void)fail(t.line, "directive '" + std::string(t.text) +
                                      "' is not allowed on an entry");
      }
    }
    if (Err || !expect("{"))
      return;
    KernelShared = KernelLocal = 0;
    parseBody();
    MaxKernelShared = std::max(MaxKernelShared, KernelShared);
  }

  void parseBody() {
    int depth = 1;
    while (!atEnd() && !Err) {
      const Token &t = cur();
      if (t.text == "}") {
        ++I;
        if (--depth == 0)
          return;
        continue;
      }
      if (t.text == "{") {
        ++I;
        ++depth;
        continue;
      }
      // label:
      if (isName() && I + 1 < Toks.size() && Toks[I + 1].text == ":") {
        I += 2;
        continue;
      }
      if (t.kind == Token::Ident && t.text.front() == '.') {
        if (t.text == ".loc") {
          return (void)fail(t.line, "debug information ('.loc') is not allowed (the "
                                    "toolchain strips it)");
        } else if (t.text == ".pragma") {
          parsePragma();
        } else if (t.text == ".reg" || t.text == ".local") {
          // .reg .b32 %r<12>;  .local .align 8 .b8 __local_depot0[40];
          bool local = t.text == ".local";
          uint32_t declLine = t.line;
          size_t from = ++I;
          while (!atEnd() && !is(";")) {
            const Token &u = cur();
            if (!(u.kind == Token::Ident || u.kind == Token::Number || u.text == "<" ||
                  u.text == ">" || u.text == "," || u.text == "[" || u.text == "]"))
              return (void)fail(u.line, "unexpected '" + std::string(u.text) + "' in " +
                                            std::string(t.text));
            ++I;
          }
          // One bound for a kernel's .local depots (R5-F4): the configured budget
          // (the pass's frame limit; the driver reserves local memory for every
          // resident thread), never above the hardware's 512 KiB per thread.
          if (local && !account(declLine, from, I, KernelLocal, localLimit(),
                                "local memory per thread"))
            return;
          expect(";");
        } else if (t.text == ".shared") {
          // A static shared variable that only this kernel uses ("demoted" into the
          // function by the backend): the same rules as at module scope.
          parseVariable(/*isExtern=*/false, /*inBody=*/true);
        } else if (t.text == ".param") {
          return (void)fail(t.line, "parameter declaration inside a body (a call sequence)");
        } else {
          return (void)fail(t.line,
                            "directive '" + std::string(t.text) + "' is not allowed in a body");
        }
        continue;
      }
      parseInstruction();
    }
    if (!Err)
      fail(curLine(), "unterminated function body");
  }

  void parseInstruction() {
    uint32_t line = cur().line;
    if (is("@")) {
      ++I;
      if (is("!"))
        ++I;
      if (!isKind(Token::Ident) || cur().text.front() != '%')
        return (void)fail(line, "expected a predicate register after '@'");
      ++I;
    }
    if (!isKind(Token::Ident) || cur().text.front() == '.' || cur().text.front() == '%')
      return (void)fail(line, "expected an instruction");
    std::string_view opcode = cur().text;
    ++I;
    std::vector<std::string> operands;
    std::string operand;
    int nest = 0;
    bool any = false, prevWord = false;
    while (!atEnd() && !(nest == 0 && is(";"))) {
      const Token &t = cur();
      // Two words in a row (no operator or comma between) are no operand: a
      // missing ';' would otherwise glue the next statement into this one.
      bool word = t.kind != Token::Punct;
      if (word && prevWord)
        return (void)fail(t.line, "expected ';' or an operator before '" + std::string(t.text) +
                                      "'");
      prevWord = word;
      if (t.text == "(" || t.text == "[" || t.text == "{")
        ++nest;
      else if (t.text == ")" || t.text == "]" || t.text == "}")
        --nest;
      if (nest < 0)
        return (void)fail(t.line, "unbalanced brackets");
      if (t.kind == Token::Ident && t.text.front() == '.' && nest == 0)
        return (void)fail(t.line, "unexpected directive in an instruction");
      if (t.text == "," && nest == 0) {
        operands.push_back(std::move(operand));
        operand.clear();
      } else {
        operand += t.text;
        any = true;
      }
      ++I;
    }
    if (!expect(";"))
      return;
    if (any || !operands.empty())
      operands.push_back(std::move(operand));
    if (std::string why = checkInstruction(opcode, operands); !why.empty())
      fail(line, why);
  }
};

} // namespace

std::optional<Violation> validate(std::string_view ptx, const Expectation &expected) {
  return Validator(ptx, expected).run();
}

} // namespace Atoll::ptx
