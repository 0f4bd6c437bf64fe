"""Chroma's Raku lexer (lexers/raku.go): its config, registered with the others; its rules (go_lexer_raku_rules,
the largest of Chroma's Go-coded lexers) are read when it is first used."""
from __future__ import annotations

from .go_rules import rules_of
from .lexer import Config, RegexLexer, Rule


def _rules() -> dict[str, list[Rule]]:
    from .go_lexer_raku_rules import RAKU
    return rules_of("lexers/raku.go", RAKU)()


def raku_lexer() -> RegexLexer:
    return RegexLexer(Config("Raku", ("perl6", "pl6", "raku"),
                             ("*.pl", "*.pm", "*.nqp", "*.p6", "*.6pl", "*.p6l", "*.pl6", "*.6pm", "*.p6m", "*.pm6",
                              "*.t", "*.raku", "*.rakumod", "*.rakutest", "*.rakudoc"),
                             mime_types=("text/x-perl6", "application/x-perl6", "text/x-raku", "application/x-raku"),
                             dot_all=True), _rules, where="lexers/raku.go")
