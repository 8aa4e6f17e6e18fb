#!/usr/bin/python3
"""The HTML handout as a browser sees it: renders `proofdeck print --format html` in headless
Chromium (Debian's `chromium`), reads back the DOM it built and checks its structure — one
section per topic, questions numbered 1..N, an inline <svg> for every proof figure, the answer
key, no <script>, nothing fetched from a network — then prints it to PDF and checks that it
paginates: on a study sheet each topic starts a page, on a worksheet the topics flow and the
20-question sheet an instructor prints (seed 3) fits 8 pages, 14 with its key; the key starts a
page, and no page is less than 40% full but one before a page-starting heading (the PDF's outline
says where each heading landed, its page streams how far down each page's marks reach). Then the layout, as a reader on a 768-pixel-wide window sees it, of the handouts and
of every demo's page (and an item analysis, `proofdeck analyze --format html`, at 768 and 1280
pixels): nothing sticks out of the page (a table too wide for it scrolls in its own
box), and a demo page's table of every value is collapsed below its figures. The layout is measured in a copy of the page with a script added
(proofdeck's pages carry none), which writes what it measured into the DOM that Chromium dumps.

Without Chromium it prints "skipped" and exits 0 on a developer's machine; under CI=true (as
.ci/run sets) a missing or broken Chromium is a failure: scripts/setup installs Debian's chromium.

usage: print_html_check.py PROOFDECK_BINARY
"""

import html as html_lib
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib


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


