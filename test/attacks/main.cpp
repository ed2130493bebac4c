// atoll-attacks: the adversarial isolation suite of AToLL (issue 7).
//
//   atoll-attacks                 GPU mode if a device is usable, else offline
//   atoll-attacks --offline       compile + harden every attack and control (CI)
//   atoll-attacks --gpu           GPU mode; exit 77 (SKIPPED) without a driver or device,
//                                 1 with a broken driver or under ATOLL_REQUIRE_GPU=1
//   atoll-attacks --list          the catalog
//
// Exit status: 0 everything as expected; 1 a breach, leak, wrong result, context
// error or wrong expectation; 2 usage or setup error; 77 --gpu without a GPU.
#include "Harness.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <cstring>
#include <set>
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

// What --help prints before and after CLI11's list of options.
const char *kModes = R"(atoll-attacks: the adversarial isolation suite of AToLL.

modes:
  (none)     GPU mode when a CUDA device is usable, else offline mode
  --offline  compile and harden every attack and control for sm_90 (no GPU): refusals
             must carry their reason, the rest must compile to PTX that assembles and
             matches the catalog's arguments
  --gpu      run the suite on the GPU; exits 77 (skipped) without a CUDA driver or
             device (1 under ATOLL_REQUIRE_GPU=1)
  --list     print the catalog (attacks, controls, expectations) and exit)";
const char *kFooter = R"(Exit status: 0 everything as expected; 1 a breach, leak, wrong result,
context error or wrong expectation; 2 usage or setup error; 77 --gpu without a GPU.)";

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

std::string joinNames(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

/// "N attacks (R refused, C contained) in K categories; M controls": in --list and
/// in every run's header, so that a committed log backs the figures quoted from it.
std::string catalogSize() {
  size_t refusedN = 0;
  std::set<std::string> cats;
  for (const Attack &a : attacks()) {
    refusedN += a.expect == Expect::Refused;
    cats.insert(a.category);
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu attacks (%zu refused, %zu contained) in %zu categories; %zu controls",
                attacks().size(), refusedN, attacks().size() - refusedN, cats.size(),
                controls().size());
  return buf;
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
      if (a.fuel)
        what += " [fuel " + std::to_string(a.fuel) + "]";
    }
    if (!a.xfail.empty())
      what += " [xfail]";
    std::fprintf(out, "%-30s %-11s %-22s %-10s %s\n", a.name.c_str(), a.category.c_str(),
                 a.module.c_str(), std::string(toString(a.expect)).c_str(), what.c_str());
    std::fprintf(out, "%-30s   %s\n", "", a.description.c_str());
  }
  std::fprintf(out, "\n%s\n", catalogSize().c_str());
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string bitcodeDir, ptxas = ATOLL_ATTACKS_PTXAS;
  bool noPtxas = false, offline = false, gpu = false;
  std::string clamping = "both";

  CLI::App app(kModes, "atoll-attacks");
  app.footer(kFooter);
  auto *offlineOpt = app.add_flag("--offline", offline, "offline mode (see above)");
  app.add_flag("--gpu", gpu, "GPU mode (see above)")->excludes(offlineOpt);
  app.add_flag("--list", o.list, "print the catalog and exit");
  app.add_option("--only", o.only, "run only these attacks/controls (NAME[,NAME]; repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--category", o.categories,
                 "run only these categories (\"control\" = the benign controls; repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--clamping", clamping, "mask, modulo or both (default both)")
      ->check(CLI::IsMember({"mask", "modulo", "both"}));
  app.add_flag("--memcheck-safe,--only-contained", o.memcheckSafe,
               "only the controls and the contained attacks that end by themselves (for "
               "compute-sanitizer); implies --no-concurrent");
  bool noConcurrent = false;
  app.add_flag("--no-concurrent", noConcurrent, "skip the two-tenants-at-once phase (GPU)");
  app.add_flag("--run-infinite", o.runInfinite,
               "accepted for compatibility: never-ending attacks always run (cancelled)");
  app.add_option("--timeout-ms", o.timeoutMs,
                 "pipeline timeout for normal attacks (default 10000; raise it under "
                 "compute-sanitizer)")
      ->check(CLI::Range(1u, 3600000u));
  app.add_option("--json", o.json, "write machine-readable results to FILE");
  app.add_option("--bitcode-dir", bitcodeDir,
                 "where <module>.bc live (default: $ATOLL_ATTACKS_BITCODE_DIR, then "
                 "<exe>/../test/attacks/kernels, then the build-time directory)");
  app.add_option("--ptxas", ptxas, "offline: assemble the hardened PTX with this ptxas");
  app.add_flag("--no-ptxas", noPtxas, "offline: do not run ptxas");
  app.add_option("--libdevice", o.libdevice,
                 "libdevice.10.bc for the toolchain (default: the configured one)");
  app.add_flag("-v,--verbose", o.verbose, "print every result's details and progress");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help exits 0; a usage error exits 2, as the scripts expect.
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (offline)
    o.mode = Options::Mode::Offline;
  else if (gpu)
    o.mode = Options::Mode::Gpu;
  if (clamping == "mask")
    o.clampings = {Atoll::Clamping::MaskBased};
  else if (clamping == "modulo")
    o.clampings = {Atoll::Clamping::ModuloBased};
  if (o.memcheckSafe || noConcurrent)
    o.concurrent = false;

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
  report.set("catalog", catalogSize());
  if (o.memcheckSafe) {
    // Under compute-sanitizer: say what is left out, and why.
    size_t refusedN = 0, timedN = 0;
    for (const Attack &a : attacks()) {
      refusedN += a.expect == Expect::Refused;
      timedN += a.expect != Expect::Refused && (a.timeoutMs || a.neverEnds);
    }
    report.set("memcheck-safe", "left out: " + std::to_string(refusedN) +
                                    " refused attacks (they launch nothing) and " +
                                    std::to_string(timedN) +
                                    " timeout/never-ending attacks (timed by the watchdog)");
  }
  int rc = 0;
  std::string mode;
  bool tryGpu = o.mode != Options::Mode::Offline;
  bool noDevice = false;
  if (tryGpu) {
    mode = "gpu";
    rc = runGpu(o, report, noDevice);
    if (noDevice) {
      if (o.mode == Options::Mode::Gpu) {
        std::printf("[  SKIPPED ] atoll-attacks --gpu: no CUDA driver/device (see the line "
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
