"""A formula's TeX as the text a reader sees: ``V \\times d = 120832`` reads ``V × d = 120832``.

Plain text (search content, summaries, meta descriptions, the JSON feed's summaries) shows formulas
this way, as the page shows them typeset, not as their source. It is an approximation for reading and
searching, not a typesetter: symbols become their Unicode characters, fonts and sizes are dropped,
``\\frac{a}{b}`` reads ``a/b``, ``x^2`` reads ``x²`` and ``d_{model}`` reads ``d_model``; a command it
does not know is shown as its name. It never fails: any string gives some text.
"""
from __future__ import annotations

import re

_SYMBOLS = {
    # Greek
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ",
    "Psi": "Ψ", "Omega": "Ω",
    # operators and relations
    "times": "×", "cdot": "·", "cdotp": "·", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗",
    "star": "⋆", "circ": "∘", "bullet": "∙", "oplus": "⊕", "otimes": "⊗", "odot": "⊙",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
    "sim": "∼", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
    "lt": "<", "gt": ">", "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆",
    "supset": "⊃", "supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖", "mid": "|",
    "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬", "land": "∧", "lor": "∨",
    "wedge": "∧", "vee": "∨", "perp": "⊥", "parallel": "∥", "top": "⊤", "bot": "⊥",
    # arrows
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "iff": "⟺", "implies": "⟹",
    "mapsto": "↦", "longrightarrow": "⟶", "longleftarrow": "⟵", "uparrow": "↑", "downarrow": "↓",
    # big operators and others
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "oint": "∮",
    "bigcup": "⋃", "bigcap": "⋂", "partial": "∂", "nabla": "∇", "infty": "∞", "emptyset": "∅",
    "varnothing": "∅", "ell": "ℓ", "hbar": "ℏ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
    "prime": "′", "angle": "∠", "degree": "°", "surd": "√",
    "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "dotsc": "…", "dotsb": "⋯",
    # delimiters
    "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋",
    "vert": "|", "lvert": "|", "rvert": "|", "Vert": "‖", "lVert": "‖", "rVert": "‖",
    "lbrace": "{", "rbrace": "}", "lbrack": "[", "rbrack": "]", "backslash": "\\",
    # spaces
    "quad": " ", "qquad": " ", "space": " ", "enspace": " ", "thinspace": " ",
}
# Named operators set upright in a formula: read as their names.
_NAMED = frozenset("""log ln lg exp sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh
    max min sup inf lim limsup liminf arg argmax argmin det dim ker gcd lcm deg hom Pr mod bmod pmod""".split())
# Commands whose one argument is their text (fonts, styles, accents, boxes).
_ONE_ARGUMENT = frozenset("""text textrm textbf textit textsf texttt textnormal emph mathrm mathbf mathit
    mathsf mathtt mathcal mathbb mathfrak mathscr mathnormal boldsymbol bm pmb operatorname mbox hbox
    hat widehat bar overline underline tilde widetilde vec dot ddot check breve acute grave
    overbrace underbrace overrightarrow overleftarrow boxed fbox""".split())
# Commands whose arguments are not text: sizes, colours, labels, environment names.
_DROPPED_ARGUMENTS = {"label": 1, "color": 1, "hspace": 1, "vspace": 1, "phantom": 1, "hphantom": 1,
                      "vphantom": 1, "begin": 1, "end": 1, "textcolor": 1, "colorbox": 1, "href": 1}
# Commands that are only layout: nothing to read.
_SILENT = frozenset("""left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr
    limits nolimits displaystyle textstyle scriptstyle scriptscriptstyle rm bf it sf tt cal
    nonumber notag newline cr hline relax""".split())
# Numbers as small figures (x², x₁); letters keep their mark (x^n, d_k), as Unicode has small forms
# of only some of them and a mix would read unevenly.
_SUPERSCRIPTS = str.maketrans("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")
_SUBSCRIPTS = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_SCRIPTABLE = frozenset("0123456789+-=()")
_TOKEN = re.compile(r"\\([a-zA-Z]+)\*?|\\(.)|(\s+)|(.)", re.DOTALL)
_SPACES = re.compile(r"\s+")
_OPERATOR = re.compile(r"[\s+\-−×·÷/=<>≤≥≠≈±,]")


_MAX_DEPTH = 50   # groups nested deeper are read flat (the walk below recurses once per group)


def tex_to_text(tex: str) -> str:
    """The text a reader sees in the formula tex, on one line."""
    if tex.count("{") > _MAX_DEPTH and _depth(tex) > _MAX_DEPTH:
        return _SPACES.sub(" ", re.sub(r"\\([a-zA-Z]+)|[\\{}^_&~]", r" \1 ", tex)).strip()
    tokens = [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in _TOKEN.finditer(tex)]
    text, _ = _sequence(tokens, 0, closing=False)
    return _SPACES.sub(" ", text).strip()