def unavailable(reason):
    """No browser: a skip on a developer's machine, a failure in CI."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        print(f"FAIL: {reason}; CI=true, so the HTML cannot go unchecked")
        return 1
    print(f"skipped: {reason}")
    return 0


# How long each kind of call took on this project's machine (2-core AMD EPYC, idle, 2026-12-02;
# the slowest of three runs), and the timeout each gets: five times that, so a loaded machine
# passes and a page a browser cannot print in reasonable time fails, saying what was slow.
MEASURED_SECONDS = {
    "proofdeck": 0.7,          # proofdeck print of the every-question worksheet with key
    "render": 2.2,             # Chromium --dump-dom of a handout
    "print": 7.4,              # Chromium --print-to-pdf of the every-question worksheet
    "layout": 2.5,             # Chromium laying out a handout at 768 pixels
    "demo layout": 0.7,        # the same for one demo's page
}


class Slow(Exception):
    """A call that took longer than its timeout: the message says which and how long."""


def run(args, kind, what):
    limit = max(5, round(5 * MEASURED_SECONDS[kind]))
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        raise Slow(f"{what}: no result after {limit} s (five times the "
                   f"{MEASURED_SECONDS[kind]} s it took on a 2-core machine)") from None


def check_dom(dom_text, expected_topics, appendix, problems, label, blank=False):
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
    if not proofs and not blank:
        problems.append(f"{label}: no proofs")
    if proofs and blank:
        problems.append(f"{label}: a blank worksheet shows {len(proofs)} proofs")
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


# Added to a copy of a page: measures the layout once the page is laid out at the window's width
# and writes the findings into <pre id="layout-report"> as JSON.
MEASURE = """<script>
(function () {
  var width = document.documentElement.clientWidth, found = [];
  function scroller(el) {
    for (var e = el.parentElement; e; e = e.parentElement)
      if (e.classList && e.classList.contains("table-scroll")) return e;
    return null;
  }
  var all = document.body.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i], box = el.getBoundingClientRect();
    if (!box.width || el.closest("details:not([open])")) continue;
    var held = scroller(el);
    if (held) continue;  // inside a box that scrolls on its own
    if (box.right > width + 1)
      found.push(el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
          ? "." + String(el.className).split(" ")[0] : "") + " ends at " + Math.round(box.right));
  }
  var scrolls = document.querySelectorAll(".table-scroll"), boxes = [];
  for (var j = 0; j < scrolls.length; j++) {
    var s = scrolls[j];
    boxes.push({overflows: s.scrollWidth > s.clientWidth + 1,
                scrollable: getComputedStyle(s).overflowX === "auto"});
  }
  var values = document.querySelectorAll("table.values"), collapsed = 0, open = 0;
  for (var k = 0; k < values.length; k++) {
    var d = values[k].closest("details");
    if (d && !d.open) collapsed++; else open++;
  }
  var report = {page: document.documentElement.scrollWidth, width: width,
                outside: found.slice(0, 5), outside_count: found.length, boxes: boxes,
                values_collapsed: collapsed, values_open: open,
                drawn: document.querySelectorAll("svg.heatmap, svg.chart").length};
  var pre = document.createElement("pre");
  pre.id = "layout-report";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
})();
</script>"""


def check_layout(chromium, page, base, label, problems, demo_page=False, window=768):
    with open(page, encoding="utf-8") as f:
        html = f.read()
    measured = page.replace(".html", ".measured.html")
    with open(measured, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", MEASURE + "\n</body>"))
    kind = "demo layout" if demo_page else "layout"
    try:
        dumped = run(base + [f"--window-size={window},1024", "--dump-dom", "file://" + measured],
                     kind, f"{label}: Chromium laying the page out at {window} pixels "
                     f"({os.path.getsize(page):,} bytes)")
    except Slow as slow:
        problems.append(str(slow))
        return
    match = re.search(r'<pre id="layout-report">(.*?)</pre>', dumped.stdout, re.S)
    if dumped.returncode != 0 or not match:
        problems.append(f"{label}: the layout could not be measured: {dumped.stderr.strip()[:200]}")
        return
    report = json.loads(html_lib.unescape(match.group(1)))
    if report["page"] > report["width"] + 1:
        problems.append(f"{label}: the page is {report['page']} pixels wide in a "
                        f"{report['width']}-pixel window")
    if report["outside_count"]:
        problems.append(f"{label}: {report['outside_count']} elements stick out of a "
                        f"{report['width']}-pixel window: {report['outside']}")
    for box in report["boxes"]:
        if box["overflows"] and not box["scrollable"]:
            problems.append(f"{label}: a table wider than its box does not scroll")
    if demo_page and report["drawn"] and report["values_open"]:
        problems.append(f"{label}: the table of every value is open above or beside the figures "
                        "(it belongs collapsed in a <details>)")


def check_analysis(proofdeck, chromium, tmp, problems):
    """`proofdeck analyze --format html` over a class of 30 exam reports (learner i answers each
    question with the first of the letters a–d, from the i-th on, that it accepts, true or false
    by turns, 1 to a number, a b c … to an order): one section per question, the histogram an
    inline <svg>, no script, and nothing sticking out at 768 or 1280 pixels."""
    reports = os.path.join(tmp, "class")
    os.makedirs(reports)
    data = os.path.join(tmp, "class-data")
    for learner in range(30):
        letters = "abcd"[learner % 4:] + "abcd"[:learner % 4]
        answers = "".join(f"{letter}\n{'t' if learner % 2 else 'f'}\n1\n" for letter in letters)
        answers += "a b c\na b c d\na b c d e\n"  # an order of three, four or five steps
        made = subprocess.run(
            [proofdeck, "exam", "--seed", "42", "--count", "12", "--data-dir", data, "--color",
             "never", "--report", os.path.join(reports, f"learner-{learner:02}.json")],
            input=answers * 12 + "submit\nyes\n", capture_output=True, text=True,
            timeout=max(5, round(5 * MEASURED_SECONDS["proofdeck"])))
        if made.returncode != 0:
            problems.append(f"analysis: exam for learner {learner} failed: {made.stderr[:200]}")
            return
    page = os.path.join(tmp, "analysis.html")
    made = run([proofdeck, "analyze", reports, "--output", page], "proofdeck", "proofdeck analyze")
    if made.returncode != 0:
        problems.append(f"analysis: proofdeck analyze failed: {made.stderr.strip()[:200]}")
        return
    with open(page, encoding="utf-8") as f:
        text = f.read()
    dom = Dom()
    dom.feed(text)
    sections = [e for e in dom.elements if e[0] == "section" and "question" in classes(e[1])]
    if len(sections) != 12:
        problems.append(f"analysis: {len(sections)} question sections, expected 12")
    if not any(e[0] == "svg" for e in dom.elements):
        problems.append("analysis: no histogram <svg>")
    for tag, attrs, _ in dom.elements:
        if tag in ("script", "iframe", "object", "embed", "link", "img"):
            problems.append(f"analysis: a <{tag}> element")
    base = browser(chromium, os.path.join(tmp, "profile-analysis"))
    for window in (768, 1280):
        check_layout(chromium, page, base, f"analysis at {window} pixels", problems,
                     window=window)


def demo_names(proofdeck):
    listed = run([proofdeck, "demo", "list", "--format", "json"], "proofdeck", "demo list")
    if listed.returncode == 0:
        try:
            return [d["name"] for d in json.loads(listed.stdout)]
        except (ValueError, KeyError, TypeError):
            pass
    return []


# --- The PDF as printed: how full each page is, and where the outline's headings land ----------
# Chromium writes an uncompressed object table with Flate-compressed page streams; this reads just
# enough of that to follow every mark a page draws (text, paths, images) through its transforms.

PDF_TOKEN = re.compile(rb"<<|>>|<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|\[|\]|/[^\s/\[\]<>()]+|"
                       rb"[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z*'\"]+")


def pdf_objects(data):
    return {int(m.group(1)): m.group(2)
            for m in re.finditer(rb"(\d+) 0 obj(.*?)endobj", data, re.S)}


def pdf_stream(obj):
    start, end = obj.find(b"stream"), obj.rfind(b"endstream")
    raw = obj[start + 6:end]
    raw = raw[2:] if raw.startswith(b"\r\n") else raw[1:]
    return zlib.decompress(raw) if b"/FlateDecode" in obj[:start] else raw


def pdf_page_order(objects):
    """The page objects' numbers in reading order (the page tree walked from its root)."""
    roots = [n for n, o in objects.items()
             if re.search(rb"/Type\s*/Pages", o) and b"/Parent" not in o]
    pages = []

    def walk(n):
        o = objects[n]
        if re.search(rb"/Type\s*/Pages", o):
            kids = re.search(rb"/Kids\s*\[(.*?)\]", o, re.S).group(1)
            for kid in re.findall(rb"(\d+) 0 R", kids):
                walk(int(kid))
        else:
            pages.append(n)

    for root in roots:
        walk(root)
    return pages


