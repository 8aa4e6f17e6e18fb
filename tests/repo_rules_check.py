#!/usr/bin/python3
"""Budgets and rules of the repository that no compiler holds, checked:

- README.md is at most 600 lines (the front door: what proofdeck is, set-up, a tour, links);
- no source file in src/ or engine/ is over 900 lines (a file past that is a room to split);
- README.md, docs/ and questions/README.md name no absolute path of a clone, a home folder or a
  scratch folder (/home/..., /root/..., /tmp/..., /work/...; a reader's machine has none of
  them) and no issue number ("issue 12", "#12" after "issue"): they speak of the project alone.

usage: repo_rules_check.py SOURCE_DIR
       repo_rules_check.py --self-test   (plants one break of each rule in a scratch tree and
                                          passes only when each is named, and a clean tree passes)
Exit 0 when every rule holds, 1 naming each file and line that breaks one.
"""

import os
import re
import sys
import tempfile

README_LINES = 600
SOURCE_LINES = 900
# An absolute path into a home, a clone or a scratch folder: /home/x, /root/, /tmp/x, /work/x
# (not a URL's path, which follows a host name, and not /usr, /etc or /dev, which every reader has).
MACHINE_PATH = re.compile(r"(?<![\w.:/-])/(?:home|root|tmp|work|mnt|Users)/[\w.~-]")
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+|\bissue\s*#\d+", re.IGNORECASE)


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def documents(root):
    found = [os.path.join(root, "README.md"), os.path.join(root, "questions", "README.md")]
    for dirpath, _, files in os.walk(os.path.join(root, "docs")):
        found += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".md")]
    return [f for f in found if os.path.isfile(f)]


def sources(root):
    for top in ("src", "engine"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp", ".h")):
                    yield os.path.join(dirpath, f)


def problems_in(root):
    problems = []
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme) and len(lines_of(readme)) > README_LINES:
        problems.append(f"README.md: {len(lines_of(readme))} lines (at most {README_LINES}): "
                        "move detail to docs/ and link it")
    for path in sources(root):
        count = len(lines_of(path))
        if count > SOURCE_LINES:
            problems.append(f"{os.path.relpath(path, root)}: {count} lines (at most "
                            f"{SOURCE_LINES}): split it into rooms of their own")
    for path in documents(root):
        for number, line in enumerate(lines_of(path), 1):
            where = f"{os.path.relpath(path, root)}:{number}"
            if m := MACHINE_PATH.search(line):
                problems.append(f"{where}: a machine's path ({m.group(0)}…): write it relative "
                                "to the clone, or as a placeholder (<clone>, $HOME)")
            if m := ISSUE_NUMBER.search(line):
                problems.append(f"{where}: an issue number ({m.group(0)}): say what changed "
                                "instead")
    return problems


def self_test():
    """Each rule broken once in a scratch tree, and the same tree clean."""
    def write(root, path, text):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)

    def tree(root, broken):
        write(root, "README.md", "line\n" * (README_LINES + (1 if broken else 0)))
        write(root, "src/layer/long.cpp", "int x;\n" * (SOURCE_LINES + (1 if broken else 0)))
        write(root, "engine/op.hpp", "#pragma once\n")
        write(root, "docs/guide.md", "Clone it to /home/ada/proofdeck first.\n" if broken
              else "Clone it to <clone> first; https://example.org/tmp/x is a URL.\n")
        write(root, "questions/README.md", "Fixed in issue 12.\n" if broken
              else "Fixed when the loader learnt it.\n")

    expected = ["README.md: 601 lines", "src/layer/long.cpp: 901 lines",
                "docs/guide.md:1: a machine's path", "questions/README.md:1: an issue number"]
    failures = []
    with tempfile.TemporaryDirectory() as broken, tempfile.TemporaryDirectory() as clean:
        tree(broken, True)
        tree(clean, False)
        found = problems_in(broken)
        for start in expected:
            if not any(p.startswith(start) for p in found):
                failures.append(f"the planted break was not found: {start}")
        if len(found) != len(expected):
            failures.append(f"{len(found)} problems found, {len(expected)} planted: {found}")
        if problems_in(clean):
            failures.append(f"a clean tree reported: {problems_in(clean)}")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"ok: each of the {len(expected)} planted breaks named, a clean tree passes")
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print("usage: repo_rules_check.py SOURCE_DIR | --self-test", file=sys.stderr)
        return 2
    problems = problems_in(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} rule(s) broken")
        return 1
    print("ok: README, source file lengths, documents without machine paths or issue numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
