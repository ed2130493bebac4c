#!/usr/bin/env python3
"""Checks the host-side rule of docs/architecture.md ("Driver calls that wait") in the
runtime's sources: the driver calls that wait for every running kernel of the shared
context appear only where the design puts them.

- cuModuleUnload, cuMemFree, cuMemFreeHost, cuMemHostUnregister: only inside a task queued on the
  process-wide reclaimer (within a few lines after `reclaim(`), which makes them in
  quiet sections (runtime/DeviceActivity.h: no kernel runs, launches held);
- cuDevicePrimaryCtxRelease (the last release destroys the context): the same, or
  right after cuDevicePrimaryCtxReset (a reset context runs nothing);
- cuModuleLoadData* and cuModuleGetFunction (where a lazy load happens): only while
  the function holds a quiet section: in RuntimeState::loadModule (the loader
  thread) after its `waitQuiet(`, or in a function that takes the section as a
  parameter (`QuietSection` in its signature: only a holder can call it, e.g. the
  driver-side module check, cuda/ModuleCheck.cpp);
- cuGreenCtxCreate (SM partitions, like other context-level calls it may wait) and
  cuCtxSetLimit (a stack-size change waits for the device): only after a
  `waitQuiet(` in the same function (a quiet section);
  cuGreenCtxDestroy: only on the reclaimer, like the unloads;
- cuLaunchKernel: only while a DeviceActivity::LaunchPass is held (within a few
  lines after it), so that no kernel starts during a quiet section;
- cuCtxSynchronize, cuStreamSynchronize, cuEventSynchronize, cuCtxDestroy,
  cuLibrary*, and synchronous copies and memsets (cuMemcpy*/cuMemset* without
  Async: they run on the legacy stream and wait for it): nowhere.

Usage: check-driver-waits.py <runtime dir>   (exit 1 and one line per violation)
       check-driver-waits.py --self-test     (the checker must catch planted calls)
"""
import pathlib
import re
import sys

CALL = re.compile(r"\b(?:api|api_)\s*(?:->|\.)\s*(cu\w+)\s*\(")
# A top-level function definition starts at column 0: "<type> <name>(" (not a
# statement, a declaration of a type or a preprocessor line).
FUNCTION = re.compile(r"^(?!(?:return|if|for|while|switch|namespace|struct|class|using|"
                      r"template|typedef|static_assert)\b)(?:[\w:<>,*&~]+\s+)*?[*&]*"
                      r"(~?[A-Za-z_][\w:~]*)\s*\(")
RECLAIMED = {"cuModuleUnload", "cuMemFree", "cuMemFreeHost", "cuMemHostUnregister",
             "cuGreenCtxDestroy"}
QUIET_ONLY = {"cuGreenCtxCreate", "cuCtxSetLimit"}
LOADS = {"cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoad", "cuModuleLoadFatBinary",
         "cuModuleGetFunction"}
FORBIDDEN = {"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize", "cuCtxDestroy"}
RECLAIM_WINDOW = 3
PASS_WINDOW = 4


def violations(name, text):
    lines = text.splitlines()
    out = []
    function = ""
    quiet = False  # waitQuiet( seen in the current function
    takes_quiet = False  # the current function takes a QuietSection parameter
    for i, line in enumerate(lines):
        m = FUNCTION.match(line)
        if m:
            function = m.group(1)
            quiet = False
            params = ""  # the parameter list, up to the body's opening brace
            for k, rest in enumerate(lines[i:i + 8]):
                params += (rest[m.end():] if k == 0 else rest).split("//")[0]
                if "{" in rest or rest.rstrip().endswith(";"):
                    break
            takes_quiet = "QuietSection" in params
        if "waitQuiet(" in line:
            quiet = True
        for call in CALL.findall(line):
            if line.lstrip().startswith("//"):
                continue
            where = f"{name}:{i + 1}: {call}"
            sync_copy = call.startswith(("cuMemcpy", "cuMemset")) and not call.endswith("Async")
            if call in FORBIDDEN or call.startswith("cuLibrary") or sync_copy:
                out.append(f"{where} waits for running kernels and must not be used")
            elif call in RECLAIMED:
                window = lines[max(0, i - RECLAIM_WINDOW):i + 1]
                if not any("reclaim(" in w for w in window):
                    out.append(f"{where} waits for running kernels: only on the reclaim "
                               "thread (RuntimeState::reclaim)")
            elif call == "cuDevicePrimaryCtxRelease":
                window = lines[max(0, i - RECLAIM_WINDOW):i + 1]
                if not any("reclaim(" in w or "cuDevicePrimaryCtxReset" in w for w in window):
                    out.append(f"{where} may destroy the context, which waits for running "
                               "kernels: only on the reclaimer or after a reset")
            elif call in QUIET_ONLY:
                if not quiet:
                    out.append(f"{where} may wait for running kernels: only after waitQuiet( "
                               "(a quiet section on the loader thread)")
            elif call in LOADS and takes_quiet:
                continue  # the caller holds the quiet section it passes
            elif call in LOADS and function != "RuntimeState::loadModule":
                out.append(f"{where} waits for running kernels: only in "
                           "RuntimeState::loadModule (the loader thread) or in a function "
                           "that takes its QuietSection")
            elif call in LOADS and not quiet:
                out.append(f"{where} waits for running kernels: only after waitQuiet( "
                           "(a quiet section)")
            elif call == "cuLaunchKernel":
                window = lines[max(0, i - PASS_WINDOW):i + 1]
                if not any("LaunchPass" in w for w in window):
                    out.append(f"{where} must hold a DeviceActivity::LaunchPass (no kernel "
                               "starts during a quiet section)")
    return out


