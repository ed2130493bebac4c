// atoll-attacks: the adversarial isolation suite of AToLL (issue 7).
//
//   atoll-attacks                 GPU mode if a device is usable, else offline
//   atoll-attacks --offline       compile + harden every attack and control (CI)
//   atoll-attacks --gpu           GPU mode; exit 77 (SKIPPED) without a device
//   atoll-attacks --list          the catalog
//
// Exit status: 0 everything as expected; 1 a breach, leak, wrong result, context
// error or wrong expectation; 2 usage or setup error; 77 --gpu without a GPU.
#include "Harness.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ATOLL_ATTACKS_BITCODE_DIR
#define ATOLL_ATTACKS_BITCODE_DIR ""
#endif
#ifndef ATOLL_ATTACKS_PTXAS
#define ATOLL_ATTACKS_PTXAS ""
#endif

using namespace AtollAttacks;

namespace {

const char *kUsage = R"(usage: atoll-attacks [mode] [options]

modes:
  (none)               GPU mode when a CUDA device is usable, else offline mode
  --offline            compile and harden every attack and control for sm_90 (no GPU):
                       refusals must carry their reason, the rest must compile to PTX
                       that assembles and matches the catalog's arguments
  --gpu                run the suite on the GPU; exits 77 (skipped) without a device
  --list               print the catalog (attacks, controls, expectations) and exit

options:
  --only NAME[,NAME]   run only these attacks/controls (repeatable)
  --category CAT[,..]  run only these categories ("control" = the benign controls)
  --clamping MODE      mask, modulo or both (default both)
  --memcheck-safe      only the controls and the contained attacks that end by
                       themselves (for compute-sanitizer); implies --no-concurrent.
                       Alias: --only-contained
  --no-concurrent      skip the two-tenants-at-once phase (GPU)
  --run-infinite       accepted for compatibility: never-ending attacks always run (cancelled)
  --timeout-ms N       pipeline timeout for normal attacks (default 10000; raise it
                       under compute-sanitizer)
  --json FILE          write machine-readable results
  --bitcode-dir DIR    where <module>.bc live (default: $ATOLL_ATTACKS_BITCODE_DIR, then
                       <exe>/../test/attacks/kernels, then the build-time directory)
  --ptxas PATH         offline: assemble the hardened PTX with this ptxas
  --no-ptxas           offline: do not run ptxas
  --libdevice FILE     libdevice.10.bc for the toolchain (default: the configured one)
  --verbose            print every result's details and progress
  --help
)";

