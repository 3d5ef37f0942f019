#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-bundle.py OUT SRCROOT FILE... — the engine's own model code, embedded
# in bramah-cli for `bramah-cli export-c` (docs/export-c.md).
#
# Writes OUT, a C file with every FILE (paths relative to SRCROOT) as an
# array of its lines, minus its project #includes, <glib.h> and
# "#pragma once" (the exported program has one file, and
# engine/export/export-shim.h stands for GLib); the component type ids each
# file defines (`.id = "pump"` of a HydComponentType); and the other files
# each needs (the functions and types it uses that another defines). The
# exporter copies the files a circuit needs verbatim: the component laws
# have one source, the engine's.
import re
import sys

out_path, root, files = sys.argv[1], sys.argv[2], sys.argv[3:]

DROP = re.compile(r'^\s*(#\s*include\s+"[^"]*"|#\s*include\s+<glib\.h>|#\s*pragma\s+once)\s*$')
TYPE_DEF = re.compile(r'^const HydComponentType (hyd_\w+) = \{')
FUNC_DEF = re.compile(r'^(hyd_\w+) \(')
IDENT = re.compile(r'\bhyd_\w+\b')
TYPE_ID = re.compile(r'^\s*\.id = "([^"]+)",')


def c_string(line):
    s = line.replace('\\', '\\\\').replace('"', '\\"').replace('\t', '\\t')
    # keep trigraph-like sequences and non-ASCII bytes harmless: octal escapes
    out = []
    for b in s.encode('utf-8'):
        if b >= 0x80 or b < 0x20:
            out.append('\\%03o' % b)
        elif b == ord('?'):
            out.append('\\?')
        else:
            out.append(chr(b))
    return '"' + ''.join(out) + '"'


def excerpt(lines, symbols):
    """The definitions of `symbols`, verbatim and in file order: a function
    (from its return type's line to its closing brace), a struct or enum
    type (its block), a one-line typedef."""
    keep = set()
    for sym in symbols:
        found = False
        for i, l in enumerate(lines):
            if re.match(r'^%s \(' % re.escape(sym), l) or re.match(r'^struct %s \{' % re.escape(sym), l):
                start = i - 1 if l.startswith(sym) else i
                end = next(j for j in range(i, len(lines)) if lines[j].startswith('}'))
            elif re.match(r'^\} %s;' % re.escape(sym), l):
                end = i
                start = max(j for j in range(0, i) if lines[j].startswith('typedef'))
            elif re.match(r'^typedef [^;]* %s;$' % re.escape(sym), l):
                start = end = i
            else:
                continue
            keep.update(range(start, end + 1))
            found = True
            break
        if not found:
            sys.exit('gen-bundle.py: %s not found' % sym)
    out = []
    for i in sorted(keep):
        if out and i - 1 not in keep:
            out.append('')
        out.append(lines[i])
    return out


STATIC_OBJ = re.compile(r'^static\s+[^(]*?\b(\w+)\s*(\[[^]]*\])*\s*(=|;)')
STATIC_FN_ONE = re.compile(r'^static\s.*?\b(\w+)\s*\(')
NAME_LINE = re.compile(r'^(\w+)\s*\(')
ENUM_START = re.compile(r'^(typedef\s+)?enum\b')
ENUM_CONST = re.compile(r'^\s+([A-Za-z_]\w*)\s*(=|,|$)')
TYPEDEF_END = re.compile(r'^\}\s*(\w+)\s*;')
MACRO = re.compile(r'^#\s*define\s+(\w+)')


def declared(lines):
    """The file-scope names a file declares (statics, enum constants,
    typedef names) and the macros it defines: two files of one program must
    not both declare a name (the exporter renames such names per file)."""
    names, macros = set(), set()
    in_enum = False
    for i, l in enumerate(lines):
        m = MACRO.match(l)
        if m:
            macros.add(m.group(1))
            continue
        if in_enum:
            if l.startswith('}'):
                in_enum = False
                m = TYPEDEF_END.match(l)
                if m:
                    names.add(m.group(1))
            else:
                m = ENUM_CONST.match(l)
                if m:
                    names.add(m.group(1))
            continue
        if ENUM_START.match(l):
            in_enum = '}' not in l
            for c in re.findall(r'\b([A-Z][A-Z0-9_]+)\b', l.split('{', 1)[1] if '{' in l else ''):
                names.add(c)
            continue
        if l.startswith('static'):
            if '(' not in l and i + 1 < len(lines) and NAME_LINE.match(lines[i + 1]):
                names.add(NAME_LINE.match(lines[i + 1]).group(1))
                continue
            m = STATIC_OBJ.match(l)
            if m and '(' not in l.split('=')[0]:
                names.add(m.group(1))
                continue
            m = STATIC_FN_ONE.match(l)
            if m:
                names.add(m.group(1))
            continue
        m = TYPEDEF_END.match(l)
        if m:
            names.add(m.group(1))
    return sorted(names), sorted(macros)


texts = {}
defines = {}   # symbol -> file
type_ids = []  # (id, file, symbol)
for f in files:
    path, _, syms = f.partition(':')
    with open(root + '/' + path, encoding='utf-8') as fh:
        lines = [l.rstrip('\n') for l in fh]
    if syms:
        lines = excerpt(lines, syms.split(','))
    texts[f] = [l for l in lines if not DROP.match(l)]
    in_type = None
    for l in lines:
        m = TYPE_DEF.match(l) or FUNC_DEF.match(l)
        if m:
            defines.setdefault(m.group(1), f)
        if TYPE_DEF.match(l):
            in_type = TYPE_DEF.match(l).group(1)
        m = TYPE_ID.match(l)
        if in_type and m:
            type_ids.append((m.group(1), f, in_type))
            in_type = None

deps = {}
for f in files:
    used = set(IDENT.findall('\n'.join(texts[f])))
    deps[f] = sorted({defines[s] for s in used if s in defines and defines[s] != f})

with open(out_path, 'w', encoding='utf-8') as out:
    out.write('/* Generated by engine/export/gen-bundle.py: do not edit. */\n')
    out.write('#include "hyd-export-bundle.h"\n\n')
    for i, f in enumerate(files):
        out.write('/* %s */\nstatic const char *const file_%d[] = {\n' % (f, i))
        for l in texts[f]:
            out.write('  %s,\n' % c_string(l))
        out.write('  NULL\n};\n')
        out.write('static const char *const deps_%d[] = { %s };\n'
                  % (i, ', '.join(['"%s"' % d for d in deps[f]] + ['NULL'])))
        names, macros = declared(texts[f])
        out.write('static const char *const names_%d[] = { %s };\n'
                  % (i, ', '.join(['"%s"' % d for d in names] + ['NULL'])))
        out.write('static const char *const macros_%d[] = { %s };\n\n'
                  % (i, ', '.join(['"%s"' % d for d in macros] + ['NULL'])))
    out.write('const HydExportFile hyd_export_files[] = {\n')
    for i, f in enumerate(files):
        out.write('  { "%s", file_%d, deps_%d, names_%d, macros_%d },\n' % (f, i, i, i, i))
    out.write('  { NULL, NULL, NULL, NULL, NULL }\n};\n\n')
    out.write('const HydExportTypeFile hyd_export_type_files[] = {\n')
    for tid, f, sym in type_ids:
        out.write('  { "%s", "%s", "%s" },\n' % (tid, f, sym))
    out.write('  { NULL, NULL, NULL }\n};\n')