def page_fill(content):
    """How far down the printable area a page's lowest visible mark reaches, 0 to 1. The printable
    area is the page's first white rectangle (Chromium paints it before anything else)."""
    def times(a, b):  # a, then b
        return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
                a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]

    def y_of(m, x, y):
        return m[1] * x + m[3] * y + m[5]

    ctm, saved, operands, path = [1, 0, 0, 1, 0, 0], [], [], []
    text = line = [1, 0, 0, 1, 0, 0]
    white = False
    area = lowest = None
    depth = 0
    for token in PDF_TOKEN.findall(content):
        if token in (b"<<", b">>"):
            depth += 1 if token == b"<<" else -1
            continue
        if depth or token in (b"[", b"]") or token[:1] in (b"<", b"(", b"/"):
            operands.append(token)
            continue
        if re.match(rb"[-+.\d]", token):
            operands.append(float(token))
            continue
        n = [o for o in operands if isinstance(o, float)]
        operands = []
        marks = []
        if token == b"q":
            saved.append((ctm, white))
        elif token == b"Q" and saved:
            ctm, white = saved.pop()
        elif token == b"cm":
            ctm = times(n[-6:], ctm)
        elif token == b"rg":
            white = n[-3:] == [1.0, 1.0, 1.0]
        elif token == b"g":
            white = n[-1:] == [1.0]
        elif token == b"BT":
            text = line = [1, 0, 0, 1, 0, 0]
        elif token == b"Tm":
            text = line = n[-6:]
        elif token in (b"Td", b"TD"):
            text = line = times([1, 0, 0, 1, n[-2], n[-1]], line)
        elif token in (b"Tj", b"TJ", b"'", b'"'):
            marks = [y_of(times(text, ctm), 0, 0)]
        elif token == b"re":
            x, y, w, h = n[-4:]
            path += [y_of(ctm, x, y), y_of(ctm, x + w, y + h)]
        elif token in (b"m", b"l", b"c", b"v", b"y"):
            path.append(y_of(ctm, *n[-2:]))
        elif token == b"Do":
            marks = [y_of(ctm, 0, 0), y_of(ctm, 1, 1)]
        elif token in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s"):
            if path and token in (b"f", b"F", b"f*") and white:
                area = area or (max(path), min(path))
            else:
                marks = path
            path = []
        elif token == b"n":
            path = []
        if marks:
            lowest = min(marks) if lowest is None else min(lowest, *marks)
    if area is None:
        return None
    if lowest is None:
        return 0.0
    top, bottom = area
    return max(0.0, min(1.0, (top - lowest) / (top - bottom)))


