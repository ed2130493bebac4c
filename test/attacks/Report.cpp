// The result table, the summary and the JSON file of atoll-attacks; shared helpers.
#include "Harness.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace AtollAttacks {

const char *toString(Verdict v) {
  switch (v) {
  case Verdict::Pass: return "PASS";
  case Verdict::Fail: return "FAIL";
  case Verdict::XFail: return "XFAIL";
  case Verdict::XPass: return "XPASS";
  case Verdict::Skip: return "SKIP";
  }
  return "?";
}

std::string clampingName(Atoll::Clamping c) {
  return c == Atoll::Clamping::MaskBased ? "mask" : "modulo";
}

std::string expectedText(const Attack &a) {
  if (a.expect == Expect::Refused)
    return "refused (\"" + a.reason + "\")";
  if (!a.launchRefusal.empty())
    return "launch refused (\"" + a.launchRefusal + "\")";
  if (a.timeoutMs)
    return "contained + Timeout";
  if (a.fuel)
    return "contained + FuelExhausted";
  return "contained";
}

std::string firstLine(const std::string &s, size_t n) {
  std::string l = s.substr(0, s.find('\n'));
  if (l.size() > n)
    l = l.substr(0, n - 3) + "...";
  return l;
}

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

bool selected(const Options &o, const std::string &name, const std::string &category) {
  if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), name) == o.only.end())
    return false;
  if (!o.categories.empty() &&
      std::find(o.categories.begin(), o.categories.end(), category) == o.categories.end())
    return false;
  return true;
}

bool selectedAttack(const Options &o, const Attack &a) {
  if (!selected(o, a.name, a.category))
    return false;
  if (o.memcheckSafe &&
      (a.expect != Expect::Contained || a.timeoutMs || a.neverEnds || a.showTime))
    return false;
  return true;
}

bool selectedControl(const Options &o, const Control &c) {
  return selected(o, c.name, "control");
}

std::vector<uint8_t> readModule(const Options &o, const std::string &module, std::string &error) {
  std::string path = o.bitcodeDir + "/" + module + ".bc";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + " (build the atoll-attack-kernels target, or pass "
            "--bitcode-dir / set ATOLL_ATTACKS_BITCODE_DIR)";
    return {};
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty())
    error = path + " is empty";
  return bytes;
}

void Report::add(Result r) { results_.push_back(std::move(r)); }

size_t Report::count(Verdict v) const {
  return size_t(std::count_if(results_.begin(), results_.end(),
                              [&](const Result &r) { return r.verdict == v; }));
}

static std::string cut(const std::string &s, size_t n) {
  if (s.size() <= n)
    return s;
  return s.substr(0, n - 3) + "...";
}

void Report::printTable(std::FILE *out, bool verbose) const {
  if (!info_.empty()) {
    for (const auto &[k, v] : info_)
      std::fprintf(out, "%-22s %s\n", (k + ":").c_str(), v.c_str());
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "%-30s %-11s %-6s %-10s %-34s %-6s %s\n", "ATTACK", "CATEGORY", "MODE",
               "PHASE", "EXPECTED", "VERDICT", "OBSERVED");
  std::fprintf(out, "%s\n", std::string(150, '-').c_str());
  for (const Result &r : results_) {
    std::fprintf(out, "%-30s %-11s %-6s %-10s %-34s %-6s %s\n", cut(r.name, 30).c_str(),
                 cut(r.category, 11).c_str(), r.clamping.c_str(), r.phase.c_str(),
                 cut(r.expected, 34).c_str(), toString(r.verdict), cut(r.observed, 110).c_str());
    if (verbose || r.verdict == Verdict::Fail || r.verdict == Verdict::XFail ||
        r.verdict == Verdict::XPass)
      for (const std::string &d : r.details)
        std::fprintf(out, "    | %s\n", d.c_str());
  }
  std::fprintf(out, "%s\n", std::string(150, '-').c_str());
}

void Report::printSummary(std::FILE *out) const {
  for (const std::string &n : notes_)
    std::fprintf(out, "note: %s\n", n.c_str());
  size_t attacksRun = 0, controlsRun = 0;
  for (const Result &r : results_)
    (r.kind == "control" ? controlsRun : attacksRun)++;
  std::fprintf(out,
               "atoll-attacks: %zu results (%zu attack runs, %zu control runs): %zu passed, "
               "%zu FAILED, %zu xfail (known issues), %zu xpass, %zu skipped\n",
               results_.size(), attacksRun, controlsRun, count(Verdict::Pass),
               count(Verdict::Fail), count(Verdict::XFail), count(Verdict::XPass),
               count(Verdict::Skip));
  if (count(Verdict::Fail)) {
    std::fprintf(out, "FAILED:");
    for (const Result &r : results_)
      if (r.verdict == Verdict::Fail)
        std::fprintf(out, " %s[%s/%s]", r.name.c_str(), r.clamping.c_str(), r.phase.c_str());
    std::fprintf(out, "\n");
  }
  if (count(Verdict::XPass))
    std::fprintf(out, "XPASS: an expectation marked as a known issue is met now; remove its "
                      "xfail mark in test/attacks/AttackCatalog.cpp\n");
}

bool Report::writeJson(const std::string &path, const std::string &mode) const {
  using nlohmann::ordered_json;
  ordered_json j = {{"tool", "atoll-attacks"}, {"mode", mode}};
  j["info"] = ordered_json::object();
  for (const auto &[k, v] : info_)
    j["info"][k] = v;
  j["notes"] = notes_;
  j["summary"] = {{"results", results_.size()},       {"passed", count(Verdict::Pass)},
                  {"failed", count(Verdict::Fail)},   {"xfail", count(Verdict::XFail)},
                  {"xpass", count(Verdict::XPass)},   {"skipped", count(Verdict::Skip)}};
  j["results"] = ordered_json::array();
  for (const Result &r : results_)
    j["results"].push_back({{"name", r.name},
                            {"category", r.category},
                            {"kind", r.kind},
                            {"clamping", r.clamping},
                            {"phase", r.phase},
                            {"expected", r.expected},
                            {"observed", r.observed},
                            {"verdict", toString(r.verdict)},
                            {"ms", r.ms},
                            {"details", r.details}});
  std::ofstream f(path);
  // Invalid UTF-8 in a message (a tenant's names) is replaced, never thrown.
  f << j.dump(2, ' ', false, ordered_json::error_handler_t::replace) << "\n";
  return bool(f);
}

} // namespace AtollAttacks
