#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sgr.py — read a `tmux capture-pane -e -p` capture (text with SGR escapes).

  sgr.py params FILE        every SGR colour form used, one per line: "fg 31",
                            "bg 44", "fg 38;5;208", "fg 91" (bright), "fg default"
  sgr.py fg FILE ROW TEXT   the foreground of each character of the first
                            occurrence of TEXT on row ROW (0-based), e.g. "31 31 default"
  sgr.py bg FILE ROW TEXT   the same for the background
  sgr.py nonascii FILE      the rows and columns of characters >= 0x80, if any

The e2e tests use it to check what colours reached the terminal (8-colour
degradation) and which glyphs did (ASCII under a non-UTF-8 locale)."""
import re
import sys

SGR = re.compile(r'\x1b\[([0-9;:]*)m')


def cells(line, state):
    """yield (char, fg, bg) for one captured line; state carries fg/bg on"""
    pos = 0
    for m in SGR.finditer(line):
        for ch in line[pos:m.start()]:
            yield ch, state['fg'], state['bg']
        apply(m.group(1), state)
        pos = m.end()
    for ch in line[pos:]:
        yield ch, state['fg'], state['bg']


def apply(params, state):
    ps = [p for p in re.split('[;:]', params)] if params else ['0']
    i = 0
    while i < len(ps):
        p = int(ps[i]) if ps[i] else 0
        if p == 0:
            state['fg'] = state['bg'] = 'default'
        elif 30 <= p <= 37 or 90 <= p <= 97:
            state['fg'] = str(p)
        elif 40 <= p <= 47 or 100 <= p <= 107:
            state['bg'] = str(p)
        elif p == 39:
            state['fg'] = 'default'
        elif p == 49:
            state['bg'] = 'default'
        elif p in (38, 48):
            key = 'fg' if p == 38 else 'bg'
            if i + 1 < len(ps) and ps[i + 1] == '5':
                state[key] = '%d;5;%s' % (p, ps[i + 2] if i + 2 < len(ps) else '')
                i += 2
            elif i + 1 < len(ps) and ps[i + 1] == '2':
                state[key] = '%d;2;%s' % (p, ';'.join(ps[i + 2:i + 5]))
                i += 4
        i += 1


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    rows = open(path, encoding='utf-8', errors='replace').read().split('\n')
    if cmd == 'params':
        out = set()
        for line in rows:
            for m in SGR.finditer(line):
                ps = re.split('[;:]', m.group(1)) if m.group(1) else ['0']
                i = 0
                while i < len(ps):
                    p = int(ps[i]) if ps[i] else 0
                    if p in (38, 48):
                        out.add('%s %s' % ('fg' if p == 38 else 'bg', ';'.join(ps[i:i + 3])))
                        i += 3
                        continue
                    if 30 <= p <= 37 or 90 <= p <= 97:
                        out.add('fg %d' % p)
                    elif 40 <= p <= 47 or 100 <= p <= 107:
                        out.add('bg %d' % p)
                    i += 1
        print('\n'.join(sorted(out)))
    elif cmd in ('fg', 'bg'):
        row, text = int(sys.argv[3]), sys.argv[4]
        state = {'fg': 'default', 'bg': 'default'}
        for r, line in enumerate(rows):
            cs = list(cells(line, state))
            if r != row:
                continue
            plain = ''.join(c for c, _, _ in cs)
            at = plain.find(text)
            if at < 0:
                sys.exit('"%s" not on row %d: %s' % (text, row, plain))
            print(' '.join(fg if cmd == 'fg' else bg for _, fg, bg in cs[at:at + len(text)]))
            return
        sys.exit('no row %d' % row)
    elif cmd == 'nonascii':
        bad = 0
        for r, line in enumerate(rows):
            plain = SGR.sub('', line)
            for c, ch in enumerate(plain):
                if ord(ch) >= 0x80:
                    print('row %d col %d: %r' % (r, c, ch))
                    bad += 1
                    if bad > 20:
                        return
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