def check(root):
    out = []
    for path in sorted(pathlib.Path(root).rglob("*.cpp")):
        out += violations(str(path.relative_to(root)), path.read_text())
    return out


def self_test():
    bad = """void ArenaPool::trim() {
  api.cuMemFree(p);
}
Result<X> RuntimeState::loadApplication() {
  api->cuModuleLoadDataEx(&m, ptx, 0, nullptr, nullptr);
}
void f() { api->cuMemFreeHost(p); api->cuStreamSynchronize(s); api->cuLibraryUnload(l); }
Result<X> RuntimeState::loadModule(int k) {
  api->cuModuleLoadDataEx(&m, ptx, 0, nullptr, nullptr);
}
Status PipelineImpl::launch() {
  api->cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, p, nullptr);
}
RuntimeState::~RuntimeState() {
  api->cuDevicePrimaryCtxRelease(device);
  api->cuCtxDestroy(c);
  api.cuMemcpyDtoH(h, d, 4);
}
Status checkLoadedModule(const DriverApi &api, CUmodule module,
                         const std::vector<KernelInfo> &kernels) {
  api.cuModuleGetFunction(&f, module, "k");
}
std::optional<DeviceActivity::QuietSection> DeviceActivity::tryQuiet(int g) {
  api.cuModuleGetFunction(&f, module, "k");
void PartitionManager::create(P *p) {
  api.cuGreenCtxCreate(&g, desc, dev, 1);
  api->cuGreenCtxDestroy(g);
}
Status RuntimeState::reserveLocalMemory() {
  api->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, n);
}
"""
    good = """void g() {
  state->reclaim([api] {
    api->cuModuleUnload(m);
  });
}
Result<X> RuntimeState::loadModule(int k) {
  auto quiet = waitQuiet("load");
  api->cuModuleLoadDataEx(&m, ptx, 0, nullptr, nullptr);
  api->cuModuleGetFunction(&f, m, "k");
}
Status PipelineImpl::launch() {
  {
    DeviceActivity::LaunchPass pass(a);
    r = api->cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, p, nullptr);
  }
}
RuntimeState::~RuntimeState() {
  reclaim([api = api, dev = device] { api->cuDevicePrimaryCtxRelease(dev); });
  api->cuDevicePrimaryCtxReset(device);
  api->cuDevicePrimaryCtxRelease(device);
}
Status checkLoadedModule(const DeviceActivity::QuietSection &, const DriverApi &api,
                         CUmodule module, const std::vector<KernelInfo> &kernels) {
  api.cuModuleGetFunction(&f, module, "k");
void PartitionManager::create(P *p) {
  auto quiet = state_.waitQuiet("create");
  api.cuGreenCtxCreate(&g, desc, dev, 1);
  state_.reclaim([api = api_, g] { api->cuGreenCtxDestroy(g); });
}
Status RuntimeState::reserveLocalMemory() {
  auto quiet = waitQuiet("reserve");
  api->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, n);
}
"""
    found = violations("bad.cpp", bad)
    expected = ["cuMemFree", "cuModuleLoadDataEx", "cuMemFreeHost", "cuStreamSynchronize",
                "cuLibraryUnload", "cuModuleLoadDataEx", "cuLaunchKernel",
                "cuDevicePrimaryCtxRelease", "cuCtxDestroy", "cuMemcpyDtoH", "cuModuleGetFunction",
                "cuModuleGetFunction", "cuGreenCtxCreate", "cuGreenCtxDestroy",
                "cuCtxSetLimit"]
    ok = len(found) == len(expected) and all(e in f for e, f in zip(expected, found))
    ok = ok and violations("good.cpp", good) == []
    print("self-test", "passed" if ok else f"FAILED: {found}")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    print(f"check-driver-waits: {len(problems)} violation(s)")
    sys.exit(1 if problems else 0)
