"""Two languages, English and French, from message catalogs.

English is the source language: every message in the code is its English text (the msgid), and
French comes from gettext catalogs (``.po`` files checked in beside the code that uses them):
``shared/text/locale/fr/LC_MESSAGES/messages.po`` for the platform's words, and
``services/<game>/locale/fr/LC_MESSAGES/messages.po`` for each game's own (its domain: two games
may say "city" differently).  The ``.po`` files are read with Babel's ``read_po`` and compiled in
memory into gettext ``Translations`` the first time a language is used, so no binary ``.mo`` file
is checked in or built.

The pages' own words (``shared/http/web/*.js`` and ``*.html``) come from a JSON catalog kept beside the
``.po``: ``shared/text/locale/fr/web.json``, English key to French text, given to the page inside its
config.  tests/shared/test_i18n.py extracts every message (Babel's extractor over the Python
sources, a plain one over the pages) and fails on one without its French, or whose placeholders
differ.

The language in use is a context variable: a request (``/web/words``) or the terminal client sets
it with :func:`use_language`; renderers call their domain's ``_`` at the moment they write.
"""
from __future__ import annotations

import gettext
import io
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("en", "fr")
DEFAULT = "en"
ROOT = Path(__file__).resolve().parents[2]
SHARED_LOCALE = Path(__file__).resolve().parent / "locale"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def language() -> str:
    """The language the words are written in now."""
    return _language.get()


@contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Write in ``lang`` (one of :data:`LANGUAGES`; anything else means the default) inside the block."""
    chosen = lang if lang in LANGUAGES else DEFAULT
    token = _language.set(chosen)
    try:
        yield chosen
    finally:
        _language.reset(token)


def set_language(lang: str | None) -> str:
    """Write in ``lang`` from now on in this context (the terminal client, once at its start)."""
    chosen = lang if lang in LANGUAGES else DEFAULT
    _language.set(chosen)
    return chosen


def pick(*wishes: str | None) -> str:
    """The first wish that names a language we have (``"fr"``, ``"fr-CA"``, ``"fr_FR.UTF-8"``), else the default."""
    for wish in wishes:
        if not wish:
            continue
        for part in re.split(r"[:,]", wish):
            code = re.split(r"[-_.;@ ]", part.strip().lower(), maxsplit=1)[0]
            if code in LANGUAGES:
                return code
    return DEFAULT


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The terminal's language, as gettext reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    env = os.environ if env is None else env
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return pick(value)
    return DEFAULT


def catalog_path(locale_dir: Path, lang: str) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / "messages.po"


@cache
def translations(locale_dir: Path, lang: str) -> gettext.NullTranslations:
    """The catalog of ``locale_dir`` in ``lang``, compiled in memory (a null one for English or none)."""
    path = catalog_path(locale_dir, lang)
    if lang == DEFAULT or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)     # fuzzy entries are left out: they show in English until checked
    compiled.seek(0)
    return Translations(compiled)


def translator(locale_dir: Path | str) -> Callable[[str], str]:
    """A domain's ``_``: its own catalog first, then the platform's (words every game shares)."""
    own = Path(locale_dir).resolve()
    if own.is_file():
        own = own.parent / "locale"

    def _(message: str) -> str:
        lang = _language.get()
        if lang == DEFAULT:
            return message
        for where in (own, SHARED_LOCALE):
            found = translations(where, lang).gettext(message)
            if found != message:
                return found
        return message
    return _


def N_(message: str) -> str:
    """Marks a word for the catalogs without translating it now (it is translated where written)."""
    return message


@cache
def web_words(lang: str) -> dict[str, str]:
    """The pages' catalog in ``lang``: English text -> its translation (empty for English)."""
    path = SHARED_LOCALE / lang / "web.json"
    if lang == DEFAULT or not path.is_file():
        return {}
    words = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in words.items() if isinstance(v, str) and v}


_ = translator(SHARED_LOCALE)


# -- the catalogs' upkeep: what the code says, and what each catalog lacks ------------------------

KEYWORDS = {"_": None, "N_": None}
# The pages' words: t("...") in the scripts, [[...]] in the templates.
WEB_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]""")
WEB_TEMPLATE = re.compile(r"\[\[(.+?)\]\]", re.S)
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def domains() -> dict[str, Path]:
    """Each message domain and the folder whose Python sources it covers: the platform's, then one per game."""
    found = {"shared": ROOT / "shared"}
    for game in sorted((ROOT / "services").iterdir()):
        if (game / "render.py").is_file():
            found[game.name] = game
    return found


def python_messages(folder: Path) -> dict[str, list[str]]:
    """Every message marked with ``_`` or ``N_`` in the Python sources under ``folder`` (Babel's
    extractor), with where it is written."""
    from babel.messages.extract import extract_from_dir
    found: dict[str, list[str]] = {}
    for filename, line, message, _comments, _context in extract_from_dir(
            str(folder), method_map=[("**.py", "python")], keywords=KEYWORDS):
        if isinstance(message, str) and message:
            found.setdefault(message, []).append(f"{folder.name}/{filename}:{line}")
    return found


def web_messages() -> dict[str, list[str]]:
    """Every word of the pages: ``t("...")`` in their scripts (the games' too), ``[[...]]`` in their templates."""
    found: dict[str, list[str]] = {}
    pages = ROOT / "shared" / "http" / "web"
    files = sorted(pages.glob("*.js")) + sorted(pages.glob("*.html")) \
        + sorted((ROOT / "services").glob("*/web/*.js"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        pattern = WEB_TEMPLATE if path.suffix == ".html" else WEB_CALL
        for match in pattern.finditer(text):
            message = match.group(1) if path.suffix == ".html" else json.loads(f'"{match.group(1)}"')
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(message, []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of a message, sorted (a translation must have the same)."""
    return sorted(PLACEHOLDER.findall(text))


def locale_dir(domain: str) -> Path:
    return SHARED_LOCALE if domain == "shared" else domains()[domain] / "locale"


def update(lang: str = "fr") -> None:
    """Add every message the code says and its catalogs lack (with an empty translation to write),
    and drop the ones no code says any more: ``python -m shared.text.i18n update``."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    for domain, folder in domains().items():
        path = catalog_path(locale_dir(domain), lang)
        if path.is_file():
            with path.open("rb") as po:
                catalog = read_po(po, locale=lang)
        else:
            catalog = Catalog(locale=lang, domain="messages", project=f"boardgames {domain}")
        said = python_messages(folder)
        if not said and not path.is_file():
            continue
        for message, where in said.items():
            old = catalog.get(message)
            catalog.add(message, old.string if old else "", locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1]))
                                                                       for w in where[:3]])
        for stale in [m.id for m in catalog if isinstance(m.id, str) and m.id and m.id not in said]:
            catalog.delete(stale)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=110, sort_output=True, include_previous=False)
    web_path = SHARED_LOCALE / lang / "web.json"
    old_web = json.loads(web_path.read_text(encoding="utf-8")) if web_path.is_file() else {}
    web = {message: old_web.get(message, "") for message in sorted(web_messages())}
    web_path.parent.mkdir(parents=True, exist_ok=True)
    web_path.write_text(json.dumps(web, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] == ["update"]:
        update()
    else:
        print("python -m shared.text.i18n update   (adds new messages to the catalogs, drops unused ones)")
