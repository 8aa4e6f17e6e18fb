#!/usr/bin/python3
"""The unity-build rule for internal names, checked: the files of one layer (src/<layer>/ or
engine/) are compiled in batches, several files one translation unit, so a name that two of its
files define in their anonymous namespaces — a helper function, a type, a constant, an alias —
would clash, or worse, one overload would quietly win over the other. No two files of a layer may
define the same internal name; a helper two files need lives once, in a header (docs/ARCHITECTURE.md,
"Unity builds").

What counts as a definition: at the top level of an anonymous namespace, the name a function is
defined under (the identifier before its parameter list), a struct, class, enum or union, a
`using` alias (the same alias of the same type in two files is allowed: it cannot clash), and a
variable or constant (the identifier before `=`, `{` or `;`). Comments,
strings and characters are skipped; a function's body is not looked into.

usage: unity_names_check.py SOURCE_DIR
Exit 0 when every name is defined by one file of its layer, 1 listing each clash.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from room_check import code_only  # noqa: E402  (comments, strings and characters blanked)

WORD = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"const", "constexpr", "static", "inline", "template", "typename", "unsigned",
            "signed", "long", "short", "int", "double", "float", "bool", "char", "void", "auto",
            "std", "operator", "return", "noexcept", "override", "final", "thread_local",
            "extern", "volatile", "mutable"}


def statements(body):
    """The top-level statements of a namespace's body: the text before each `;` or each
    brace-enclosed block at depth 0 (a function's body, a struct's members), with the kind of
    ending."""
    depth, start = 0, 0
    for i, c in enumerate(body):
        if c == "{":
            if depth == 0:
                yield body[start:i], "{"
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            yield body[start:i], ";"
            start = i + 1


def names_in(head, ending):
    """The name a top-level statement of an anonymous namespace defines, or None."""
    text = " ".join(head.split())
    text = re.sub(r"^template\s*<.*?>\s*", "", text)  # (no nested angle brackets needed here)
    if not text or text.startswith(("#", "using namespace", "static_assert", "namespace")):
        return None
    m = re.match(r"^(?:enum\s+(?:class|struct)\s+|struct\s+|class\s+|union\s+|enum\s+)([A-Za-z_]\w*)", text)
    if m:
        return m.group(1)
    m = re.match(r"^using\s+([A-Za-z_]\w*)\s*=\s*(.*)$", text)
    if m:  # an alias: the same alias of the same type in two files cannot clash
        return m.group(1) + " = " + m.group(2)
    if text.startswith("using "):  # a using-declaration names what another scope defines
        return None
    # A variable: the identifier before `=` or a brace initialiser, outside parentheses.
    paren = text.find("(")
    equals = text.find("=")
    if equals >= 0 and (paren < 0 or equals < paren):
        words = WORD.findall(text[:equals])
        return words[-1] if words else None
    if paren >= 0:
        # A function: the identifier right before its parameter list (operators aside).
        before = text[:paren].rstrip()
        if before.endswith(">"):  # operator<, a template's explicit arguments: not ours
            return None
        words = WORD.findall(before)
        if not words or words[-1] in KEYWORDS or "operator" in before:
            return None
        return words[-1]
    if ending in ";{":
        words = [w for w in WORD.findall(text) if w not in KEYWORDS]
        return words[-1] if words else None
    return None


def internal_names(path):
    """name → first line, for what the file's anonymous namespaces define."""
    with open(path, encoding="utf-8") as f:
        source = code_only(f.read())
    found = {}
    for m in re.finditer(r"\bnamespace\s*\{", source):
        depth, i = 1, m.end()
        while i < len(source) and depth:
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        body_start = m.end()
        body = source[body_start:i - 1]
        offset = 0
        for head, ending in statements(body):
            offset = body.find(head, offset) if head else offset
            name = names_in(head, ending)
            if name and name not in found:
                line = source.count("\n", 0, body_start + max(offset, 0)) + 1
                found[name] = line + head[: len(head) - len(head.lstrip())].count("\n")
    return found


def layers(root):
    out = [("engine", os.path.join(root, "engine"))]
    src = os.path.join(root, "src")
    for name in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, name)):
            out.append((f"src/{name}", os.path.join(src, name)))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    clashes = 0
    for layer, path in layers(root):
        owners = {}
        for file in sorted(os.listdir(path)):
            if not file.endswith(".cpp"):
                continue
            for name, line in internal_names(os.path.join(path, file)).items():
                owners.setdefault(name, []).append(f"{layer}/{file}:{line}")
        by_name = {}
        for key, places in owners.items():
            by_name.setdefault(key.split(" = ")[0], []).append((key, places))
        for name, keys in sorted(by_name.items()):
            places = [p for _, ps in keys for p in ps]
            if len(keys) == 1 and " = " in keys[0][0]:
                continue  # one alias, the same type wherever it is defined
            if len(places) > 1:
                clashes += 1
                print(f"{layer}: `{name}` is defined in the anonymous namespaces of "
                      f"{len(places)} files: {', '.join(places)} — give one of them another "
                      f"name, or move the helper to a header both include")
    if clashes:
        print(f"{clashes} internal name(s) defined twice in a layer (unity builds batch a "
              f"layer's files into one translation unit)")
        return 1
    print("ok: no internal name defined by two files of one layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
