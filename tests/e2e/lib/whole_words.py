#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""whole_words.py SOURCES LINES — every line of LINES that shows text of SOURCES ends
where a word of it ends (tests/e2e/tui_cut.sh). SOURCES: the whole texts, one a line (the
hints stwtop logged, the report's JSON texts). A line is compared after its leading
spaces, a bullet ("- ", "• ", "→ ", "> ", "note: ") and a shortening mark ("…", "...",
"~") are taken off: its last words must be in a source, followed there by a space, a
punctuation mark or the text's end (a note shortened to fit, "… (i: whole note)", too; that
a command in it is whole is checked by the test). A line that is one word (a path or a flag longer than the line)
is left out. Prints the lines cut inside a word; exit 1 if any, or if no line was a
source's (the check would check nothing)."""
import re, sys

srcs = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
lines = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
bad, checked = [], 0
for raw in lines:
    s = raw.strip().rstrip("│|↓ ").strip()
    s = re.sub(r"^(notes? \(1 of more\): |note: |[-•→>] )", "", s)
    s = re.sub(r"\s*(…|\.\.\.|~)( \(i: whole note\))?$", "", s)
    if " " not in s:
        continue
    # the line's last words, from a word's start
    tail = s[-40:]
    if len(s) > 40:
        tail = tail.split(" ", 1)[1] if " " in tail else tail
    owners = [x for x in srcs if tail in x]
    if not owners:
        continue
    checked += 1
    after = r"(?=$|[\s,;:.)])"
    end = re.compile(re.escape(tail) + after)
    if not any(end.search(x) for x in owners):
        bad.append(raw)
print(f"{checked} lines checked")
for b in bad:
    print("cut inside a word:", b)
sys.exit(1 if bad or checked == 0 else 0)
