"""The island's prompt texts in the terminal's words: bundles spelled out, an offer addressed
to the reader, a hint at the commands that help a placement. It reads the engine's *prompt*
sentence (``seat 2 offers 1 ore for 1 wool: accept, reject or counter``), not a log line; the
prompt's sentence is still text on the wire (log lines and refusals are data, ``docs/log.md``).
"""

from __future__ import annotations

import re

from hexfolk.cli.terminal.words import with_bundles_in_words


def island_prompt_words(text: str) -> str:
    """``text`` (the prompt without its ``seat N:`` prefix) in the terminal's words."""
    text = with_bundles_in_words(text)
    text = re.sub(r"^(seat \d+ offers .+?) for (.+?): accept", r"\1 for your \2: accept", text)
    if text.startswith(("place a setup settlement", "move the robber")):
        text += " (`board` shows the map, `list` what each choice touches)"
    return text
