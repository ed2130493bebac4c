// Offline mode (no GPU; runs in CI): every module of the catalog is compiled and
// hardened for sm_90 in each clamping mode, exactly as the runtime would:
//  - an attack expected to be refused must be refused, with its reason substring in
//    the diagnostics;
//  - every other attack and every control must compile to PTX that has each
//    launched kernel as an .entry, contains no trap, assembles with ptxas (when one
//    is available) and whose kernel signatures accept the catalog's arguments.
// Both compilers below run the PTX validator on every module (the toolchain after
// code generation, the runtime before loading), so a benign kernel the validator
// refuses fails here.
// With the shared-LLVM build the toolchain is called directly
// (Atoll::toolchain::compile); a build with LLVM linked statically into the runtime
// (ATOLL_LLVM_STATIC=ON) compiles through a compile-only Atoll::Runtime instead, so
// that this binary carries no second copy of LLVM.
#include "Harness.h"

#include "atoll/runtime.h"

#ifdef ATOLL_ATTACKS_HAVE_TOOLCHAIN
#include "atoll/toolchain/Toolchain.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#endif

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace AtollAttacks {
namespace {

struct CompileOutcome {
  enum class Status { Loaded, Refused, Error };
  Status status = Status::Error;
  std::string code; // "refused", "compile-error", "invalid-bitcode", ...
  std::string message;
  std::string detail;
  std::string ptx;
  std::vector<Atoll::KernelInfo> kernels;
  double ms = 0;
  // Filled lazily for modules that must load:
  bool ptxasDone = false;
  std::string ptxasError; // "" = assembled (or no ptxas)
};

class Compiler {
public:
  virtual ~Compiler() = default;
  virtual std::string name() const = 0;
  virtual CompileOutcome compile(const std::vector<uint8_t> &bytes, Atoll::Clamping mode,
                                 unsigned optLevel) = 0;
};

#ifdef ATOLL_ATTACKS_HAVE_TOOLCHAIN
class ToolchainCompiler : public Compiler {
public:
  explicit ToolchainCompiler(std::string libdevice) : libdevice_(std::move(libdevice)) {}
  std::string name() const override { return "Atoll::toolchain::compile (in-process)"; }
  CompileOutcome compile(const std::vector<uint8_t> &bytes, Atoll::Clamping mode,
                         unsigned optLevel) override {
    namespace tc = Atoll::toolchain;
    CompileOutcome out;
    tc::CompileOptions opts;
    opts.Mode = mode == Atoll::Clamping::MaskBased ? Atoll::ClampingMode::MaskBased
                                                   : Atoll::ClampingMode::ModuloBased;
    opts.GpuArch = "sm_90";
    opts.OptLevel = optLevel;
    opts.LibdevicePath = libdevice_;
    llvm::MemoryBufferRef ref(
        llvm::StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()), "module");
    auto r = tc::compile(ref, opts);
    if (!r) {
      llvm::handleAllErrors(
          r.takeError(),
          [&](const tc::ToolchainError &e) {
            out.status = e.kind() == tc::FailureKind::Refused ? CompileOutcome::Status::Refused
                                                              : CompileOutcome::Status::Error;
            switch (e.kind()) {
            case tc::FailureKind::Refused: out.code = "refused"; break;
            case tc::FailureKind::InvalidInput: out.code = "invalid-bitcode"; break;
            case tc::FailureKind::WrongTarget: out.code = "wrong-target"; break;
            case tc::FailureKind::CompileError: out.code = "compile-error"; break;
            }
            out.message = e.message();
            out.detail = e.diagnostics();
          },
          [&](const llvm::ErrorInfoBase &e) {
            out.status = CompileOutcome::Status::Error;
            out.code = "error";
            out.message = e.message();
          });
      return out;
    }
    out.status = CompileOutcome::Status::Loaded;
    out.ptx = std::move(r->ptx);
    out.kernels = std::move(r->kernels);
    return out;
  }

private:
  std::string libdevice_;
};
#endif

/// Through a compile-only runtime (the same toolchain, inside libatoll_runtime).
class RuntimeCompiler : public Compiler {
public:
  explicit RuntimeCompiler(std::unique_ptr<Atoll::Runtime> rt) : rt_(std::move(rt)) {}
  std::string name() const override { return "Atoll::Runtime (compile-only)"; }
  CompileOutcome compile(const std::vector<uint8_t> &bytes, Atoll::Clamping mode,
                         unsigned optLevel) override {
    CompileOutcome out;
    Atoll::AppOptions ao;
    ao.clamping = mode;
    ao.optLevel = optLevel;
    auto app = rt_->loadApplication(std::span<const uint8_t>(bytes.data(), bytes.size()), ao);
    if (!app) {
      const Atoll::Error &e = app.error();
      out.status = e.code() == Atoll::ErrorCode::Refused ? CompileOutcome::Status::Refused
                                                         : CompileOutcome::Status::Error;
      out.code = std::string(Atoll::to_string(e.code()));
      out.message = e.message();
      out.detail = e.detail();
      return out;
    }
    out.status = CompileOutcome::Status::Loaded;
    out.ptx = (*app)->ptx();
    out.kernels = (*app)->kernels();
    return out;
  }

private:
  std::unique_ptr<Atoll::Runtime> rt_;
};

/// "" when the argument list is what the runtime's launch validation accepts.
std::string checkArgs(const Atoll::KernelInfo &k, const std::vector<ArgSpec> &args) {
  if (k.params.size() != args.size())
    return "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) +
           " arguments, the catalog passes " + std::to_string(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Atoll::ParamInfo &p = k.params[i];
    const ArgSpec &a = args[i];
    auto bad = [&](const std::string &why) {
      return "kernel '" + k.name + "' argument " + std::to_string(i) + " (" + p.type +
             "): the catalog passes " + a.describe() + ": " + why;
    };
    using K = ArgSpec::Kind;
    bool isBuffer = a.kind == K::AtkBuf || a.kind == K::AtkTail || a.kind == K::CtlBuf ||
                    a.kind == K::Null;
    uint32_t intSize = 0;
    switch (a.kind) {
    case K::Int: intSize = a.size; break;
    case K::AtkTailWords: intSize = 4; break;
    case K::ArenaWords:
    case K::VictimAddr:
    case K::VictimDelta:
    case K::VictimXor: intSize = 8; break;
    default: break;
    }
    switch (p.kind) {
    case Atoll::ParamKind::Pointer:
      if (!isBuffer)
        return bad("a pointer parameter takes a buffer (or null)");
      break;
    case Atoll::ParamKind::Scalar:
      if (!p.type.empty() && p.type[0] == '<') {
        if (a.kind != K::Bytes || a.size != p.size)
          return bad("a vector parameter takes " + std::to_string(p.size) + " bytes");
      } else if (p.isFloat) {
        if (a.kind != K::Float || a.size != p.size)
          return bad("a float parameter of " + std::to_string(p.size) + " bytes");
      } else if (intSize != p.size) {
        return bad("an integer parameter of " + std::to_string(p.size) + " bytes");
      }
      break;
    case Atoll::ParamKind::ByVal:
      if (a.kind != K::Bytes || a.size != p.size)
        return bad("a byval parameter of " + std::to_string(p.size) + " bytes");
      break;
    }
  }
  return {};
}

/// Lines of the PTX that trap (a hardened kernel must never trap).
std::string findTrap(const std::string &ptx) {
  std::istringstream in(ptx);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos)
      continue;
    std::string s = line.substr(b);
    if (s[0] == '@') { // predicate guard
      size_t sp = s.find_first_of(" \t");
      if (sp == std::string::npos)
        continue;
      s = s.substr(s.find_first_not_of(" \t", sp));
    }
    if (s.rfind("trap", 0) == 0 || s.rfind("brkpt", 0) == 0)
      return "PTX line " + std::to_string(n) + ": " + s;
  }
  return {};
}

