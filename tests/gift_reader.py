"""A GIFT reader written from Moodle's documentation of the format
(docs.moodle.org/en/GIFT_format), not from proofdeck's exporter: what a strict importer makes
of a GIFT file. It reads what the documentation defines and refuses what it does not, so a file
it reads is one every GIFT importer should read:

- `//` comment lines; `$CATEGORY: path` lines; questions separated by blank lines;
- `::title::`, an optional `[plain|html|moodle|markdown]` text format, the question text, and
  one answer block `{...}` at the end (no missing-word questions: nothing may follow it);
- the escapes `\\~ \\= \\# \\{ \\} \\: \\\\` and `\\n` for a line break;
- true/false `{T}`/`{TRUE}`/`{F}`/`{FALSE}` with `#feedback when wrong#feedback when right`;
- multiple choice: `=right`, `~wrong`, `~%50%weighted`, each with `#feedback`;
- numerical `{#...}`: `=value:tolerance`, `=min..max` or a lone `value:tolerance`, each with an
  optional `%weight%` and `#feedback`; numbers as plain decimals (gift-pegjs, the stricter
  reader, takes no exponent, so neither does this one);
- matching: `=question -> answer` pairs;
- general feedback after `####`.

Each question becomes a dict: category, title, format, text, type (single | multi | truefalse |
numeric | matching) and its answers. Malformed input raises GiftError with the line number.
"""

import re

SPECIAL = "~=#{}:\\"
NUMBER = re.compile(r"^[+-]?[0-9]+(\.[0-9]+)?$")
WEIGHT = re.compile(r"^%(-?[0-9]+(\.[0-9]+)?)%")


class GiftError(Exception):
    pass


def unescape(text, line):
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 >= len(text):
                raise GiftError(f"line {line}: a backslash ends the text")
            n = text[i + 1]
            if n == "n":
                out.append("\n")
            elif n in SPECIAL:
                out.append(n)
            else:
                raise GiftError(f"line {line}: unknown escape \\{n}")
            i += 2
            continue
        if c in "~={}#":
            raise GiftError(f"line {line}: unescaped {c!r} in text {text!r}")
        out.append(c)
        i += 1
    return "".join(out)


def split_unescaped(text, separators):
    """Splits at each unescaped occurrence of one of `separators` (longest first); returns
    (separator before the piece or "", piece) pairs."""
    pieces = []
    current = []
    before = ""
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            current.append(text[i:i + 2])
            i += 2
            continue
        for sep in separators:
            if text.startswith(sep, i):
                pieces.append((before, "".join(current)))
                current = []
                before = sep
                i += len(sep)
                break
        else:
            current.append(text[i])
            i += 1
    pieces.append((before, "".join(current)))
    return pieces


def find_unescaped(text, target, start=0):
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text.startswith(target, i):
            return i
        i += 1
    return -1


def number(text, line):
    text = text.strip()
    if not NUMBER.match(text):
        raise GiftError(f"line {line}: {text!r} is not a plain decimal number")
    return float(text)


def parse_feedback(piece, line):
    """`answer#feedback` → (answer, feedback or None)."""
    parts = split_unescaped(piece, ["#"])
    if len(parts) > 2:
        raise GiftError(f"line {line}: more than one feedback in {piece!r}")
    answer = parts[0][1]
    feedback = unescape(parts[1][1].strip(), line) if len(parts) == 2 else None
    return answer, feedback


def parse_numeric(body, line):
    answers = []
    pieces = split_unescaped(body, ["="])
    if pieces[0][1].strip():
        if len(pieces) > 1:
            raise GiftError(f"line {line}: a numerical answer before the '=' answers")
        pieces = [("=", pieces[0][1])]
    else:
        pieces = pieces[1:]
    for _, piece in pieces:
        piece = piece.strip()
        weight = 100.0
        match = WEIGHT.match(piece)
        if match:
            weight = float(match.group(1))
            piece = piece[match.end():]
        value, feedback = parse_feedback(piece, line)
        value = value.strip()
        if ".." in value:
            low, high = value.split("..", 1)
            low, high = number(low, line), number(high, line)
            answers.append({"value": (low + high) / 2, "tolerance": (high - low) / 2,
                            "weight": weight, "feedback": feedback})
            continue
        colon = find_unescaped(value, ":")
        if colon < 0:
            key, tolerance = number(value, line), 0.0
        else:
            key, tolerance = number(value[:colon], line), number(value[colon + 1:], line)
        if tolerance < 0:
            raise GiftError(f"line {line}: a negative tolerance")
        answers.append({"value": key, "tolerance": tolerance, "weight": weight,
                        "feedback": feedback})
    if not answers:
        raise GiftError(f"line {line}: a numerical question without an answer")
    return {"type": "numeric", "answers": answers}


