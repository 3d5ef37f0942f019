#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check-translated-formats.py SOURCE_ROOT — no translated text is used as a
printf format unless it is a literal format with its arguments (issue 9,
item 14). A call such as g_set_error (e, D, C, _("No run")) hands the
translation to printf: a translator's "%" would read memory that was never
passed, and msgfmt does not check a message without directives. Such calls
must use the _literal variant (g_set_error_literal, g_string_append ...).
Formats held in variables are refused by the compiler (-Wformat=2 with
-Werror), and msgfmt --check compares the directives of every c-format
message (check-po.sh)."""
import glob
import os
import re
import sys

root = sys.argv[1]
# printf-like functions and the position of their format argument
formats = {
    "g_strdup_printf": 0, "g_set_error": 3, "g_string_append_printf": 1, "g_string_printf": 1,
    "g_warning": 0, "g_message": 0, "g_print": 0, "g_printerr": 0, "printf": 0, "fprintf": 1,
    "g_snprintf": 2, "g_error": 0, "g_critical": 0, "g_prefix_error": 1, "g_propagate_prefixed_error": 2,
}
call_re = re.compile(r"\b(" + "|".join(formats) + r")\s*\(")
translated = re.compile(r"^(?:_|g_dgettext\s*\([^,()]+,)\s*\(\s*(?:\"(?:[^\"\\]|\\.)*\"\s*)+\)$")


def arguments(text, i):
    """The top-level arguments of the call whose "(" ends at i, and where it ends."""
    args, depth, start = [], 1, i
    while depth and i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[start:i].strip())
        elif c == "," and depth == 1:
            args.append(text[start:i].strip())
            start = i + 1
        i += 1
    return args, i


bad = []
for area in ("ui", "canvas", "app", "symbols", "engine"):
    for path in sorted(glob.glob(os.path.join(root, area, "**", "*.c"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        for m in call_re.finditer(text):
            args, end = arguments(text, m.end())
            k = formats[m.group(1)]
            # the format is a translation, and nothing follows it
            if len(args) == k + 1 and translated.match(" ".join(args[k].split())):
                line = text.count("\n", 0, m.start()) + 1
                call = " ".join(text[m.start():end].split())
                bad.append(f"{os.path.relpath(path, root)}:{line}: {call[:100]}")
for b in bad:
    print("translated text used as a format:", b)
if bad:
    sys.exit(1)
print("no translated text is used as a format without its arguments")