bool isDir(const std::string &p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool isFile(const std::string &p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string exeDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return {};
  std::string p(buf, size_t(n));
  return p.substr(0, p.rfind('/'));
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

std::string joinNames(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

void printList(std::FILE *out) {
  std::fprintf(out, "%-30s %-11s %-22s %-10s %s\n", "NAME", "CATEGORY", "MODULE", "EXPECTED",
               "LAUNCHES / REASON");
  for (const Control &c : controls()) {
    std::string args;
    for (const ArgSpec &a : c.args)
      args += (args.empty() ? "" : ", ") + a.describe();
    std::fprintf(out, "%-30s %-11s %-22s %-10s %s<<<%u,%u,%u>>>(%s)\n", c.name.c_str(),
                 "control", c.module.c_str(), "exact", c.kernel.c_str(), c.grid.x * c.grid.y,
                 c.block.x * c.block.y * c.block.z, c.dynamicSharedBytes, args.c_str());
  }
  for (const Attack &a : attacks()) {
    std::string what;
    if (a.expect == Expect::Refused) {
      what = "\"" + a.reason + "\"";
    } else {
      for (const Launch &l : a.launches) {
        std::string args;
        for (const ArgSpec &s : l.args)
          args += (args.empty() ? "" : ", ") + s.describe();
        char shape[64];
        std::snprintf(shape, sizeof shape, "<<<%u,%u,%u>>>", l.grid.x * l.grid.y * l.grid.z,
                      l.block.x * l.block.y * l.block.z, l.dynamicSharedBytes);
        what += (what.empty() ? "" : "; ") +
                (l.role == Role::Attacker ? std::string() : std::string(toString(l.role)) + ": ") +
                l.kernel + shape + "(" + args + ")";
      }
      if (a.timeoutMs)
        what += " [timeout " + std::to_string(a.timeoutMs) + " ms]";
      if (a.neverEnds)
        what += " [never ends]";
    }
    if (!a.xfail.empty())
      what += " [xfail]";
    std::fprintf(out, "%-30s %-11s %-22s %-10s %s\n", a.name.c_str(), a.category.c_str(),
                 a.module.c_str(), std::string(toString(a.expect)).c_str(), what.c_str());
    std::fprintf(out, "%-30s   %s\n", "", a.description.c_str());
  }
  size_t refusedN = 0;
  std::set<std::string> cats;
  for (const Attack &a : attacks()) {
    refusedN += a.expect == Expect::Refused;
    cats.insert(a.category);
  }
  std::fprintf(out, "\n%zu attacks (%zu refused, %zu contained) in %zu categories; %zu controls\n",
               attacks().size(), refusedN, attacks().size() - refusedN, cats.size(),
               controls().size());
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string bitcodeDir, ptxas = ATOLL_ATTACKS_PTXAS;
  bool noPtxas = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *name) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "atoll-attacks: %s needs a value\n%s", name, kUsage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--offline") {
      o.mode = Options::Mode::Offline;
    } else if (a == "--gpu") {
      o.mode = Options::Mode::Gpu;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--only") {
      for (auto &n : splitList(value("--only")))
        o.only.push_back(n);
    } else if (a == "--category") {
      for (auto &n : splitList(value("--category")))
        o.categories.push_back(n);
    } else if (a == "--clamping") {
      std::string m = value("--clamping");
      if (m == "mask")
        o.clampings = {Atoll::Clamping::MaskBased};
      else if (m == "modulo")
        o.clampings = {Atoll::Clamping::ModuloBased};
      else if (m == "both")
        o.clampings = {Atoll::Clamping::MaskBased, Atoll::Clamping::ModuloBased};
      else {
        std::fprintf(stderr, "atoll-attacks: --clamping takes mask, modulo or both\n");
        return 2;
      }
    } else if (a == "--memcheck-safe" || a == "--only-contained") {
      o.memcheckSafe = true;
      o.concurrent = false;
    } else if (a == "--no-concurrent") {
      o.concurrent = false;
    } else if (a == "--run-infinite") {
      o.runInfinite = true;
    } else if (a == "--timeout-ms") {
      std::string v = value("--timeout-ms");
      char *end = nullptr;
      unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (!end || *end || n == 0 || n > 3600000) {
        std::fprintf(stderr, "atoll-attacks: --timeout-ms takes 1..3600000\n");
        return 2;
      }
      o.timeoutMs = uint32_t(n);
    } else if (a == "--json") {
      o.json = value("--json");
    } else if (a == "--bitcode-dir") {
      bitcodeDir = value("--bitcode-dir");
    } else if (a == "--ptxas") {
      ptxas = value("--ptxas");
    } else if (a == "--no-ptxas") {
      noPtxas = true;
    } else if (a == "--libdevice") {
      o.libdevice = value("--libdevice");
    } else if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else {
      std::fprintf(stderr, "atoll-attacks: unknown argument '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }

  std::vector<std::string> problems = validateCatalog();
  if (!problems.empty()) {
    std::fprintf(stderr, "atoll-attacks: the catalog is inconsistent:\n");
    for (const auto &p : problems)
      std::fprintf(stderr, "  %s\n", p.c_str());
    return 2;
  }
  // Unknown names in --only / --category are typos: say so instead of running nothing.
  {
    std::set<std::string> names, cats{"control"};
    for (const Attack &a : attacks()) {
      names.insert(a.name);
      cats.insert(a.category);
    }
    for (const Control &c : controls())
      names.insert(c.name);
    for (const auto &n : o.only)
      if (!names.count(n)) {
        std::fprintf(stderr, "atoll-attacks: --only: no attack or control named '%s' (see --list)\n",
                     n.c_str());
        return 2;
      }
    for (const auto &c : o.categories)
      if (!cats.count(c)) {
        std::fprintf(stderr, "atoll-attacks: --category: no category '%s' (have: %s)\n", c.c_str(),
                     joinNames(std::vector<std::string>(cats.begin(), cats.end())).c_str());
        return 2;
      }
  }
  if (o.list) {
    printList(stdout);
    return 0;
  }

  // Where the bitcode is.
  std::vector<std::string> candidates;
  if (!bitcodeDir.empty()) {
    candidates = {bitcodeDir};
  } else {
    if (const char *env = std::getenv("ATOLL_ATTACKS_BITCODE_DIR"); env && *env)
      candidates.push_back(env);
    if (std::string d = exeDir(); !d.empty())
      candidates.push_back(d + "/../test/attacks/kernels");
    candidates.push_back(ATOLL_ATTACKS_BITCODE_DIR);
  }
  for (const auto &c : candidates)
    if (isDir(c) && isFile(c + "/controls.bc")) {
      o.bitcodeDir = c;
      break;
    }
  if (o.bitcodeDir.empty()) {
    std::fprintf(stderr,
                 "atoll-attacks: no attack bitcode found (looked for controls.bc in: %s); build "
                 "the atoll-attack-kernels target or pass --bitcode-dir\n",
                 joinNames(candidates).c_str());
    return 2;
  }
  if (!noPtxas && isFile(ptxas) && access(ptxas.c_str(), X_OK) == 0)
    o.ptxas = ptxas;

  Report report;
  int rc = 0;
  std::string mode;
  bool tryGpu = o.mode != Options::Mode::Offline;
  bool noDevice = false;
  if (tryGpu) {
    mode = "gpu";
    rc = runGpu(o, report, noDevice);
    if (noDevice) {
      if (o.mode == Options::Mode::Gpu) {
        std::printf("[  SKIPPED ] atoll-attacks --gpu: no usable CUDA device (see the line "
                    "above); the offline part runs as 'atoll-attacks --offline'\n");
        return 77;
      }
      std::printf("atoll-attacks: no usable GPU: running the offline checks instead\n");
    }
  }
  if (!tryGpu || noDevice) {
    mode = "offline";
    rc = runOffline(o, report);
    if (rc == 2)
      return 2;
  }
  report.printTable(stdout, o.verbose);
  report.printSummary(stdout);
  if (!o.json.empty()) {
    if (!report.writeJson(o.json, mode)) {
      std::fprintf(stderr, "atoll-attacks: cannot write %s\n", o.json.c_str());
      return 2;
    }
    std::printf("results written to %s\n", o.json.c_str());
  }
  return rc;
}
