"""The page's text files (src/hexfolk/web/i18n/**.json): each a JSON object with every key once
and the same keys in nl, en, es and ko (issue 27: every string in all four languages).

A key written twice is legal JSON (the last one wins), so two branches that both add a key
merge without a conflict and silently keep one; this test fails on it."""

import json
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[1] / "src" / "hexfolk" / "web" / "i18n"
LANGS = ("nl", "en", "es", "ko")
FOLDERS = sorted({p.parent for p in I18N.rglob("*.json")})


def _keys(path: Path) -> list[str]:
    seen: list[str] = []

    def hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        seen.extend(k for k, _ in pairs)
        return dict(pairs)

    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=hook)
    return seen


FILES = sorted(I18N.rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(I18N)))
def test_no_key_is_written_twice(path: Path) -> None:
    keys = _keys(path)
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"{path.relative_to(I18N)} writes these keys twice: {twice}"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: str(p.relative_to(I18N)) or "main")
def test_every_language_has_the_same_keys(folder: Path) -> None:
    files = {lang: folder / f"{lang}.json" for lang in LANGS}
    assert all(f.exists() for f in files.values()), f"{folder}: a language file is missing"
    keys = {lang: set(json.loads(f.read_text(encoding="utf-8"))) for lang, f in files.items()}
    for lang in LANGS:
        assert keys[lang] == keys["en"], (
            f"{folder.relative_to(I18N)}/{lang}.json: missing {sorted(keys['en'] - keys[lang])}, "
            f"extra {sorted(keys[lang] - keys['en'])}"
        )
