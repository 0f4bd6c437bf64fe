"""A formula typeset at build time read back as its TeX (hugo/gotemplate/math_source.py): what a Hugo page's
.Plain, .WordCount and summary see. KaTeX's HTML nests a hundred spans a formula; the TeX replaces exactly the
formula's span, and the markup around it stays as it was."""
from __future__ import annotations

from blogbuild.content.katex import typeset_html
from blogbuild.hugo.gotemplate.math_source import math_as_tex
from blogbuild.markdown import render_markdown

MARKDOWN = """Area $\\sqrt{x^2+1}$ and <span class="k">kept <span>inside</span></span> then $a_{i}^{2}$.

$$\\frac{a}{b} = \\overbrace{x+y}^{n} \\quad \\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}$$

After <span>the</span> end.
"""


def test_each_formula_s_span_becomes_its_tex_and_the_markup_around_it_stays() -> None:
    typeset = typeset_html(render_markdown(MARKDOWN).html)[0][0]
    assert typeset.count('class="katex"') == 3 and typeset.count("<span") > 100
    assert math_as_tex(typeset) == (
        '<p>Area <span class="math inline" data-math-rendered="">$\\sqrt{x^2+1}$</span> and '
        '<span class="k">kept <span>inside</span></span> then '
        '<span class="math inline" data-math-rendered="">$a_{i}^{2}$</span>.</p>\n'
        '<div class="math display" data-math-rendered="">'
        '$$\\frac{a}{b} = \\overbrace{x+y}^{n} \\quad \\begin{pmatrix} 1 &amp; 0 \\\\ 0 &amp; 1 \\end{pmatrix}$$'
        '</div>\n<p>After <span>the</span> end.</p>\n')


def test_a_formula_whose_span_never_closes_takes_the_rest_and_text_without_math_is_the_same_object() -> None:
    assert math_as_tex('<p>x <span class="katex"><span>a</span> tail') == "<p>x "
    text = "<p>no formulas <span>here</span></p>"
    assert math_as_tex(text) is text