def parse_answers(block, line):
    general = None
    at = find_unescaped(block, "####")
    if at >= 0:
        general = unescape(block[at + 4:].strip(), line)
        block = block[:at]
    body = block.strip()
    if body.startswith("#"):
        question = parse_numeric(body[1:], line)
    else:
        parts = split_unescaped(body, ["#"])
        tf = parts[0][1].strip().upper()
        if tf in ("T", "TRUE", "F", "FALSE"):
            # `#feedback when wrong#feedback when right`
            feedbacks = [unescape(p.strip(), line) for _, p in parts[1:]]
            if len(feedbacks) > 2:
                raise GiftError(f"line {line}: a true/false answer with {len(feedbacks)} feedbacks")
            question = {"type": "truefalse", "answer": tf.startswith("T"),
                        "feedback_wrong": feedbacks[0] if feedbacks else None,
                        "feedback_right": feedbacks[1] if len(feedbacks) > 1 else None}
        else:
            question = parse_choices(body, line)
    question["general_feedback"] = general
    return question


def parse_choices(body, line):
    pieces = split_unescaped(body, ["=", "~"])
    if pieces[0][1].strip():
        raise GiftError(f"line {line}: text before the first answer: {pieces[0][1]!r}")
    choices = []
    for marker, piece in pieces[1:]:
        piece = piece.strip()
        weight = None
        match = WEIGHT.match(piece)
        if match:
            weight = float(match.group(1))
            piece = piece[match.end():]
        text, feedback = parse_feedback(piece, line)
        choices.append({"marker": marker, "weight": weight, "text": text.strip(),
                        "feedback": feedback})
    if not choices:
        raise GiftError(f"line {line}: an answer block without answers")
    if all(c["marker"] == "=" and find_unescaped(c["text"], "->") >= 0 for c in choices):
        pairs = []
        for c in choices:
            arrow = find_unescaped(c["text"], "->")
            pairs.append((unescape(c["text"][:arrow].strip(), line),
                          unescape(c["text"][arrow + 2:].strip(), line)))
        return {"type": "matching", "pairs": pairs}
    for c in choices:
        c["text"] = unescape(c["text"], line)
    weighted = any(c["weight"] is not None for c in choices)
    if weighted:
        for c in choices:
            if c["marker"] != "~" or c["weight"] is None:
                raise GiftError(f"line {line}: weighted answers are written ~%n%answer")
        return {"type": "multi", "choices": [
            {"text": c["text"], "weight": c["weight"], "feedback": c["feedback"]}
            for c in choices]}
    right = [c for c in choices if c["marker"] == "="]
    if len(right) != 1:
        raise GiftError(f"line {line}: {len(right)} right answers in a multiple-choice question")
    return {"type": "single", "choices": [
        {"text": c["text"], "correct": c["marker"] == "=", "feedback": c["feedback"]}
        for c in choices]}


def parse_question(text, line, category):
    text = text.strip()
    question = {"category": category, "line": line, "title": None, "format": None}
    if text.startswith("::"):
        end = find_unescaped(text, "::", 2)
        if end < 0:
            raise GiftError(f"line {line}: a title without its closing '::'")
        question["title"] = unescape(text[2:end], line)
        text = text[end + 2:]
    match = re.match(r"^\[(plain|html|moodle|markdown)\]", text)
    if match:
        question["format"] = match.group(1)
        text = text[match.end():]
    open_at = find_unescaped(text, "{")
    if open_at < 0:
        raise GiftError(f"line {line}: no answer block")
    close_at = find_unescaped(text, "}", open_at)
    if close_at < 0:
        raise GiftError(f"line {line}: an answer block without its closing '}}'")
    if text[close_at + 1:].strip():
        raise GiftError(f"line {line}: text after the answer block (missing-word questions "
                        "are not expected here)")
    question["text"] = unescape(text[:open_at].strip(), line)
    question.update(parse_answers(text[open_at + 1:close_at], line))
    return question


def read_gift(source):
    """The questions of a GIFT file, in order."""
    questions = []
    category = None
    block, block_line = [], 0
    lines = source.split("\n")

    def flush():
        if block:
            questions.append(parse_question("\n".join(block), block_line, category))

    for number_, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if stripped.startswith("$CATEGORY:"):
            flush()
            block = []
            category = stripped[len("$CATEGORY:"):].strip()
            continue
        if not stripped:
            flush()
            block = []
            continue
        if not block:
            block_line = number_
        block.append(line)
    flush()
    return questions