std::string runPtxas(const std::string &ptxas, const std::string &ptx) {
  char tmpl[] = "/tmp/atoll-attacks-XXXXXX.ptx";
  int fd = mkstemps(tmpl, 4);
  if (fd < 0)
    return {}; // cannot check: not a failure of the module
  {
    std::ofstream f(tmpl);
    f << ptx;
  }
  close(fd);
  std::string cmd = "'" + ptxas + "' -arch=sm_90 -o /dev/null '" + tmpl + "' 2>&1";
  std::string output;
  int rc = -1;
  if (FILE *p = popen(cmd.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p))
      output += buf;
    rc = pclose(p);
  }
  std::remove(tmpl);
  if (rc == 0)
    return {};
  return "ptxas rejected the hardened PTX: " + firstLine(output, 400);
}

std::string modeKey(const std::string &module, Atoll::Clamping c, unsigned opt) {
  return module + "|" + clampingName(c) + "|O" + std::to_string(opt);
}

} // namespace

int runOffline(const Options &o, Report &report) {
  std::unique_ptr<Compiler> compiler;
#ifdef ATOLL_ATTACKS_HAVE_TOOLCHAIN
  compiler = std::make_unique<ToolchainCompiler>(o.libdevice);
#else
  {
    Atoll::RuntimeOptions ro;
    ro.compileOnly = true;
    ro.targetArch = "sm_90";
    ro.libdevicePath = o.libdevice;
    auto rt = Atoll::Runtime::create(ro);
    if (!rt) {
      std::fprintf(stderr, "atoll-attacks: cannot create a compile-only runtime: %s\n",
                   rt.error().describe().c_str());
      return 2;
    }
    compiler = std::make_unique<RuntimeCompiler>(std::move(*rt));
  }
#endif
  report.set("mode", "offline (compile + harden for sm_90, no GPU)");
  report.set("compiler", compiler->name());
  report.set("bitcode", o.bitcodeDir);
  report.set("ptxas", o.ptxas.empty() ? "not used" : o.ptxas);

  std::map<std::string, CompileOutcome> cache;
  std::map<std::string, std::vector<uint8_t>> modules;
  std::map<std::string, std::string> moduleErrors;
  auto outcome = [&](const std::string &module, Atoll::Clamping c,
                     unsigned opt) -> CompileOutcome * {
    if (!modules.count(module) && !moduleErrors.count(module)) {
      std::string err;
      auto bytes = readModule(o, module, err);
      if (!err.empty())
        moduleErrors[module] = err;
      else
        modules[module] = std::move(bytes);
    }
    if (moduleErrors.count(module))
      return nullptr;
    std::string key = modeKey(module, c, opt);
    auto it = cache.find(key);
    if (it == cache.end()) {
      auto t0 = std::chrono::steady_clock::now();
      CompileOutcome r = compiler->compile(modules[module], c, opt);
      r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                 .count();
      it = cache.emplace(key, std::move(r)).first;
    }
    return &it->second;
  };
  auto ptxasCheck = [&](CompileOutcome &r) {
    if (!r.ptxasDone) {
      r.ptxasDone = true;
      if (!o.ptxas.empty())
        r.ptxasError = runPtxas(o.ptxas, r.ptx);
    }
    return r.ptxasError;
  };
  auto describe = [](const CompileOutcome &r) {
    switch (r.status) {
    case CompileOutcome::Status::Loaded:
      return "compiled: " + std::to_string(r.kernels.size()) + " kernel(s), " +
             std::to_string(r.ptx.size() / 1024) + " KiB PTX";
    case CompileOutcome::Status::Refused:
      return (r.message.rfind("refused", 0) == 0 ? "" : "refused: ") + firstLine(r.message, 200);
    case CompileOutcome::Status::Error: return r.code + ": " + firstLine(r.message, 200);
    }
    return std::string("?");
  };
  /// Checks one loadable module against the launches; "" when fine.
  auto checkLoaded = [&](CompileOutcome &r, const std::vector<Launch> &launches,
                         std::vector<std::string> &details) {
    std::string problem;
    for (const Launch &l : launches) {
      const Atoll::KernelInfo *k = nullptr;
      for (const Atoll::KernelInfo &d : r.kernels)
        if (d.name == l.kernel)
          k = &d;
      if (!k) {
        problem = "kernel '" + l.kernel + "' is not in the module";
        break;
      }
      if (std::string e = checkArgs(*k, l.args); !e.empty()) {
        problem = e;
        break;
      }
      if (!contains(r.ptx, ".entry " + l.kernel + "(")) {
        problem = "the PTX has no .entry " + l.kernel;
        break;
      }
    }
    if (problem.empty())
      if (std::string t = findTrap(r.ptx); !t.empty())
        problem = "the hardened PTX traps: " + t;
    if (problem.empty())
      problem = ptxasCheck(r);
    if (!problem.empty())
      details.push_back(problem);
    return problem;
  };

  for (Atoll::Clamping c : o.clampings) {
    for (const Control &ctl : controls()) {
      if (!selectedControl(o, ctl))
        continue;
      Result res;
      res.name = ctl.name;
      res.category = "control";
      res.kind = "control";
      res.clamping = clampingName(c);
      res.phase = "offline";
      res.expected = "compiles";
      CompileOutcome *r = outcome(ctl.module, c, 2);
      if (!r) {
        res.verdict = Verdict::Fail;
        res.observed = moduleErrors[ctl.module];
      } else {
        res.ms = r->ms;
        res.observed = describe(*r);
        if (r->status != CompileOutcome::Status::Loaded) {
          res.verdict = Verdict::Fail;
          res.details.push_back("a benign control must compile: " + firstLine(r->message, 300));
          if (!r->detail.empty())
            res.details.push_back(firstLine(r->detail, 300));
        } else {
          Launch l;
          l.kernel = ctl.kernel;
          l.args = ctl.args;
          std::string p =
              checkLoaded(*r, {l}, res.details);
          res.verdict = p.empty() ? Verdict::Pass : Verdict::Fail;
          if (!p.empty())
            res.observed = firstLine(p, 200);
          else if (!o.ptxas.empty())
            res.observed += ", ptxas ok";
        }
      }
      report.add(std::move(res));
    }
    for (const Attack &a : attacks()) {
      if (!selected(o, a.name, a.category))
        continue;
      Result res;
      res.name = a.name;
      res.category = a.category;
      res.kind = "attack";
      res.clamping = clampingName(c);
      res.phase = "offline";
      res.expected = expectedText(a);
      CompileOutcome *r = outcome(a.module, c, a.optLevel);
      bool met = false;
      if (!r) {
        res.observed = moduleErrors[a.module];
      } else {
        res.ms = r->ms;
        res.observed = describe(*r);
        if (a.expect == Expect::Refused) {
          std::string all = r->message + "\n" + r->detail;
          if (r->status != CompileOutcome::Status::Refused) {
            res.details.push_back("expected a refusal, got: " + describe(*r));
            if (!r->detail.empty())
              res.details.push_back(firstLine(r->detail, 300));
          } else if (!contains(all, a.reason)) {
            res.details.push_back("refused, but the diagnostics lack \"" + a.reason + "\"");
            res.details.push_back("diagnostics: " + firstLine(r->detail.empty() ? r->message
                                                                                : r->detail,
                                                              300));
          } else {
            met = true;
            // The refusal names where: show the line that carries the reason.
            std::istringstream in(all);
            std::string line;
            while (std::getline(in, line))
              if (contains(line, a.reason)) {
                res.details.push_back(firstLine(line, 300));
                break;
              }
          }
        } else if (r->status != CompileOutcome::Status::Loaded) {
          res.details.push_back("expected to compile (contained at run time), got: " +
                                describe(*r));
          if (!r->detail.empty())
            res.details.push_back(firstLine(r->detail, 300));
        } else {
          std::string p =
              checkLoaded(*r, a.launches, res.details);
          met = p.empty();
          if (!met)
            res.observed = firstLine(p, 200);
          else if (!o.ptxas.empty())
            res.observed += ", ptxas ok";
        }
      }
      if (!a.xfail.empty()) {
        res.verdict = met ? Verdict::XPass : Verdict::XFail;
        res.details.push_back("known issue: " + a.xfail);
      } else {
        res.verdict = met ? Verdict::Pass : Verdict::Fail;
      }
      report.add(std::move(res));
    }
  }
  return report.count(Verdict::Fail) ? 1 : 0;
}

} // namespace AtollAttacks
