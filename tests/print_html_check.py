#!/usr/bin/python3
"""The HTML handout as a browser sees it: renders `proofdeck print --format html` in headless
Chromium (Debian's `chromium`), reads back the DOM it built and checks its structure — one
section per topic, questions numbered 1..N, an inline <svg> for every proof figure, the answer
key, no <script>, nothing fetched from a network — then prints it to PDF and checks that it
paginates (a page per topic, the key on pages of its own). Prints "skipped" and exits 0 when
Chromium is not installed.

usage: print_html_check.py PROOFDECK_BINARY
"""

import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Dom(html.parser.HTMLParser):
    """Collects the elements of interest with their ancestry."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, attrs) of open elements
        self.elements = []  # (tag, attrs, ancestors' (tag, attrs))
        self.text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs, list(self.stack)))
        if tag not in ("br", "meta", "link", "img", "input", "hr", "rect", "line", "circle",
                       "polyline", "path"):
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), list(self.stack)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.text.append(data)


def classes(attrs):
    return (attrs.get("class") or "").split()


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)


def check_dom(dom_text, expected_topics, appendix, problems, label):
    dom = Dom()
    dom.feed(dom_text)
    topics = [e for e in dom.elements if e[0] == "section" and "topic" in classes(e[1])]
    if len(topics) != expected_topics:
        problems.append(f"{label}: {len(topics)} topic sections, expected {expected_topics}")
    numbers = [e for e in dom.elements if e[0] == "span" and "qnum" in classes(e[1])]
    questions = [e for e in dom.elements if e[0] == "article" and "question" in classes(e[1])]
    if not questions:
        problems.append(f"{label}: no questions")
    ids = [e[1].get("id") for e in questions]
    if ids != [f"q{n}" for n in range(1, len(questions) + 1)]:
        problems.append(f"{label}: questions are not numbered 1..N: {ids[:5]}…")
    if len(numbers) != len(questions):
        problems.append(f"{label}: {len(numbers)} numbers for {len(questions)} questions")
    keys = [e for e in dom.elements if e[0] == "section" and "answer-key" in classes(e[1])]
    if appendix and len(keys) != 1:
        problems.append(f"{label}: expected one answer key, found {len(keys)}")
    if appendix:
        entries = [e for e in dom.elements if e[0] == "article" and "key-entry" in classes(e[1])]
        if len(entries) != len(questions):
            problems.append(f"{label}: {len(entries)} key entries for {len(questions)} questions")
    # Every proof figure is an inline SVG inside its proof.
    proofs = [e for e in dom.elements if e[0] == "div" and "proof" in classes(e[1])]
    if not proofs:
        problems.append(f"{label}: no proofs")
    for tag, attrs, _ in proofs:
        expected = int(attrs.get("data-figures", "-1"))
        drawn = 0
        for t, a, ancestors in dom.elements:
            if t == "svg" and ({"heatmap", "chart"} & set(classes(a))) and any(
                    anc is not None and anc[1] is attrs for anc in ancestors):
                drawn += 1
        if drawn != expected:
            problems.append(f"{label}: proof {attrs.get('id')} has {drawn} figures, "
                            f"says {expected}")
    for tag, attrs, _ in dom.elements:
        if tag in ("script", "iframe", "object", "embed", "link", "img"):
            problems.append(f"{label}: a <{tag}> element")
        for name, value in attrs.items():
            if value and re.match(r"\s*(https?:|//|javascript:)", value) and name != "xmlns":
                problems.append(f"{label}: <{tag} {name}=\"{value}\"> refers outside the file")
            if name.startswith("on"):
                problems.append(f"{label}: an event handler <{tag} {name}>")
    style = dom_text[dom_text.find("<style"):dom_text.find("</style>")]
    if re.search(r"url\(|@import", style):
        problems.append(f"{label}: the stylesheet loads something")


def pdf_pages(pdf_path):
    data = open(pdf_path, "rb").read()
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    proofdeck = sys.argv[1]
    chromium = find_chromium()
    if chromium is None:
        print("skipped: chromium is not installed")
        return 0
    problems = []
    with tempfile.TemporaryDirectory(prefix="proofdeck-html-") as tmp:
        cases = [
            ("three topics, study sheet", ["--topic", "multi-head", "--topic", "rope",
                                           "--topic", "layer-norm"], "inline", 3),
            ("every built-in question, worksheet with key", [], "appendix", 14),
        ]
        for label, filters, answers, topics in cases:
            page = os.path.join(tmp, f"{answers}.html")
            made = run([proofdeck, "print", "--format", "html", "--answers", answers, "--seed",
                        "7", "--output", page] + filters)
            if made.returncode != 0:
                problems.append(f"{label}: proofdeck print failed: {made.stderr.strip()}")
                continue
            profile = os.path.join(tmp, f"profile-{answers}")
            base = [chromium, "--headless", "--disable-gpu", "--no-sandbox",
                    "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}"]
            dumped = run(base + ["--dump-dom", "file://" + page])
            if dumped.returncode != 0 or "<html" not in dumped.stdout:
                print(f"skipped: chromium could not render ({dumped.returncode}): "
                      f"{dumped.stderr.strip()[:300]}")
                return 0
            check_dom(dumped.stdout, topics, answers == "appendix", problems, label)
            pdf = os.path.join(tmp, f"{answers}.pdf")
            printed = run(base + ["--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                                  "file://" + page])
            if printed.returncode != 0 or not os.path.exists(pdf):
                problems.append(f"{label}: print to PDF failed: {printed.stderr.strip()[:300]}")
                continue
            pages = pdf_pages(pdf)
            # A page per topic at least, and the key on pages of its own.
            least = topics + (1 if answers == "appendix" else 0)
            if pages < least:
                problems.append(f"{label}: {pages} PDF pages, expected at least {least}")
            print(f"ok: {label}: {topics} topic sections, {pages} pages")
    for problem in problems:
        print("FAIL:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