def pdf_text(literal):
    """An outline title: a (literal) string or a <FEFF…> UTF-16 one."""
    if literal.startswith(b"<"):
        raw = bytes.fromhex(literal[1:-1].decode("ascii"))
        return raw[2:].decode("utf-16-be") if raw[:2] == b"\xfe\xff" else raw.decode("latin-1")
    body = re.sub(rb"\\([0-7]{1,3})", lambda m: bytes([int(m.group(1), 8)]), literal[1:-1])
    return re.sub(rb"\\(.)", rb"\1", body).decode("latin-1")


def pdf_layout(pdf_path):
    """Each page's fill (None when it cannot be measured) and the outline: (title, page index) for
    every heading Chromium bookmarked (--generate-pdf-document-outline)."""
    objects = pdf_objects(open(pdf_path, "rb").read())
    order = pdf_page_order(objects)
    index = {n: i for i, n in enumerate(order)}
    fills = []
    for n in order:
        contents = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", objects[n])
        streams = re.findall(rb"(\d+) 0 R", contents.group(1)) if contents else []
        fills.append(page_fill(b"\n".join(pdf_stream(objects[int(s)]) for s in streams)))
    outline = []
    for o in objects.values():
        title = re.search(rb"/Title\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]*>)", o)
        dest = re.search(rb"/Dest\s*\[\s*(\d+) 0 R", o)
        if title and dest and int(dest.group(1)) in index:
            outline.append((pdf_text(title.group(1)), index[int(dest.group(1))]))
    return fills, outline


def squeezed(text):
    """A heading as the outline has it: case (text-transform) and white space (line ends) dropped."""
    return re.sub(r"\s+", "", text).lower()


# A page less full than this is a defect unless the next page starts a topic (or the key), or it
# ends the document: a figure or stem pushed to the next page leaves less than half a page.
LEAST_FILL = 0.4


def check_pages(pdf, page_html, topics, appendix, label, problems, topic_pages):
    """Pages full, the key starting a page, and with `topic_pages` (a study sheet) each topic too.
    Returns the page count."""
    fills, outline = pdf_layout(pdf)
    headings = [html_lib.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(
        r'<section class="topic" id="topic-\d+">\s*<h2>(.*?)</h2>', page_html, re.S)]
    if len(headings) != topics:
        problems.append(f"{label}: {len(headings)} topic headings in the page, expected {topics}")
    if not topic_pages:
        headings = []  # a worksheet's topics flow: only the key starts a page
    if appendix:
        headings.append("Answer key")
    starts = []
    for heading in headings:
        found = [page for title, page in outline if squeezed(title) == squeezed(heading)]
        if not found:
            problems.append(f"{label}: the PDF's outline has no heading '{heading}'")
        starts += found[:1]
    if starts != sorted(set(starts)):
        problems.append(f"{label}: the topics do not each start a page of their own "
                        f"(they start on pages {[p + 1 for p in starts]})")
    for page, fill in enumerate(fills):
        if fill is None:
            problems.append(f"{label}: page {page + 1}: no printable area found (the PDF "
                            "was not drawn the way Chromium draws pages)")
        elif fill < LEAST_FILL and page + 1 < len(fills) and page + 1 not in starts:
            problems.append(f"{label}: page {page + 1} of {len(fills)} is {fill:.0%} full, and "
                            "the next page does not start a topic")
    return len(fills)


def browser(chromium, profile):
    """Headless Chromium with a profile of its own and nothing in the background (no updates,
    sync or network probes, which a machine without a network refuses many times a second)."""
    return [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
            "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"]


