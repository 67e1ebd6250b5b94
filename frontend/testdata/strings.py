# String and bytes literals, prefixes, escapes, implicit concatenation, f-strings
# (Python 3.11-compatible forms; 3.12-only forms are in py312/).
s = 'single'
s = "double"
s = '''triple
single'''
s = """triple
double"""
s = 'it\'s'
s = "say \"hi\""
s = "it's"
s = 'say "hi"'
s = 'both \' and "'
s = "escapes: \\ \n \t \r \a \b \f \v \0 \x41 \101 \u00e9 \U0001F600 \q \d"
s = "line\
continuation"
s = r"raw \n \d {x}"
s = R'raw'
s = u"unicode"
s = U'unicode'
s = b"bytes \x00 \xff \n \\"
s = B'bytes'
s = br"raw\bytes"
s = rb'raw\bytes'
s = Rb"x"
s = bR"x"
s = "héllo wörld ✓ 😀"
s = "\u200b zero width, \x7f del, \xa0 nbsp"
s = "\ud800 surrogate"
s = ""
s = ''
s = """"""
s = b""
s = "a" "b"
s = "a" 'b' """c"""
s = ("implicit "
     "concatenation "
     "over lines")
s = u"kind" "of first"
s = "not" u"kind"
s = b"a" b"b"
s = f"plain"
s = f""
s = f"{x}"
s = f"a{x}b"
s = f"{x}{y}"
s = f"{x!r}"
s = f"{x!s:>10}"
s = f"{x!a}"
s = f"{x:>10}"
s = f"{x:{width}}"
s = f"{x:{width}.{precision}f}"
s = f"{x:}"
s = f"{x=}"
s = f"{x = }"
s = f"{x=!s}"
s = f"{x=:>10}"
s = f"{{literal}}"
s = f"{{{x}}}"
s = f"a{{b{x}c}}d"
s = f"{x['key']}"
s = f'{x["key"]}'
s = f"{'nested'}"
s = f"{f'{x}'}"
s = f"{x + y * 2}"
s = f"{x if y else z}"
s = f"{(lambda: 1)()}"
s = f"{[a for a in b]}"
s = f"{a, b}"
s = f"{*a,}"
s = f"{x:{'>'}10}"
s = f"""triple {x}
second line {y!r}
"""
s = rf"raw {x} \n"
s = fr"raw {x}"
s = F"{x}"
s = f"tab\t{x}\n"
s = "a" f"b{x}c" "d"
s = f"{x}" "tail"
s = "head" f"{x}"
s = f"a" f"b"
s = u"kind" f"{x}"
s = f"" ""
s = f"{x}" f"{y}"
s = f"{x:%Y-%m-%d}"
s = f"{3.14:.2f}"
s = f"{obj.attr!r:^{w}}"
s = f"{a['b']:{c}}"
s = f"{x}" \
    f"{y}"
s = f"é{x}ü"