def _depth(tex: str) -> int:
    """How deep tex's braces nest."""
    depth = deepest = 0
    for character in tex:
        if character == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif character == "}":
            depth = max(0, depth - 1)
    return deepest


def _sequence(tokens: list, at: int, *, closing: bool) -> tuple[str, int]:
    """The text of tokens from at up to the end, or (closing) up to the '}' that closes the group
    opened before at; the index after what was read."""
    out: list[str] = []
    while at < len(tokens):
        if closing and tokens[at][3] == "}":
            return "".join(out), at + 1
        piece, at = _item(tokens, at)
        out.append(piece)
    return "".join(out), at


def _argument(tokens: list, at: int) -> tuple[str, int]:
    """One argument: a {group}, a command with its own arguments, or one character."""
    while at < len(tokens) and tokens[at][2] is not None:
        at += 1   # white space before an argument is not part of it
    if at >= len(tokens):
        return "", at
    if tokens[at][3] == "{":
        return _sequence(tokens, at + 1, closing=True)
    return _item(tokens, at)


def _optional(tokens: list, at: int) -> tuple[str | None, int]:
    """An optional [argument] (as \\sqrt[3]{x} has), or None."""
    if at < len(tokens) and tokens[at][3] == "[":
        out: list[str] = []
        at += 1
        while at < len(tokens) and tokens[at][3] != "]":
            piece, at = _item(tokens, at)
            out.append(piece)
        return "".join(out), at + 1
    return None, at


def _item(tokens: list, at: int) -> tuple[str, int]:
    """One item of a sequence: a command, an escaped character, white space, a group or a character."""
    name, escaped, space, character = tokens[at]
    at += 1
    if name is not None:
        return _command(name, tokens, at)
    if escaped is not None:
        return (" " if escaped in ",;:> \\" else "" if escaped == "!" else escaped), at
    if space is not None:
        return " ", at
    if character == "{":
        return _sequence(tokens, at, closing=True)
    if character in "^_":
        argument, at = _argument(tokens, at)
        return _script(argument, superscript=character == "^"), at
    if character in "&~":
        return " ", at
    return ("" if character == "}" else character), at


def _command(name: str, tokens: list, at: int) -> tuple[str, int]:
    """The text of \\name and its arguments."""
    if name in _SYMBOLS:
        return _SYMBOLS[name], at
    if name in _NAMED:
        return _word(name, tokens, at), at
    if name in _ONE_ARGUMENT:
        return _argument(tokens, at)
    if name in _SILENT:
        if name in ("left", "right", "middle") and at < len(tokens) and tokens[at][3] == ".":
            at += 1   # \left. is an invisible delimiter
        return "", at
    if name in _DROPPED_ARGUMENTS:
        for _ in range(_DROPPED_ARGUMENTS[name]):
            _, at = _argument(tokens, at)
        return "", at
    if name in ("frac", "dfrac", "tfrac", "cfrac"):
        numerator, at = _argument(tokens, at)
        denominator, at = _argument(tokens, at)
        return f"{_grouped(numerator)}/{_grouped(denominator)}", at
    if name in ("binom", "dbinom", "tbinom"):
        top, at = _argument(tokens, at)
        bottom, at = _argument(tokens, at)
        return f"C({top.strip()},{bottom.strip()})", at
    if name == "sqrt":
        degree, at = _optional(tokens, at)
        radicand, at = _argument(tokens, at)
        root = {"3": "∛", "4": "∜"}.get((degree or "").strip(), "√") if degree is not None else "√"
        return root + _grouped(radicand), at
    if name == "tag":
        label, at = _argument(tokens, at)
        return f" ({label.strip()})", at
    return _word(name, tokens, at), at


def _word(name: str, tokens: list, at: int) -> str:
    """A command's name as a word, apart from a letter, digit, group or command right after it
    (\\log{x} reads "log x", not "logx")."""
    if at < len(tokens):
        name_after, _, _, character = tokens[at]
        if name_after is not None or (character is not None and (character.isalnum() or character == "{")):
            return name + " "
    return name


def _grouped(text: str) -> str:
    """text as one operand: in parentheses when it holds white space or an operator."""
    text = text.strip()
    return f"({text})" if _OPERATOR.search(text) else text


def _script(text: str, *, superscript: bool) -> str:
    """A super- or subscript: in Unicode's small characters where it has them all, else written out."""
    text = text.strip()
    if not text:
        return ""
    if set(text) <= _SCRIPTABLE:
        return text.translate(_SUPERSCRIPTS if superscript else _SUBSCRIPTS)
    if superscript and text in ("′", "′′", "*", "∗", "†", "⊤"):
        return text
    mark = "^" if superscript else "_"
    return mark + _grouped(text)
