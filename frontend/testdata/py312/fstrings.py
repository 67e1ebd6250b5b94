# PEP 701 f-strings, and positions of nodes inside f-strings.
a = f"{x}"
a = f"lit{x}lit"
a = f"{x!r:>{width}}"
a = f"{x=}"
a = f"{x = !r}"
a = f"{x=:>10}"
a = f"{x:}"
a = f"{x:{y}}"
a = f"{x:{y}.{z}f}"
a = f"{{}}{x}{{"
a = f"a" "b" f"{c}" "d"
a = "a" f"{b}"
a = f"{"same quotes"}"
a = f"{f"{f"{x}"}"}"
a = f"{'\n'.join(lines)}"
a = f"{x:{"<"}10}"
a = f"""{
    x
    +
    y
}"""
a = f"""multi
line {x}
text {y:>{w}} end
"""
a = f"{x # a comment
}"
a = f'{a["b"]}'
a = f"{x}" f"{y=}" f"{z!s:<3}"
a = f"\t{x}\\"
a = rf"\d{x}\n"
a = f"{'a' 'b'}"
a = f"{x:{y}{z}}"
a = f"{x!r:}"
a = f"é{x}ü{y}"
a = f"""
{x!r}"""