def check_handout(proofdeck, chromium, tmp, case, problems):
    """One handout: printed by proofdeck, its DOM as Chromium builds it, its PDF's pages and its
    layout at 768 pixels. Returns False when Chromium cannot render at all."""
    label, filters, answers, topics, seed, most_pages = case
    name = re.sub(r"\W+", "-", label)
    page = os.path.join(tmp, f"{name}.html")
    made = run([proofdeck, "print", "--format", "html", "--answers", answers, "--seed", seed,
                "--output", page] + filters, "proofdeck", f"{label}: proofdeck print")
    if made.returncode != 0:
        problems.append(f"{label}: proofdeck print failed: {made.stderr.strip()}")
        return True
    size = os.path.getsize(page)
    base = browser(chromium, os.path.join(tmp, f"profile-{name}"))
    dumped = run(base + ["--dump-dom", "file://" + page], "render",
                 f"{label}: Chromium rendering the page ({size:,} bytes)")
    if dumped.returncode != 0 or "<html" not in dumped.stdout:
        problems.append(f"chromium could not render ({dumped.returncode}): "
                        f"{dumped.stderr.strip()[:300]}")
        return False
    check_dom(dumped.stdout, topics, answers == "appendix", problems, label,
              blank=answers == "none")
    pdf = os.path.join(tmp, f"{name}.pdf")
    printed = run(base + ["--no-pdf-header-footer", "--generate-pdf-document-outline",
                          f"--print-to-pdf={pdf}", "file://" + page],
                  "print", f"{label}: Chromium printing the page ({size:,} bytes) to PDF")
    if printed.returncode != 0 or not os.path.exists(pdf):
        problems.append(f"{label}: print to PDF failed: {printed.stderr.strip()[:300]}")
        return True
    with open(page, encoding="utf-8") as f:
        pages = check_pages(pdf, f.read(), topics, answers == "appendix", label, problems,
                            topic_pages=answers == "inline")
    if most_pages is not None and pages > most_pages:
        problems.append(f"{label}: {pages} pages printed, at most {most_pages} expected")
    print(f"ok: {label}: {topics} topic sections, {pages} pages, {size:,} bytes")
    check_layout(chromium, page, base, label, problems)
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    proofdeck = sys.argv[1]
    chromium = find_chromium()
    if chromium is None:
        return unavailable("chromium is not installed (scripts/setup installs Debian's chromium)")
    problems = []
    with tempfile.TemporaryDirectory(prefix="proofdeck-html-") as tmp:
        # Every topic the built-in banks hold gets a section in the every-question sheet.
        listed = run([proofdeck, "list", "topics", "--format", "json"], "proofdeck",
                     "proofdeck list topics")
        every_topic = len(json.loads(listed.stdout))
        # label, filters, --answers, topic sections, --seed, the most pages it may print
        cases = [
            ("three topics, study sheet", ["--topic", "multi-head", "--topic", "rope",
                                           "--topic", "layer-norm"], "inline", 3, "7", None),
            ("one topic of 16 questions, study sheet", ["--topic", "positional"], "inline", 1,
             "7", None),
            ("every built-in question, worksheet with key", [], "appendix", every_topic, "7",
             None),
            # The sheet an instructor hands out: 20 questions of every bank, 20 topics at seed 3
            # (seeds 0-6 print 14 to 16 pages with the key).
            ("20 questions, blank worksheet", ["--count", "20"], "none", 20, "3", 8),
            ("20 questions, worksheet with key", ["--count", "20"], "appendix", 20, "3", 16),
        ]
        try:
            for case in cases:
                if not check_handout(proofdeck, chromium, tmp, case, problems):
                    return unavailable(problems[-1])
            names = demo_names(proofdeck)
            if not names:
                problems.append("proofdeck demo list --format json listed no demos")
            base = browser(chromium, os.path.join(tmp, "profile-demo"))
            for name in names:
                page = os.path.join(tmp, f"demo-{name}.html")
                made = run([proofdeck, "demo", "run", name, "--format", "html", "--output", page],
                           "proofdeck", f"demo {name}: proofdeck demo run")
                if made.returncode != 0:
                    problems.append(f"demo {name}: proofdeck demo run failed: "
                                    f"{made.stderr.strip()}")
                    continue
                check_layout(chromium, page, base, f"demo {name}", problems, demo_page=True)
            check_analysis(proofdeck, chromium, tmp, problems)
        except Slow as slow:
            problems.append(str(slow))
        print("ok: layout measured at 768 pixels for the handouts and every demo page, and at "
              "768 and 1280 for an item analysis"
              if not problems else "layout: see the failures below")
    for problem in problems:
        print("FAIL:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
