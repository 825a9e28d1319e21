"""The language of the texts a person reads (reasons, refusals): the module default that every
call with a ``lang=`` keyword falls back to. English unless set, whatever the environment's
locale (a library does not follow the process's locale; the command line does)."""
from __future__ import annotations

from typing import Optional

from . import _arbiter
from ._errors import OptionError, check_type

#: The languages arbiter speaks: their codes, English first (``("en", "fa", "ar")``).
LANGUAGES: tuple = tuple(code for code, _name, _rtl in _arbiter.LANGUAGES)
_default = "en"


def set_lang(lang: str) -> str:
    """Makes `lang` (a code of LANGUAGES) the default of every ``lang=`` keyword; returns the
    previous default. OptionError ``bad_value`` (field ``lang``) for a language with no catalog."""
    global _default
    previous = _default
    check_type("lang", lang, (str,), "a language code such as 'fa'")
    if lang not in LANGUAGES:
        raise OptionError(f"lang: expected {', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]}, found '{lang}'",
                          "bad_value", "lang")
    _default = lang
    return previous


def get_lang() -> str:
    """The default of every ``lang=`` keyword (``"en"`` until set_lang)."""
    return _default


def lang_of(lang: Optional[str]) -> str:
    """`lang`, or the module default for None (the core checks it: OptionError bad_value)."""
    if lang is None:
        return _default
    check_type("lang", lang, (str,), "a language code such as 'fa'")
    return lang
