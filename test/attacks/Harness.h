// atoll-attacks: options, results and the two modes (Offline.cpp, GpuSuite.cpp).
#pragma once

#include "Catalog.h"

#include "atoll/application.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace AtollAttacks {

struct Options {
  enum class Mode { Auto, Offline, Gpu };
  Mode mode = Mode::Auto;
  bool list = false;
  std::vector<std::string> only;       // exact attack/control names
  std::vector<std::string> categories; // categories ("control" selects the controls)
  std::string json;                    // write machine-readable results here
  std::string bitcodeDir;              // resolved by main()
  std::vector<Atoll::Clamping> clampings{Atoll::Clamping::MaskBased,
                                         Atoll::Clamping::ModuloBased};
  bool memcheckSafe = false;  // controls + contained attacks that end by themselves only
  bool concurrent = true;     // GPU: the two-tenants-at-once phase
  bool runInfinite = false;   // no effect: never-ending attacks always run (cancelled)
  std::string ptxas;          // offline: assemble the PTX with this ptxas ("" = don't)
  std::string libdevice;      // "" = the toolchain's default
  uint32_t timeoutMs = 10000; // GPU: pipeline timeout for everything but timeout attacks
  bool verbose = false;
};

enum class Verdict { Pass, Fail, XFail, XPass, Skip };
const char *toString(Verdict v);

struct Result {
  std::string name;
  std::string category;
  std::string kind;     // "attack" or "control"
  std::string clamping; // "mask" / "modulo"
  std::string phase;    // "offline", "sequential", "concurrent"
  std::string expected; // "refused (<reason>)", "contained", "exact result"
  std::string observed; // one line
  Verdict verdict = Verdict::Pass;
  std::vector<std::string> details; // evidence, one item per line
  double ms = 0;
};

class Report {
public:
  void add(Result r);
  std::vector<Result> &results() { return results_; }
  /// Free-form facts for the header and the JSON ("device", "runtime stats", ...).
  void set(const std::string &key, const std::string &value) { info_[key] = value; }
  void note(const std::string &line) { notes_.push_back(line); }
  size_t count(Verdict v) const;
  void printTable(std::FILE *out, bool verbose) const;
  void printSummary(std::FILE *out) const;
  bool writeJson(const std::string &path, const std::string &mode) const;

private:
  std::vector<Result> results_;
  std::map<std::string, std::string> info_;
  std::vector<std::string> notes_;
};

bool selected(const Options &o, const std::string &name, const std::string &category);
bool selectedAttack(const Options &o, const Attack &a);
bool selectedControl(const Options &o, const Control &c);

std::string clampingName(Atoll::Clamping c);
std::string expectedText(const Attack &a);
/// The bitcode of a module (kernels/<module>.bc), or an error message in `error`.
std::vector<uint8_t> readModule(const Options &o, const std::string &module, std::string &error);
/// First line of s, at most n characters.
std::string firstLine(const std::string &s, size_t n = 140);
/// True when haystack contains needle (exact, case-sensitive).
bool contains(const std::string &haystack, const std::string &needle);

/// Offline mode: compile and harden everything, check refusals and signatures.
/// Returns the process exit code (0 = all as expected).
int runOffline(const Options &o, Report &report);

/// GPU mode. Returns 0 (all as expected), 1 (failures) or 77 (no usable GPU: the
/// reason is printed; only when `skipIfNoDevice`).
int runGpu(const Options &o, Report &report, bool &noDevice);

} // namespace AtollAttacks
