#!/usr/bin/python3
"""Writable static storage in proofdeck's libraries, held to an allow-list.

State no signature shows (a thread-local fault, a process-wide cache) is where a run's result can
come to depend on what ran before it. This check lists every object the libraries keep in
writable static storage and fails on any the ALLOWED list below does not name, each entry saying
why it must be static; so the list holds the engine's one run context (docs/ARCHITECTURE.md, "The
run context") and what a POSIX signal handler needs, and nothing from src/demo or src/study's
runs: what runs share is owned by the object that lends it (bank::DemoRunner, the readiness
forms' owner).

What counts: the symbols `nm -C --defined-only` lists with types b, B, d, D (zero-initialised and
initialised data, thread-local ones included) in the static libraries given. Aside: guard
variables, vtables and typeinfo, the compiler's and the libraries' own (std::, fmt::, nlohmann::,
Eigen::, CLI::, a compiler's switch tables), and objects the source declares const or constexpr:
a table or a compiled regular expression sits in writable memory until its first use
initialises it, and is never written again. For a symbol whose last name is NAME, the sources
must declare it `static const ... NAME` (or constexpr) in a function, or begin a line with
`const ... NAME` (or constexpr) at namespace scope.

usage: static_storage_check.py SOURCE_DIR LIBRARY.a...
       static_storage_check.py --self-test SOURCE_DIR LIBRARY.a...
Exit 0 when every symbol is allowed or constant, 1 naming each one that is not (and allow-list
entries that match nothing, so the list shrinks as the code does); --self-test plants an unlisted
mutable static and a stale allow-list entry and exits 0 only if both are reported.
"""

import os
import re
import subprocess
import sys

# (pattern on the demangled name, why it must be static)
ALLOWED = [
    (r"^proofdeck::engine::current_context$",
     "the engine's run context, one per thread (engine/run_context.hpp)"),
    (r"^proofdeck::study::\(anonymous namespace\)::g_(interrupted|continued|previous_int|"
     r"previous_term)$",
     "what the SIGINT/SIGTERM/SIGCONT handlers record and restore: a signal handler has no "
     "argument to be given an object by (src/study/input.cpp)"),
]

SKIP = re.compile(r"^(guard variable for|vtable for|typeinfo for|typeinfo name for|VTT for|"
                  r"construction vtable for|std::|fmt::|nlohmann::|Eigen::|CLI::|__|_GLOBAL_|"
                  r"\.L|TLS init function|TLS wrapper function|switch\.table\.)")


def symbols(library):
    out = subprocess.run(["nm", "-C", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in ("b", "B", "d", "D"):
            yield parts[2]


def last_name(symbol):
    """`ns::f(int, char const*)::table` → `table`; `ns::kFaults` → `kFaults`."""
    depth, cut = 0, 0
    for i, c in enumerate(symbol):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif c == ":" and depth == 0 and symbol[i:i + 2] == "::":
            cut = i + 2
    return symbol[cut:].split(" ")[0].split("[")[0]


def declared_constant(source, symbol):
    # A function's static: `static const std::regex name(`, `static constexpr ... name{`. An
    # object at namespace scope: a line that begins `const ... name` or `constexpr ... name`.
    # Either way the const or constexpr and the name are one declaration (no `;`, brace or
    # parenthesis between them).
    name = re.escape(last_name(symbol))
    if ")::" in symbol.replace("(anonymous namespace)::", ""):
        pattern = r"\bstatic\s+(const|constexpr)\b[^;{}()]*?\b" + name + r"\s*[({=\[;]"
    else:
        pattern = r"(?m)^\s*(inline\s+)?(const|constexpr)\b[^;{}()]*?\b" + name + r"\s*[({=\[;]"
    return re.search(pattern, source) is not None


def read_sources(folders):
    text = []
    for folder in folders:
        for root, _, files in os.walk(folder):
            for f in files:
                if f.endswith((".cpp", ".hpp", ".cmake")):  # cmake/ writes generated sources
                    with open(os.path.join(root, f), encoding="utf-8") as handle:
                        text.append(handle.read())
    return "\n".join(text)


def check(source, libraries, allowed):
    problems, used = [], set()
    for library in libraries:
        for name in sorted(set(symbols(library))):
            if SKIP.match(name):
                continue
            for index, (pattern, _) in enumerate(allowed):
                if re.search(pattern, name):
                    used.add(index)
                    break
            else:
                if declared_constant(source, name):
                    continue
                problems.append(f"{os.path.basename(library)}: writable static storage `{name}`: "
                                f"give it to the object a run is given, or say why it must be "
                                f"static in tests/static_storage_check.py's ALLOWED")
    for index, (pattern, why) in enumerate(allowed):
        if index not in used:
            problems.append(f"allow-list entry matches nothing now, remove it: {pattern} ({why})")
    return problems, used


def main(argv):
    self_test = argv[1:2] == ["--self-test"]
    args = argv[2:] if self_test else argv[1:]
    if len(args) < 2:
        print(__doc__.split("usage: ")[1].split("\n\n")[0], file=sys.stderr)
        return 2
    root, libraries = args[0], args[1:]
    source = read_sources([os.path.join(root, d) for d in ("src", "engine", "cmake")])
    if self_test:
        # The run context's declaration hidden and a stale entry added: both must be reported.
        planted = source.replace("constinit thread_local RunContext current_context",
                                 "thread_local RunContext current_context")
        stale = [(r"^proofdeck::nowhere$", "planted")]
        problems, _ = check(planted, libraries, ALLOWED[1:] + stale)
        found_mutable = any("current_context" in p for p in problems)
        found_stale = any("proofdeck::nowhere" in p for p in problems)
        print(f"planted mutable static reported: {found_mutable}; stale entry reported: "
              f"{found_stale}")
        return 0 if found_mutable and found_stale else 1
    problems, used = check(source, libraries, ALLOWED)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"ok: {len(used)} allowed kinds of writable static storage, nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
